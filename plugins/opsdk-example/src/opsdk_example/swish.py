"""example.swish: x * sigmoid(beta * x), the SiLU activation for beta = 1.

Two Functions: ``Swish`` runs the forward kernel, and its backward is ``SwishGrad``, a Function of
its own that runs the backward kernel. SwishGrad's backward is written with opsdk ops, so
gradients of any order work (``double_backward=True``) while first-order backward stays on the
fast kernels. SwishGrad is only needed when the gradient will itself be differentiated
(``create_graph=True``, which is when grad mode is on inside a backward); a first-order backward
runs the backward kernel alone, without the cost of another Function call.
"""
import opsdk
from opsdk.kernels import array_of, tensor_of

from .swish_kernels import swish_bwd, swish_fwd


class Swish(opsdk.Function):
    """Swish, elementwise: x * sigmoid(beta * x) (SiLU for beta = 1)."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        beta = float(beta)  # a NumPy float64 beta would promote float32 arrays to float64
        ctx.save_for_backward(x)
        ctx.beta = beta
        return tensor_of(swish_fwd(array_of(x), beta=beta))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        if opsdk.is_grad_enabled():  # create_graph=True: this gradient will be differentiated
            return SwishGrad.apply(x, dy, ctx.beta)
        return _swish_grad(x, dy, ctx.beta)


class SwishGrad(opsdk.Function):
    """dy * swish'(x): the gradient of swish, differentiable in x and dy."""

    @staticmethod
    def forward(ctx, x, dy, beta):
        ctx.save_for_backward(x, dy)
        ctx.beta = beta
        return _swish_grad(x, dy, beta)

    @staticmethod
    def backward(ctx, ddx):
        x, dy = ctx.saved_tensor()
        beta = ctx.beta
        s = opsdk.sigmoid(beta * x)
        ds = beta * s * (1.0 - s)                       # d/dx sigmoid(beta * x)
        first = s + x * ds                              # swish'(x)
        second = ds * (2.0 + beta * x * (1.0 - 2.0 * s))  # swish''(x)
        return ddx * dy * second, ddx * first


def _swish_grad(x, dy, beta):
    """dy * swish'(x) by the backward kernel (Tensors in, a Tensor out)."""
    x = array_of(x)
    # the C and CUDA kernels read x and dy as one dtype
    return tensor_of(swish_bwd(x, array_of(dy).astype(x.dtype, copy=False), beta=beta))


def swish(x, beta=1.0):
    """Swish, elementwise: x * sigmoid(beta * x); differentiable to any order.

    Args:
        x: a float32 or float64 Tensor, on the CPU or a GPU.
        beta: a number; beta = 1 gives SiLU.

    Returns:
        A Tensor of x's shape, dtype and place.

    Example:
        >>> swish(opsdk.to_tensor([0.0, 1.0], dtype="float64"), beta=1.0).numpy()
        array([0.        , 0.73105858])
    """
    return Swish.apply(x, beta)


def swish_reference(x, beta=1.0):
    """The same maths in core opsdk ops: what `opsdk check` compares forward and gradients with."""
    return x * opsdk.sigmoid(beta * x)


def register_op(register):
    """Register example.swish: its Function, verification inputs and kernels."""
    register(Swish, name="swish",
             inputs=[opsdk.TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
             attrs={"beta": 1.5},
             dtypes=("float32", "float64"),
             double_backward=True,
             kernels=(swish_fwd, swish_bwd),
             reference=swish_reference)
