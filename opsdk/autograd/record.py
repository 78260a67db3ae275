"""Recording the graph: the one way an op adds its backward node, and unbroadcasting.

An op computes its output array, then calls ``record(name, out, inputs, rule, args)``:

- ``inputs``: the op's Tensor operands, in order (None for an operand that is a number);
- ``rule``: one gradient rule per input, ``rule[i](g, *args)`` -> input i's gradient, given the
  output's gradient ``g`` (the list of them, for an op with several outputs), as HIPS
  autograd's ``defvjp``. An op whose backward computes every input's gradient at once (a
  PyLayer's backward, recompute) gives one function returning a tuple of them instead;
- ``args``: the values the rules read: input Tensors (saved: writing one in place before
  backward makes backward refuse), ``OUTPUT`` (the op's own output, likewise guarded) and
  constants.

The engine runs a rule on arrays for a first-order backward, and on Tensors when the gradient
must itself be differentiated (create_graph): saved inputs as the Tensors they are, ``OUTPUT``
as a Tensor of this very node. So each rule is written once, with operators and
``opsdk.functional.maths``, which act on arrays and Tensors alike. With ``broadcast=True`` the
rules return gradients of the output's shape and the engine sums each back to its input's
shape (``unbroadcast``).

Nothing is recorded when grad mode is off or no input needs a gradient (``needs_grad``):
``record`` then only wraps ``out`` in a Tensor.
"""
import weakref

import numpy as np

from ..dtypes import FLOAT_CLASSES
from ..tensor import Tensor, _wrap, _wrap_req, as_array, int_result, version_total
from . import saved_hooks
from . import grad_mode
from .node import READS_OUTPUT, Node

_new = object.__new__
_state = grad_mode._state
# a global, read fast: CPython 3.11 does not cache ``np.ndarray`` read in a function (numpy's
# module has a __getattr__), and record reads it for every op
_ndarray = np.ndarray


def needs_grad(*tensors):
    """True when grad mode is on and a Tensor among ``tensors`` needs a gradient (None skipped).

    Ops call it before work only backward needs; ``record`` asks it again itself.
    """
    if _state.enabled:
        for t in tensors:
            if t is not None and t._req:
                return True
    return False


def index_result(x, idx):
    """The int64 positions an op picked out of x (argsort, topk, kthvalue, mode): in grad mode
    they report x's stop_gradient=False and are not a leaf, as in Paddle (no gradient flows)."""
    if _state.enabled and not x.stop_gradient:
        return int_result(idx)
    return _wrap(idx)


class _Output:
    __slots__ = ()

    def __repr__(self):
        return "OUTPUT"


# in ``args``: the op's own output (read by a rule, e.g. exp's ``g * y``)
OUTPUT = _Output()


class OutputOf:
    """An output a PyLayer's ctx saved: the array, and the way back to a Tensor of it (``get()``).

    Holding the output Tensor itself would be a cycle (node -> ctx -> output -> node), so a
    graph never backpropagated would wait for the garbage collector. (An op's rule that reads its
    own output names ``OUTPUT``; its node holds the array as ``out``.)
    """

    __slots__ = ("data", "node", "idx")

    def __init__(self, t):
        self.data = t._data
        self.node = weakref.ref(t._node)
        self.idx = t._out_idx

    def get(self):
        return _wrap_req(self.data, self.node(), self.idx)


def output_read_by_backward(t):
    """Mark t (an op's output) as read by its op's backward, as Paddle's kernel for that op
    reads it (relu, elu, max, logsumexp, divide, ...; opsdk's own rule may read other values):
    writing t in place before backward then makes backward refuse (InplaceModifiedError, a
    RuntimeError), as in Paddle. For an op composed of others, t's node is the last one's.
    Returns t."""
    node = t._node
    if node is not None and node.rule is not None and not node.reads_output:
        node.reads_output = frozenset((t._out_idx,))
    return t


def edge_to(t):
    """Where a gradient for t goes: (t, -1) for a leaf, (node, output index), None for none."""
    if t is None or not t._req:
        return None
    node = t._node
    return (t, -1) if node is None else (node, t._out_idx)


def record(name, out, inputs, rule, args=(), broadcast=False, saved=()):
    """``out`` (an array, or a list of arrays for several outputs) as Tensors whose node routes
    gradients to ``inputs`` through ``rule`` (see the module docstring).

    Args:
        name: the op's name, as errors show it.
        out: the output array, or the list of output arrays.
        inputs: the op's Tensor operands (None where an operand is not a Tensor).
        rule: a tuple of one gradient rule per input, or one function giving all gradients.
        args: what the rules read: input Tensors, OUTPUT, constants.
        broadcast: sum each gradient back to its input's shape.
        saved: more Tensors to version-check before backward (read indirectly).

    Returns:
        The output Tensor (a list for a list of outputs); a non-float output gets no node.
    """
    if type(out) is not _ndarray:
        if type(out) is list:
            return _record_outputs(name, out, inputs, rule, args, saved)
        out = as_array(out)
    if not _state.enabled:
        return _wrap(out)
    if len(inputs) == 1:
        x = inputs[0]
        if x is None or not x._req:
            return _no_grad_result(out, inputs)
        node = x._node
        edges = ((x, -1) if node is None else (node, x._out_idx),)
    else:
        edges = tuple([edge_to(t) for t in inputs])
        if edges.count(None) == len(edges):
            return _no_grad_result(out, inputs)
    if type(out.dtype) not in FLOAT_CLASSES and out.dtype.kind not in "fc":
        return int_result(out)
    reads_out = False
    keep = None
    for a in args:
        # by identity: ``in`` or == would compare Tensors elementwise
        if a is OUTPUT:
            reads_out = True
        elif isinstance(a, Tensor):
            keep = [a] if keep is None else keep + [a]
    node = _new(Node)  # Node.__init__, written out
    node.name = name
    node.rule = rule
    node.edges = edges
    node.n_out = 1
    node.shapes = node.pre_hooks = None  # (set below for a broadcasting op)
    if reads_out:
        node.out = out
        node.reads_output = READS_OUTPUT
        args = list(args)
    else:
        node.out = node.reads_output = None
        if keep is not None:
            args = list(args)
    if keep is not None:
        pair = saved_hooks.active()
        if pair is not None:
            # saved_tensors_hooks: the Tensors the rules read, packed now, unpacked by backward
            args = [saved_hooks.pack(a, pair) if isinstance(a, Tensor) else a for a in args]
            node.packed = True
    node.args = args
    node.saved = None if keep is None and not saved else _versions(keep, saved)
    if broadcast:
        shape = out.shape
        shapes = tuple([None if e is None or t._data.shape == shape else t._data.shape
                        for t, e in zip(inputs, edges)])
        if shapes.count(None) != len(shapes):
            node.shapes = shapes
    t = _new(Tensor)
    t._data = out
    t._node = node
    t._req = True
    return t


def _no_grad_result(out, inputs):
    """An output no gradient reaches: an integer one of an integer input that reports
    stop_gradient=False (``cast(x, "int64")`` of an x that needs a gradient, an integer leaf set
    so) reports False too, as in Paddle (``prod(x, dtype="int64")``, ``c + 1``)."""
    if out.dtype.kind in "biu":
        for t in inputs:
            if t is not None and t._sg_off:
                return int_result(out)
    return _wrap(out)


def _versions(keep, saved):
    """(tensor, version) for each Tensor the rules read, and each one in saved."""
    keep = list(saved) if keep is None else keep + list(saved)
    return tuple([(t, t._version if t._base is None else version_total(t)) for t in keep]) or None


def _record_outputs(name, outs, inputs, rule, args, saved):
    """record for an op with several outputs: the rules receive the list of their gradients."""
    outs = [as_array(o) for o in outs]
    edges = tuple([edge_to(t) for t in inputs])
    if not _state.enabled or edges.count(None) == len(edges):
        return [_wrap(o) for o in outs]
    if len(outs) == 1:
        # the engine hands a one-output node its gradient bare: the rules still get a list
        rule = tuple(_listed(r) for r in rule) if type(rule) is tuple else _listed(rule)
    node = Node(name, rule, edges, list(args), _versions(
        [a for a in args if isinstance(a, Tensor)], saved), n_out=len(outs))
    return [_wrap_req(o, node, i) if o.dtype.kind in "fc" else _wrap(o)
            for i, o in enumerate(outs)]


def _listed(rule):
    def listed(g, *args):
        return rule([g], *args)
    listed.__wrapped__ = rule
    listed.complex_ok = getattr(rule, "complex_ok", False)  # the engine reads it on the wrapper
    return listed


def _same(g):
    return g


def clone(x, name=None):
    """A differentiable copy of x (new memory; the gradient passes through unchanged)."""
    return record("clone", x._data.copy(), (x,), (_same,))


# -- unbroadcasting: the recorder's half of every broadcasting op ---------------------------
def reduce_axes(gshape, shape):
    """The axes of a broadcast result that must be summed to get back to ``shape``."""
    lead = len(gshape) - len(shape)
    return tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1)


def _summed_to(g, shape):
    # shape may have more dims than g, all leading 1s (Paddle's x[i] = v takes a v of shape
    # [1, 1, 2] for a [3, 2] region): sum to the trailing dims, then add the ones back
    core = shape[max(0, len(shape) - g.ndim):]
    axes = reduce_axes(g.shape, core)
    if axes:
        g = g.sum(axis=axes)
    return g.reshape(shape)


def _leading_ones_dropped(a, ndim):
    """a without the leading dims (all of size 1) beyond ``ndim``."""
    return a if a.ndim <= ndim else a.reshape(a.shape[a.ndim - ndim:])


def unbroadcast(g, shape):
    """A gradient of a broadcast result summed back to an input's ``shape``.

    On a Tensor it is a graph op (its gradient broadcasts back: ``expand``), so it
    differentiates again; on an array (NumPy or CuPy) a plain sum.
    """
    shape = tuple(shape)
    if not isinstance(g, Tensor):
        return g if g.shape == shape else _summed_to(g, shape)
    gshape = g._data.shape
    if gshape == shape:
        return g
    return record("unbroadcast", _summed_to(g._data, shape), (g,), (_expanded,), (gshape,))


def expand(g, shape):
    """g broadcast to ``shape`` (the adjoint of unbroadcast): a read-only view of an array; a
    new Tensor, graph-connected, of a Tensor."""
    shape = tuple(shape)
    if not isinstance(g, Tensor):
        return g if g.shape == shape else np.broadcast_to(_leading_ones_dropped(g, len(shape)),
                                                          shape)
    gd = g._data
    if gd.shape == shape:
        return g
    # a copy: a Tensor's memory is writable (np.broadcast_to dispatches to CuPy too)
    out = np.broadcast_to(_leading_ones_dropped(gd, len(shape)), shape).copy()
    return record("expand", out, (g,), (_unbroadcast_to,), (gd.shape,))


def _expanded(gg, gshape):
    return expand(gg, gshape)


def _unbroadcast_to(gg, shape):
    return unbroadcast(gg, shape)
