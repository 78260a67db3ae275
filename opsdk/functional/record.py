"""Helpers every core op uses: argument conversion, graph recording, broadcast reduction."""
import numpy as np

from ..autograd import grad_mode
from ..autograd.node import Node
from ..errors import DTypeError, OpArgumentError
from ..tensor import Tensor, _wrap, _wrap_req, version_total

_new = object.__new__

_state = grad_mode._state
_SCALARS = (int, float, bool)


def as_array(d):
    """NumPy turns 0-d results into scalars; a Tensor always holds an array."""
    if type(d) is np.ndarray:
        return d
    if isinstance(d, np.generic) or not hasattr(d, "__cuda_array_interface__"):
        return np.asarray(d)
    return d


def to_tensor_arg(x, op, arg):
    """An op argument as a Tensor (lists and arrays are wrapped, never differentiated)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple, np.ndarray, np.generic) + _SCALARS):
        from .creation import _to_array
        return _wrap(_to_array(x, None, None))
    if hasattr(x, "__cuda_array_interface__"):
        return _wrap(x)
    raise OpArgumentError(f"{op}: argument '{arg}' must be a Tensor, an array or a number; "
                          f"got: {type(x).__name__}")


def needs_grad(*ts):
    """True when grad mode is on and some Tensor among ts needs a gradient."""
    if not _state.enabled:
        return False
    for t in ts:
        if t is not None and t._req:
            return True
    return False


def _edge(t):
    if t is None or not t._req:
        return None
    node = t._node
    return (t, -1) if node is None else (node, t._out_idx)


def record(name, out, inputs, vjp, fast=None, saved=()):
    """Wrap ``out`` in a Tensor whose node routes gradients to the Tensors in ``inputs``.

    The caller has checked ``needs_grad``. Non-float outputs get no node.
    """
    if type(out) is not np.ndarray:
        out = as_array(out)
    if out.dtype.kind not in "fc":
        return _wrap(out)
    if len(inputs) == 1:
        edges = (_edge(inputs[0]),)
    else:
        edges = tuple([_edge(t) for t in inputs])
    if saved:
        saved = tuple([(t, t._version if t._base is None else version_total(t)) for t in saved])
    else:
        saved = None
    t = _new(Tensor)
    t._data = out
    t._node = Node(name, vjp, fast, edges, saved)
    t._req = True
    return t


def record1(name, out, x, vjp, fast, save_input=False):
    """``record`` for the hot path: one input that needs grad, a float ndarray output."""
    node = x._node
    t = _new(Tensor)
    t._data = out
    t._node = Node(name, vjp, fast, ((x, -1) if node is None else (node, x._out_idx),),
                   ((x, x._version if x._base is None else version_total(x)),)
                   if save_input else None)
    t._req = True
    return t


def mark_view(res, x, out):
    """res (holding array out) shares x's memory when NumPy/CuPy made a view: count versions."""
    if out.base is not None:
        res._base = x
    return res


def save_output(t):
    """Also version-check the op's own output, for rules that read it (tanh, exp, ...)."""
    entry = ((t, version_total(t)),)
    t._node.saved = entry if t._node.saved is None else t._node.saved + entry
    return t


def record_multi(name, outs, inputs, vjp, fast=None, saved=()):
    """Like record, for ops with several outputs; the rule receives one grad per output."""
    edges = tuple(
        None if (t is None or not t._req) else
        ((t, -1) if t._node is None else (t._node, t._out_idx))
        for t in inputs)
    node = Node(name, vjp, fast, edges,
                tuple((t, version_total(t)) for t in saved) if saved else None, n_out=len(outs))
    return [(_wrap_req(as_array(o), node, i) if as_array(o).dtype.kind in "fc" else _wrap(as_array(o)))
            for i, o in enumerate(outs)]


def reduce_axes(gshape, shape):
    """The axes of a broadcast result that must be summed to get back to ``shape``."""
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1)
    return axes


def unbroadcast_array(g, shape):
    """Sum a gradient array over the dimensions broadcasting added (first-order path)."""
    if g.shape == shape:
        return g
    axes = reduce_axes(g.shape, shape)
    if axes:
        g = g.sum(axis=axes)
    return g.reshape(shape)


def unbroadcast(g, shape):
    """Tensor version of unbroadcast_array, differentiable."""
    if tuple(g._data.shape) == shape:
        return g
    from .reduction import sum as _sum
    from .shape import reshape
    axes = reduce_axes(g._data.shape, shape)
    if axes:
        g = _sum(g, axis=list(axes))
    return reshape(g, list(shape))


def check_float(t, op, arg):
    if t._data.dtype.kind not in "fc":
        raise DTypeError(f"{op}: argument '{arg}' must be a float tensor; expected: float16, "
                         f"float32 or float64; got: {t._data.dtype}")
