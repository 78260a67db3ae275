"""Helpers every core op uses: argument conversion, graph recording, broadcast reduction."""
import weakref

import numpy as np

from ..autograd import grad_mode
from ..autograd.node import Node, OutputReadingNode, running
from ..errors import DTypeError, OpArgumentError
from ..tensor import Tensor, _wrap, _wrap_req, int_result, version_total
# mark_view(res, x, out, fn=None): res views x's memory; fn(base) recomputes it (views.py)
from .views import mark_view  # noqa: F401  (re-exported: ops import it from here)

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
        return int_result(out)
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


def save_output(t):
    """The op's rule reads its own output t: an in-place write into t makes backward refuse.

    Nothing is kept on the node (a reference to t would make a reference cycle); the write
    itself tells the node (tensor.bump_version). A view's memory belongs to its base, which is
    version-checked as a saved tensor instead.
    """
    node = t._node
    if t._base is not None:
        entry = ((t._base, t._base._version),)
        node.saved = entry if node.saved is None else node.saved + entry
        return t
    reads = node.reads_output
    node.reads_output = {t._out_idx} if reads is None else reads | {t._out_idx}
    return t


class OutputOf:
    """A node's own output, rebuilt as a graph-connected Tensor when its rule runs.

    Holding the output Tensor itself would make a cycle (node -> rule -> output -> node), so
    graphs that are never backpropagated would wait for the garbage collector.
    """

    __slots__ = ("data", "node", "idx")

    def __init__(self, t):
        self.data = t._data
        self.node = weakref.ref(t._node)
        self.idx = t._out_idx

    def get(self):
        return _wrap_req(self.data, self.node(), self.idx)


def record_from_output(name, x, out, rule):
    """Record a one-input op whose gradient is ``rule(g, y)`` of its own output y.

    The same formula serves arrays (first order, y = the output array) and Tensors
    (create_graph, y = the output rebuilt as a Tensor of this node, so second order flows
    through it). Writing the output in place before backward is an error.
    """
    node = x._node

    def vjp(g):
        return (rule(g, _wrap_req(out, running.node, 0)),)
    t = _new(Tensor)
    t._data = out
    t._node = OutputReadingNode(name, vjp, lambda g: (rule(g, out),),
                                ((x, -1) if node is None else (node, x._out_idx),), None)
    t._req = True
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
    from .shape import reshape_exact
    axes = reduce_axes(g._data.shape, shape)
    if axes:
        g = _sum(g, axis=list(axes))
    return reshape_exact(g, list(shape))


def check_float(t, op, arg):
    if t._data.dtype.kind not in "fc":
        raise DTypeError(f"{op}: argument '{arg}' must be a float tensor; expected: float16, "
                         f"float32 or float64; got: {t._data.dtype}")
