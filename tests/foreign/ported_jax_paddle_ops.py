"""The JAX custom_vjp and the Paddle PyLayer of tests/foreign (jax_ops.py, paddle_ops.py) ported to
opsdk: the same maths as opsdk PyLayers, with the same bugs planted at the same places. What
`opsdk check` catches here is what the foreign route must catch at least as often.

Importing this module needs neither JAX nor Paddle: the foreign packs are imported by whoever
holds their ops.
"""
import opsdk
from opsdk.registry.validation import build_opinfo


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
