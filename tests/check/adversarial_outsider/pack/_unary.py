"""A Function for elementwise ops whose forward and backward are one kernel each."""
import opsdk

from ._arrays import array_of, tensor_of


def unary_function(name, forward_kernel, backward_kernel, saves="x"):
    """Function y = forward_kernel(x), dx = backward_kernel(saved, dy); saved is x or y."""

    def forward(ctx, x):
        y = tensor_of(forward_kernel(array_of(x)))
        ctx.save_for_backward(x if saves == "x" else y)
        return y

    def backward(ctx, dy):
        (a,) = ctx.saved_tensor()
        return tensor_of(backward_kernel(array_of(a), array_of(dy).astype(a.dtype, copy=False)))

    return type(name, (opsdk.Function,), {"forward": staticmethod(forward),
                                         "backward": staticmethod(backward),
                                         "__doc__": f"{name}: elementwise, kernels in python and C."})
