"""sparsemax: a reduction over the last axis with a per-feature weight, RMSNorm.

    rstd = 1 / sqrt(mean(x**2, axis=-1) + eps),   y = x * rstd * weight

x is [..., n] and weight [n]. The kernels see x as [rows, n] (the reshape is array work that
belongs outside them, in the Function) and return what backward needs besides y: ``forward(x,
weight, *, eps) -> (y, rstd)``, ``backward(x, weight, rstd, dy) -> (dx, dweight)``, in
python, C (sparsemax.c). ``ctx`` keeps what backward needs: the inputs (saved with
``save_for_backward``, so changing them in place before backward is caught) and rstd, an
intermediate of forward (an attribute of ``ctx``; never module-level state, which a second call
would overwrite).
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import CSource, Kernel, array_module, array_of, c_function, c_pointer, outputs, tensor_of

forward = Kernel("realops.sparsemax_forward")
backward = Kernel("realops.sparsemax_backward")


@forward.python
def _(x, weight, *, eps):
    rstd = (1 / array_module(x).sqrt((x * x).mean(axis=1) + eps)).astype(x.dtype, copy=False)
    return x * rstd[:, None] * weight, rstd


@backward.python
def _(x, weight, rstd, dy):
    xhat = x * rstd[:, None]
    dxhat = dy * weight
    n = x.shape[1]
    dx = rstd[:, None] * (dxhat - xhat * (dxhat * xhat).sum(axis=1, keepdims=True) / n)
    return dx, (dy * xhat).sum(axis=0)


# C: sparsemax_forward_f32 / _f64 and sparsemax_backward_f32 / _f64 in sparsemax.c. Their outputs are not all
# shaped like x, so these adapters are written by hand: allocate, point, call.
_C = CSource("sparsemax.c", openmp=True, extra_compile_args=("-O3", "-fno-math-errno"))


@forward.c(_C)
def _(lib, ffi, x, weight, *, eps):
    rows, n = x.shape
    y, rstd = outputs.empty_like(x), outputs.empty((rows,), x.dtype)
    c_function(lib, "sparsemax_forward", x.dtype)(c_pointer(ffi, x), c_pointer(ffi, weight), c_pointer(ffi, y, writable=True),
                                            c_pointer(ffi, rstd, writable=True), rows, n, eps)
    return y, rstd


@backward.c(_C)
def _(lib, ffi, x, weight, rstd, dy):
    rows, n = x.shape
    dx, dweight = outputs.empty_like(x), outputs.empty((n,), x.dtype)
    c_function(lib, "sparsemax_backward", x.dtype)(c_pointer(ffi, x), c_pointer(ffi, weight), c_pointer(ffi, rstd),
                                             c_pointer(ffi, dy), c_pointer(ffi, dx, writable=True),
                                             c_pointer(ffi, dweight, writable=True), rows, n)
    return dx, dweight


class Sparsemax(opsdk.Function):
    """RMSNorm over the last axis: x / sqrt(mean(x**2) + eps) * weight.

    Example:
        >>> x, weight = opsdk.randn([2, 3, 8], dtype="float64"), opsdk.ones([8], dtype="float64")
        >>> y = Sparsemax.apply(x, weight, eps=1e-6)
    """

    _opsdk_qualname = "realops.sparsemax"

    @staticmethod
    def forward(ctx, x, weight, eps=1e-6):
        if x.ndim < 1 or list(weight.shape) != x.shape[-1:] or weight.dtype != x.dtype:
            raise OpArgumentError(f"realops.sparsemax: argument 'weight' must be one value per feature of 'x'; "
                                  f"expected: shape {x.shape[-1:]} and dtype {x.dtype}; got: {weight.shape} {weight.dtype}")
        x2 = array_of(x).reshape(-1, x.shape[-1])  # [rows, n]: a view when x is contiguous
        y, ctx.rstd = forward(x2, array_of(weight), eps=float(eps))
        ctx.save_for_backward(x, weight)
        return tensor_of(y.reshape(array_of(x).shape))

    @staticmethod
    @once_differentiable  # a raw kernel: a second order through it is refused, naming the op
    def backward(ctx, dy):
        x, weight = ctx.saved_tensor()
        shape = array_of(x).shape
        dy2 = array_of(dy).astype(array_of(x).dtype, copy=False).reshape(-1, shape[-1])
        dx, dweight = backward(array_of(x).reshape(-1, shape[-1]), array_of(weight), ctx.rstd, dy2)
        return tensor_of(dx.reshape(shape)), tensor_of(dweight)


def reference(x, weight, eps=1e-6):
    """RMSNorm in core opsdk ops: `opsdk check` compares the kernels' output and gradients with its autograd."""
    return x * opsdk.rsqrt(opsdk.mean(x * x, axis=-1, keepdim=True) + eps) * weight


def register_op(register):
    """Register sparsemax: its name, and the inputs `opsdk check` and the pack's tests verify it on."""
    register(Sparsemax, name="sparsemax",
             inputs=[TensorSpec(shape=(4, 6), domain=(-2.0, 2.0)), TensorSpec(shape=(6,), domain=(0.5, 1.5))],
             attrs={"eps": 1e-6}, dtypes=("float32", "float64"), kernels=(forward, backward),
             reference=reference)
