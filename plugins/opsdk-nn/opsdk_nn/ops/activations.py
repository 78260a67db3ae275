"""The fused elementwise activations: gelu (erf and tanh forms), silu, softplus, mish.

Each forward runs one kernel. Its backward is an op of its own (ActivationGrad: dx = dy f'(x))
so it can be differentiated again: plain double backward runs the fused f'' kernel (bwd2);
when that second derivative is itself recorded (create_graph=True at second order) it is built
from opsdk ops instead (activation_rules), so every order works.
"""
from typing import Callable, NamedTuple

from opsdk.autograd import PyLayer
from opsdk.errors import OpArgumentError

from ..kernels.activations import KERNELS, ActivationKernels
from . import activation_rules as rules
from ._common import array_of, creating_graph, float_input, grad_like, run, tensor


class Activation(NamedTuple):
    """One activation: its op name (for messages), kernels and differentiable f''."""

    op: str
    kernels: ActivationKernels
    second: Callable


GELU = Activation("nn.gelu", KERNELS["gelu"], rules.gelu_second)
GELU_TANH = Activation("nn.gelu", KERNELS["gelu_tanh"], rules.gelu_tanh_second)
SILU = Activation("nn.silu", KERNELS["silu"], rules.silu_second)
SOFTPLUS = Activation("nn.softplus", KERNELS["softplus"], rules.softplus_second)
MISH = Activation("nn.mish", KERNELS["mish"], rules.mish_second)


class ActivationGrad(PyLayer):
    """dx = dy * f'(x) of an activation, recorded as an op so double backward works."""

    _opsdk_qualname = "nn.activation_grad"

    @staticmethod
    def forward(ctx, x, dy, activation, p0, p1):
        xa = array_of(x)
        ctx.save_for_backward(x, dy)
        ctx.activation, ctx.params = activation, (p0, p1)
        return tensor(run(activation.kernels.bwd, xa, grad_like(dy, xa), p0=p0, p1=p1))

    @staticmethod
    def backward(ctx, g):
        x, dy = ctx.saved_tensor()
        activation, (p0, p1) = ctx.activation, ctx.params
        if creating_graph():
            gdy = ActivationGrad.apply(x, g, activation, p0, p1)
            return g * dy * activation.second(x, p0, p1), gdy
        xa = array_of(x)
        gx, gdy = run(activation.kernels.bwd2, xa, grad_like(dy, xa), grad_like(g, xa), p0=p0, p1=p1)
        return tensor(gx), tensor(gdy)


def _forward(ctx, x, activation, p0=0.0, p1=0.0):
    """Shared forward: check x, keep it for backward, run the activation's forward kernel."""
    xa = float_input(x, activation.op, "x")
    ctx.save_for_backward(x)
    ctx.activation, ctx.params = activation, (p0, p1)
    return tensor(run(activation.kernels.fwd, xa, p0=p0, p1=p1))


def _backward(ctx, dy):
    (x,) = ctx.saved_tensor()
    return ActivationGrad.apply(x, dy, ctx.activation, *ctx.params)


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
        return _forward(ctx, x, _gelu_form(approximate))

    backward = staticmethod(_backward)


class Silu(PyLayer):
    """SiLU (swish): x * sigmoid(x). Fused kernels, double backward."""

    _opsdk_qualname = "nn.silu"

    @staticmethod
    def forward(ctx, x):
        return _forward(ctx, x, SILU)

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
        return _forward(ctx, x, SOFTPLUS, float(beta), float(threshold))

    backward = staticmethod(_backward)


class Mish(PyLayer):
    """Mish: x * tanh(softplus(x)). Fused kernels, double backward."""

    _opsdk_qualname = "nn.mish"

    @staticmethod
    def forward(ctx, x):
        return _forward(ctx, x, MISH)

    backward = staticmethod(_backward)
