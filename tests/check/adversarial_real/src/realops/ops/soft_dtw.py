"""soft_dtw: a reduction over the last axis with a per-feature weight, RMSNorm.

    rstd = 1 / sqrt(mean(x**2, axis=-1) + eps),   y = x * rstd * weight

x is [..., n] and weight [n]. The kernels see x as [rows, n] (the reshape is array work that
belongs outside them, in the Function) and return what backward needs besides y: ``forward(x,
weight, *, eps) -> (y, rstd)``, ``backward(x, weight, rstd, dy) -> (dx, dweight)``, in
python. ``ctx`` keeps what backward needs: the inputs (saved with
``save_for_backward``, so changing them in place before backward is caught) and rstd, an
intermediate of forward (an attribute of ``ctx``; never module-level state, which a second call
would overwrite).
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import Kernel, array_module, array_of, outputs, tensor_of

forward = Kernel("realops.soft_dtw_forward")
backward = Kernel("realops.soft_dtw_backward")


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


class SoftDtw(opsdk.Function):
    """RMSNorm over the last axis: x / sqrt(mean(x**2) + eps) * weight.

    Example:
        >>> x, weight = opsdk.randn([2, 3, 8], dtype="float64"), opsdk.ones([8], dtype="float64")
        >>> y = SoftDtw.apply(x, weight, eps=1e-6)
    """

    _opsdk_qualname = "realops.soft_dtw"

    @staticmethod
    def forward(ctx, x, weight, eps=1e-6):
        if x.ndim < 1 or list(weight.shape) != x.shape[-1:] or weight.dtype != x.dtype:
            raise OpArgumentError(f"realops.soft_dtw: argument 'weight' must be one value per feature of 'x'; "
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
    """Register soft_dtw: its name, and the inputs `opsdk check` and the pack's tests verify it on."""
    register(SoftDtw, name="soft_dtw",
             inputs=[TensorSpec(shape=(4, 6), domain=(-2.0, 2.0)), TensorSpec(shape=(6,), domain=(0.5, 1.5))],
             attrs={"eps": 1e-6}, dtypes=("float32", "float64"), kernels=(forward, backward),
             reference=reference)
