"""The fused elementwise activations: gelu (erf and tanh forms), silu, softplus, mish.

Each is an ``Elementwise`` op (kernels/activations.py): the forward runs one kernel; the backward
is an op of its own (dx = dy f'(x)) so it can be differentiated again: plain double backward runs
the fused f'' kernel, and where that second derivative is itself recorded (create_graph=True at
second order) it is built from the op's python f'' on Tensors, so every order works.
"""
from opsdk.autograd import PyLayer
from opsdk.errors import OpArgumentError

from ..kernels.activations import GELU, GELU_TANH, MISH, SILU, SOFTPLUS


def _forward(ctx, op, x, **attrs):
    """Shared forward: the op's checks and value kernel; the op is kept for backward."""
    ctx.op = op
    return op.forward(ctx, x, **attrs)


def _backward(ctx, dy):
    return ctx.op.backward(ctx, dy)


def _gelu_form(approximate):
    """GELU or GELU_TANH for Paddle's ``approximate`` flag (also 'none'/'tanh', as in PyTorch)."""
    if approximate in (False, "none"):
        return GELU
    if approximate in (True, "tanh"):
        return GELU_TANH
    raise OpArgumentError(f"nn.gelu: argument 'approximate' must be a bool; expected: False (erf "
                          f"form) or True (tanh form); got: {approximate!r}")


class Gelu(PyLayer):
    """GELU: x * Phi(x) (erf form), or x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)) with approximate=True.

    Fused forward, backward and double backward kernels (python, c, cuda), float32 and float64.
    """

    _opsdk_qualname = "nn.gelu"

    @staticmethod
    def forward(ctx, x, approximate=False):
        return _forward(ctx, _gelu_form(approximate), x)

    backward = staticmethod(_backward)


class Silu(PyLayer):
    """SiLU (swish): x * sigmoid(x). Fused kernels, double backward."""

    _opsdk_qualname = "nn.silu"

    @staticmethod
    def forward(ctx, x):
        return _forward(ctx, SILU, x)

    backward = staticmethod(_backward)


class Softplus(PyLayer):
    """Softplus: log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (as Paddle).

    Fused kernels, double backward. ``beta`` must not be 0.
    """

    _opsdk_qualname = "nn.softplus"

    @staticmethod
    def forward(ctx, x, beta=1.0, threshold=20.0):
        if not beta:
            raise OpArgumentError(f"nn.softplus: argument 'beta' must be non-zero; got: {beta!r}")
        return _forward(ctx, SOFTPLUS, x, beta=beta, threshold=threshold)

    backward = staticmethod(_backward)


class Mish(PyLayer):
    """Mish: x * tanh(softplus(x)). Fused kernels, double backward."""

    _opsdk_qualname = "nn.mish"

    @staticmethod
    def forward(ctx, x):
        return _forward(ctx, MISH, x)

    backward = staticmethod(_backward)
