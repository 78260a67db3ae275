"""The JAX custom_vjp and the Paddle PyLayer of tests/foreign (jax_ops.py, paddle_ops.py) ported to
opsdk: the same maths as opsdk PyLayers, with the same bugs planted at the same places. What
`opsdk check` catches here is what the foreign route must catch at least as often.

Importing this module needs neither JAX nor Paddle: the foreign packs are imported by whoever
holds their ops.
"""
import numpy as np

import opsdk
from opsdk.packs.registry.validation import build_opinfo


def port_as_declared(foreign, layer, **options):
    """The ported op, declared as the foreign one is (name, inputs, attrs and their ranges,
    double backward, dtypes)."""
    return build_opinfo("ported", None, None, layer, dict(
        options, name=foreign.name, inputs=list(foreign.inputs), attrs=foreign.attrs or None,
        attr_ranges=foreign.attr_ranges or None, double_backward=foreign.double_backward,
        dtypes=foreign.dtypes))


class SwishBeta(opsdk.PyLayer):
    """x * sigmoid(beta * x), as jax_ops.swish."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        ctx.beta = beta
        ctx.save_for_backward(x)
        return x * opsdk.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        s = opsdk.sigmoid(ctx.beta * x)
        return dy * (s + ctx.beta * x * s * (1 - s))


class SwishBetaHardCoded(SwishBeta):
    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        s = opsdk.sigmoid(x)                           # BUG: beta = 1 hard-coded
        return dy * (s + x * s * (1 - s))


class CenterRows(opsdk.PyLayer):
    """x minus its row mean, as paddle_ops.CenterRows."""

    @staticmethod
    def forward(ctx, x):
        return x - x.mean(axis=-1, keepdim=True)

    @staticmethod
    def backward(ctx, dy):
        return dy - dy.mean(axis=-1, keepdim=True)


class CenterRowsMeanAsConstant(CenterRows):
    @staticmethod
    def backward(ctx, dy):
        return dy                                      # BUG: the mean's term dropped


_CENTER = {"reference": lambda x: x - x.mean(axis=-1, keepdim=True)}
_SWISH = {"reference": lambda x, beta=1.0: x * opsdk.sigmoid(beta * x)}
_LAYERS = {  # the foreign op's qualified name: (the ported layer, register options)
    "jaxpack.swish": (SwishBeta, _SWISH),
    "jaxpack.swish_fixed_beta": (SwishBetaHardCoded, _SWISH),
    "paddlepack.center_rows": (CenterRows, _CENTER),
    "paddlepack.center_rows_mean_as_constant": (CenterRowsMeanAsConstant, _CENTER),
}


def ported(foreign):
    """The opsdk port of a foreign op of jax_ops or paddle_ops."""
    layer, options = _LAYERS[foreign.qualname]
    return port_as_declared(foreign, layer, **options)


# --- the real JAX custom_vjp and Paddle PyLayer (real_jax_ops.py, real_paddle_ops.py) ----------
def _segment_masks(rows, sizes, inclusive_starts=False):
    """[B, rows, 1] bool Tensor: row n belongs to segment b (sizes: an int Tensor)."""
    sizes = sizes.numpy()
    ends = np.cumsum(sizes)
    starts = ends if inclusive_starts else ends - sizes
    n = np.arange(rows)
    return opsdk.to_tensor(((n >= starts[:, None]) & (n < (starts + sizes)[:, None]))[:, :, None])


def segment_matmul_plain(x, weights, sizes):
    per_segment = opsdk.einsum("ni,boi->bno", x, weights)
    return opsdk.where(_segment_masks(x.shape[0], sizes), per_segment,
                       opsdk.zeros_like(per_segment)).sum(axis=0)


def _masked(t, mask):
    return opsdk.where(mask, t, opsdk.zeros_like(t))


def _segment_layer(dx_weights, dweights, name):
    """real_jax_ops' segment matmul (jax-md's UMA segmented matmul) as an opsdk PyLayer whose
    backward is built from the two pieces given, as there."""

    class Layer(opsdk.PyLayer):
        @staticmethod
        def forward(ctx, x, weights, sizes):
            ctx.save_for_backward(x, weights, sizes)
            return segment_matmul_plain(x, weights, sizes)

        @staticmethod
        def backward(ctx, dy):
            x, weights, sizes = ctx.saved_tensor()
            return (segment_matmul_plain(dy, dx_weights(weights), sizes),
                    dweights(x, dy, sizes), None)

    Layer.__name__ = Layer.__qualname__ = name
    return Layer


def _transposed(weights):
    return weights.transpose([0, 2, 1])


def _dweights(x, dy, sizes, inclusive_starts=False):
    mask = _segment_masks(x.shape[0], sizes, inclusive_starts)
    return opsdk.einsum("bno,bni->boi", _masked(dy.unsqueeze(0), mask),
                        _masked(x.unsqueeze(0), mask))


def _dweights_every_row(x, dy, sizes):
    # BUG (wrong reduction): every row, not the segment's
    return opsdk.einsum("no,ni->oi", dy, x).unsqueeze(0).expand(
        [sizes.shape[0], dy.shape[1], x.shape[1]])


def _dweights_inclusive_starts(x, dy, sizes):
    return _dweights(x, dy, sizes, inclusive_starts=True)             # BUG: shifted segments


_TRANSPOSED_BY_SHAPE = {}


def _transposed_cached(weights):
    # BUG (stateful cache): memoised by shape, later calls get the first call's weights
    return _TRANSPOSED_BY_SHAPE.setdefault(tuple(weights.shape), _transposed(weights))


def _dweights_float32(x, dy, sizes):
    return _dweights(x.astype("float32"), dy.astype("float32"), sizes)  # BUG: float32


SegmentMatmul = _segment_layer(_transposed, _dweights, "SegmentMatmul")
SegmentMatmulEveryRow = _segment_layer(_transposed, _dweights_every_row, "SegmentMatmulEveryRow")
SegmentMatmulInclusiveStarts = _segment_layer(_transposed, _dweights_inclusive_starts,
                                              "SegmentMatmulInclusiveStarts")
SegmentMatmulCachedTranspose = _segment_layer(_transposed_cached, _dweights,
                                              "SegmentMatmulCachedTranspose")
SegmentMatmulFloat32Dweights = _segment_layer(_transposed, _dweights_float32,
                                              "SegmentMatmulFloat32Dweights")


def _per_channel(v, c):
    return v.reshape([1, c, 1, 1])


def layer_norm_2d_plain(x, weight, bias, eps=1e-6):
    c = x.shape[1]
    mu = x.mean(axis=1, keepdim=True)
    var = (x - mu).pow(2).mean(axis=1, keepdim=True)
    return _per_channel(weight, c) * ((x - mu) / (var + eps).sqrt()) + _per_channel(bias, c)


def _normalised(x, eps):
    mu = x.mean(axis=1, keepdim=True)
    var = (x - mu).pow(2).mean(axis=1, keepdim=True)
    return (x - mu) / (var + eps).sqrt(), var


class LayerNorm2D(opsdk.PyLayer):
    """real_paddle_ops.LayerNorm2D (PaddleGAN's NAFNet channel layer norm) as an opsdk PyLayer;
    opsdk takes a gradient for an input that needs none, so the Paddle version's None rule has
    nothing to port. First-order only, as the Paddle op (its backward reads saved tensors)."""

    once_differentiable = True

    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-6):
        y, var = _normalised(x, eps)
        ctx.eps = eps
        ctx.save_for_backward(y, var, weight)
        return _per_channel(weight, x.shape[1]) * y + _per_channel(bias, x.shape[1])

    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return dx, (dy * y).sum(axis=[0, 2, 3]), dy.sum(axis=[0, 2, 3])


class LayerNorm2DNoVarianceTerm(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        dx = (g - g.mean(axis=1, keepdim=True)) / (var + ctx.eps).sqrt()   # BUG: term dropped
        return dx, (dy * y).sum(axis=[0, 2, 3]), dy.sum(axis=[0, 2, 3])


class LayerNorm2DEpsForgotten(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / var.sqrt()                       # BUG: eps left out
        return dx, (dy * y).sum(axis=[0, 2, 3]), dy.sum(axis=[0, 2, 3])


class LayerNorm2DScaledWeightGrad(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return dx, (g * y).sum(axis=[0, 2, 3]), dy.sum(axis=[0, 2, 3])     # BUG: g, not dy


class LayerNorm2DSavedYInPlace(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        y_term = y.multiply_((g * y).mean(axis=1, keepdim=True))           # BUG: in place on y
        dx = (g - y_term - mean_g) / (var + ctx.eps).sqrt()
        return dx, (dy * y).sum(axis=[0, 2, 3]), dy.sum(axis=[0, 2, 3])


class LayerNorm2DStashedVariance(LayerNorm2D):
    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-6):
        y, var = _normalised(x, eps)
        ctx.eps = eps
        ctx.save_for_backward(y, weight)
        LayerNorm2DStashedVariance.var = var                               # BUG: on the class
        return _per_channel(weight, x.shape[1]) * y + _per_channel(bias, x.shape[1])

    @staticmethod
    def backward(ctx, dy):
        y, weight = ctx.saved_tensor()
        var = LayerNorm2DStashedVariance.var
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return dx, (dy * y).sum(axis=[0, 2, 3]), dy.sum(axis=[0, 2, 3])


_SEGMENT = {"reference": segment_matmul_plain}
_NORM = {"reference": layer_norm_2d_plain}
_LAYERS.update({
    "realjax.segment_matmul": (SegmentMatmul, _SEGMENT),
    "realjax.segment_matmul_every_row": (SegmentMatmulEveryRow, _SEGMENT),
    "realjax.segment_matmul_inclusive_starts": (SegmentMatmulInclusiveStarts, _SEGMENT),
    "realjax.segment_matmul_cached_transpose": (SegmentMatmulCachedTranspose, _SEGMENT),
    "realjax.segment_matmul_float32_dweights": (SegmentMatmulFloat32Dweights, _SEGMENT),
    "realpaddle.layer_norm_2d": (LayerNorm2D, _NORM),
    "realpaddle.layer_norm_2d_as_shipped": (LayerNorm2D, _NORM),
    "realpaddle.layer_norm_2d_no_variance_term": (LayerNorm2DNoVarianceTerm, _NORM),
    "realpaddle.layer_norm_2d_eps_forgotten": (LayerNorm2DEpsForgotten, _NORM),
    "realpaddle.layer_norm_2d_scaled_weight_grad": (LayerNorm2DScaledWeightGrad, _NORM),
    "realpaddle.layer_norm_2d_saved_y_in_place": (LayerNorm2DSavedYInPlace, _NORM),
    "realpaddle.layer_norm_2d_stashed_variance": (LayerNorm2DStashedVariance, _NORM),
})
