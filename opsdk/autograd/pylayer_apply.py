"""Running a PyLayer: forward without a graph, then one node whose rule calls backward."""
import numpy as np

from ..errors import BackwardError
from . import grad_mode

_state = grad_mode._state


def _name(cls):
    return getattr(cls, "_opsdk_qualname", None) or cls.__name__


def apply(cls, args, kwargs):
    from ..functional.record import record_multi
    from ..tensor import Tensor, _wrap
    from .function import PyLayerContext

    ctx = PyLayerContext()
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    tensors = [args[i] for i in positions]
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._req for a in args)
    req = _state.enabled and any(t._req for t in tensors)
    prev = _state.enabled
    _state.enabled = False
    try:
        result = cls.forward(ctx, *args, **kwargs)
    finally:
        _state.enabled = prev
    single = isinstance(result, Tensor)
    outs = (result,) if single else tuple(result)
    if not req:
        return result
    out_arrays = [o._data for o in outs]
    name = _name(cls)
    n_args = len(args)

    def vjp(*gs):
        if ctx._materialize:
            gs = [(_wrap(np.zeros_like(a)) if g is None else g) for g, a in zip(gs, out_arrays)]
        r = cls.backward(ctx, *gs)
        if isinstance(r, Tensor) or r is None:
            r = (r,)
        r = tuple(r)
        if len(r) == n_args and n_args != len(tensors):
            r = tuple(r[i] for i in positions)
        if len(r) != len(tensors):
            raise BackwardError(f"{name}.backward returned {len(r)} gradients; expected: one per "
                                f"Tensor input ({len(tensors)}) or one per forward argument "
                                f"({n_args}); got: {len(r)}")
        return r

    saved = tuple(t for t in ctx._saved if isinstance(t, Tensor))
    wrapped = record_multi(name, out_arrays, tensors, vjp, None, saved=saved)
    for w, o in zip(wrapped, outs):
        if id(o) in ctx._non_diff:
            w._node = None
            w._req = False
    return wrapped[0] if single else tuple(wrapped)
