"""Autograd: grad modes, the engine, opsdk.grad, the PyLayer protocol and gradient checks."""
from ..device import array_module as _array_module
from ..tensor import Tensor as _Tensor
from .engine import run_backward as _run_backward
from .function import Function, PyLayer, PyLayerContext, once_differentiable
from .grad_api import check_grad_tensors, grad, seed_array
from .functional import Hessian, Jacobian, hessian, jacobian, jvp, vjp
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .saved_hooks import saved_tensors_hooks

__all__ = ["Function", "PyLayer", "PyLayerContext", "once_differentiable", "grad", "backward",
           "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "gradcheck",
           "gradgradcheck", "saved_tensors_hooks", "jvp", "vjp", "jacobian", "hessian", "Jacobian",
           "Hessian"]


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Run backward from several tensors at once (Paddle's paddle.autograd.backward)."""
    ts = [tensors] if isinstance(tensors, _Tensor) else list(tensors)
    if grad_tensors is None:
        gs = [None] * len(ts)
    else:
        gs = [grad_tensors] if isinstance(grad_tensors, _Tensor) else list(grad_tensors)
        check_grad_tensors(gs, len(ts), "opsdk.autograd.backward", "grad_tensors")
    seeds = [_array_module(t._data).ones_like(t._data) if g is None else
             seed_array(t, g, f"opsdk.autograd.backward: grad_tensors[{i}]", f"tensors[{i}]")
             for i, (t, g) in enumerate(zip(ts, gs))]
    _run_backward(ts, seeds, retain_graph, False)


# names from a layer above (gradcheck, gradgradcheck from opsdk.gradcheck), handed down by
# opsdk/__init__ as {name: a function loading it}, so that they load only when asked for
from_above = {}


def __getattr__(name):
    if name in from_above:
        value = globals()[name] = from_above[name]()
        return value
    raise AttributeError(f"module 'opsdk.autograd' has no attribute {name!r}")
