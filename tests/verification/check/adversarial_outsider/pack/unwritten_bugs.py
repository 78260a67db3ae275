"""C kernels that leave output elements as whatever memory held."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._unary import unary_function

F = ("float32", "float64")

# -- out.softclip_notail_c: backward unrolled by 4 with no tail loop ---------------------------
clip_fwd = Kernel("out.softclip_notail_fwd", dtypes=F)
clip_bwd = Kernel("out.softclip_notail_bwd", dtypes=F)
clip_fwd.python(lambda x: x / numpy.sqrt(1 + x * x))
clip_bwd.python(lambda x, dy: dy * (1 + x * x) ** -1.5)
_c.unary(clip_fwd, _c.EW, "rt_softclip_fwd")
_c.unary_grad(clip_bwd, _c.EW, "rt_softclip_bwd")
SoftclipNotail = unary_function("SoftclipNotail", clip_fwd, clip_bwd)

# -- out.relu_mask_c: relu and its mask; the mask is only written where x > 0 ------------------
relumask = Kernel("out.relu_mask_fwd", dtypes=F)


@relumask.python
def _(x):
    return numpy.maximum(x, 0), (x > 0).astype(x.dtype)


@relumask.c(_c.EW)
def _(lib, ffi, x):
    y, mask = numpy.empty_like(x), numpy.empty_like(x)
    _c.fn(lib, "rt_relumask_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), _c.ptr(ffi, mask, True),
                                      x.size)
    return y, mask


class ReluMask(opsdk.Function):
    """relu(x) and the mask x > 0 (as x's dtype, not differentiable)."""

    @staticmethod
    def forward(ctx, x):
        y, mask = relumask(array_of(x))
        y, mask = tensor_of(y), tensor_of(mask)
        ctx.save_for_backward(mask)
        ctx.mark_non_differentiable(mask)
        return y, mask

    @staticmethod
    def backward(ctx, dy, dmask):
        (mask,) = ctx.saved_tensor()
        return dy * mask


def register(register):
    register(SoftclipNotail, name="softclip_notail_c", inputs=[TensorSpec(shape=(3, 4))], dtypes=F,
             kernels=(clip_fwd, clip_bwd))
    register(ReluMask, name="relu_mask_c", inputs=[TensorSpec(shape=(3, 4), avoid=(0.0,))],
             dtypes=F, kernels=(relumask,))
