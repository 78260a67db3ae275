"""TRANSITIONAL: the old two-rule recording API (vjp on Tensors, fast on arrays), kept only
until every op records through opsdk.autograd.record with one rule."""
from ..autograd import grad_mode
from ..autograd.record import OUTPUT, OutputOf, needs_grad, record as _record  # noqa: F401
from ..autograd.record import unbroadcast
from ..tensor import _SCALARS, _wrap, as_array  # noqa: F401
from ..tensor import tensor_arg as to_tensor_arg  # noqa: F401
from .views import mark_view  # noqa: F401

_state = grad_mode._state


class _Legacy:
    __slots__ = ("vjp", "fast", "multi")

    def __init__(self, vjp, fast, multi):
        self.vjp = vjp
        self.fast = fast
        self.multi = multi

    def __call__(self, g):
        gs = tuple(g) if self.multi else (g,)
        if _state.enabled:
            r = self.vjp(*gs)
        elif self.fast is not None:
            r = self.fast(*gs)
        else:
            r = self.vjp(*[None if x is None else _wrap(as_array(x)) for x in gs])
            r = r if isinstance(r, (tuple, list)) else (r,)
            return tuple(None if x is None else x._data for x in r)
        return tuple(r) if isinstance(r, (tuple, list)) else (r,)


def record(name, out, inputs, vjp, fast=None, saved=()):
    return _record(name, out, inputs, _Legacy(vjp, fast, False), saved=saved)


def record1(name, out, x, vjp, fast, save_input=False):
    return _record(name, out, (x,), _Legacy(vjp, fast, False), saved=(x,) if save_input else ())


def save_output(t):
    node = t._node
    reads = node.reads_output
    node.reads_output = {t._out_idx} if reads is None else reads | {t._out_idx}
    return t


def record_from_output(name, x, out, rule):
    return _record(name, out, (x,), (rule,), (OUTPUT,))


def record_multi(name, outs, inputs, vjp, fast=None, saved=()):
    return _record(name, list(outs), inputs, _Legacy(vjp, fast, len(outs) != 1), saved=saved)


def unbroadcast_array(g, shape):
    return unbroadcast(g, shape)


def _edge(t):
    if t is None or not t._req:
        return None
    node = t._node
    return (t, -1) if node is None else (node, t._out_idx)
