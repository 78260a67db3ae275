"""An in-test pack for what first-party ops do not exercise: a bool tensor argument, an int64
output, two outputs, an optional tensor and a list attribute; a kernel op with its own jvp and
a first-order backward (forward mode)."""
import numpy as np

import opsdk
from opsdk.packs.hookspecs import hookimpl
from opsdk.packs.registry import Sample

NAME = "interoptest"
FIRST_PARTY = ("opsdk.erf", "example.swish", "nn.gelu", "nn.silu", "nn.softplus", "nn.mish",
               "nn.softmax", "nn.log_softmax", "nn.layer_norm", "nn.rms_norm", "nn.cross_entropy")
# the default suite verifies one op of each shape in each framework (an elementwise op of the
# core and of a pack, a row op with attributes, this pack's op with int, bool and optional
# arguments); every op runs in the full verification (each costs 2-13 s of compiles per framework)
SAMPLED = ("opsdk.erf", "example.swish", "nn.layer_norm", "interoptest.masked_scale")


def per_op():
    """pytest params over every first-party op and this pack's, the unsampled ones slow."""
    import pytest

    return [pytest.param(name, marks=[] if name in SAMPLED else [pytest.mark.slow])
            for name in FIRST_PARTY + ("interoptest.masked_scale",)]


class MaskedScale(opsdk.Function):
    """(where(mask, x * scale, x) + offset[idx], count of mask): float and int64 outputs."""

    @staticmethod
    def forward(ctx, x, mask, offset=None, scale=2.0, idx=(0,)):
        ctx.save_for_backward(x, mask)
        ctx.scale = scale
        factor = opsdk.where(mask, opsdk.full_like(x, scale), opsdk.ones_like(x))
        y = x * x * factor
        if offset is not None:
            y = y + offset[list(idx)].sum()
        ctx.has_offset, ctx.idx, ctx.offset_shape = offset is not None, list(idx), \
            None if offset is None else offset.shape
        return y, opsdk.to_tensor(np.asarray(mask.numpy().sum(), dtype=np.int64))

    @staticmethod
    def backward(ctx, dy, dcount):
        x, mask = ctx.saved_tensor()
        factor = opsdk.where(mask, opsdk.full_like(x, ctx.scale), opsdk.ones_like(x))
        dx = 2.0 * x * factor * dy
        if not ctx.has_offset:
            return dx, None
        select = np.zeros(ctx.offset_shape)
        np.add.at(select, ctx.idx, 1.0)
        return dx, None, opsdk.to_tensor(select, dtype=dy.dtype) * dy.sum()


def _samples(rng, dtype):
    x = rng.uniform(-2, 2, size=(3, 4)).astype(dtype)
    mask = rng.uniform(size=(3, 4)) > 0.5
    offset = rng.uniform(-1, 1, size=(5,)).astype(dtype)
    return [Sample((x, mask), {"scale": 3.0}),
            Sample((x, mask, offset), {"scale": 0.5, "idx": [1, 3]})]


class KernelCube(opsdk.Function):
    """scale * x**3 in raw arrays: a first-order backward and its own jvp (kernels)."""

    @staticmethod
    def forward(ctx, x, scale=1.0):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.scale = scale
        return opsdk.to_tensor(scale * x.numpy() ** 3)

    @staticmethod
    @opsdk.autograd.once_differentiable
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return opsdk.to_tensor(3 * ctx.scale * x.numpy() ** 2 * dy.numpy())

    @staticmethod
    def jvp(ctx, x_t, scale_t=None):
        (x,) = ctx.saved_for_forward()
        return opsdk.to_tensor(3 * ctx.scale * x.numpy() ** 2 * x_t.numpy())


@hookimpl
def register_ops(register):
    register(MaskedScale, name="masked_scale", samples=_samples, double_backward=True)
    register(KernelCube, name="kernel_cube", inputs=[opsdk.TensorSpec(shape=(4,))],
             attrs={"scale": 1.5})
