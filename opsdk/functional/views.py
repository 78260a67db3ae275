"""Views and in-place writes in grad mode: memory shared as in Paddle, gradients kept right.

A view (reshape, transpose, basic indexing, ...) shares its base's memory and its base's
version counter, in grad mode and under no_grad alike. A view made in grad mode also keeps
``_view_fn``: how to recompute it from the base with Tensor ops. That is what lets an in-place
write in grad mode keep every graph right:

- written through a view, the base is rebased onto a ``write_view`` node (its old graph outside
  the view, the written values inside), then every live view of the base gets its graph
  recomputed from the base;
- written into the base, every live view is recomputed from it.

Views made under no_grad, and views of a ``detach()``ed tensor, only share the counter.
"""
import threading
import weakref

import numpy as np

from ..autograd import grad_mode
from ..autograd.record import needs_grad, record
from ..device import array_module
from ..errors import LeafInplaceError, ShapeError, ViewInplaceError
from ..tensor import _wrap, _wrap_req, bump_version, version_total
from . import maths
from .casting import cast

_state = grad_mode._state


class _Regenerating(threading.local):
    active = False


_regen = _Regenerating()


def _owner(a):
    """The object at the end of a's ``.base`` chain: whoever owns a's memory."""
    b = getattr(a, "base", None)
    while b is not None:
        a, b = b, getattr(b, "base", None)
    return a


def shares_memory(out, data):
    """True when array ``out`` is a view into ``data``'s memory (NumPy and CuPy keep .base).

    The whole ``.base`` chain is followed: ``as_strided`` and views of views put objects (a
    DummyArray, an intermediate view) between a view and the memory's owner.
    """
    b = getattr(out, "base", None)
    if b is None:
        return False
    if b is data:
        return True
    return _owner(b) is _owner(data)


def mark_view(res, x, out, fn=None):
    """Record that res (holding array out) views x, when NumPy/CuPy made a view."""
    if not shares_memory(out, x._data):
        return res
    base = x._base
    root = x if base is None else base
    res._base = root
    if fn is None or not _state.enabled or _regen.active:
        return res
    if base is not None:
        inner = x._view_fn
        if inner is None:  # a view of a non-differentiable view is not differentiable either
            return res
        res._view_fn = lambda b: fn(inner(b))
    else:
        res._view_fn = fn
    views = root._views
    if views is None:
        views = root._views = []
    elif len(views) % 64 == 63:
        views[:] = [r for r in views if r() is not None]
    views.append(weakref.ref(res))
    return res


def alias(t, copy=False):
    """A Tensor with t's place in the graph and t's values now (a copy when ``copy``): the old
    value of t, as the input of the op that computes t's new value."""
    data = t._data.copy() if copy else t._data
    if t._req:
        return _wrap_req(data, t._node, t._out_idx)
    return _wrap(data)


def check_writable(t, op):
    """Raise before an in-place op in grad mode that could not keep the graph right."""
    if t._node is None and t._req:
        raise LeafInplaceError(
            f"{op}: in-place update of a leaf tensor that needs a gradient (shape {list(t.shape)}); "
            "wrap the update in `with opsdk.no_grad():` (as for `w -= lr * w.grad`), or compute "
            "out of place")
    if t._base is None or t._detached:
        return
    if t._view_fn is None:
        raise ViewInplaceError(
            f"{op}: in-place update, in grad mode, of a view made under no_grad (shape "
            f"{list(t.shape)}); expected: a view made in grad mode (so opsdk can route gradients "
            "through its base), or an update under no_grad; got: a grad-mode write. Make the "
            "view outside no_grad, or update a clone()")
    root = t._base
    if root._node is None and root._req:
        raise LeafInplaceError(
            f"{op}: in-place update, through a view, of a leaf tensor that needs a gradient "
            f"(view shape {list(t.shape)}, leaf shape {list(root.shape)}) with a value that needs a "
            "gradient; wrap the update in `with opsdk.no_grad():`, or compute out of place")


def view_of_leaf(t):
    """True for a view of a leaf that needs a gradient: writing constants through it is a plain
    write of new values into the leaf (as in Paddle), not a graph op."""
    root = t._base
    return (root is not None and not t._detached and root._node is None and root._req)


def shape_error(t, r, op):
    return ShapeError(f"{op}: the result's shape {list(r.shape)} differs from the tensor's "
                      f"{list(t.shape)}; an in-place op cannot change a tensor's shape")


def write(t, r, op, reshapes=False):
    """An in-place op in grad mode: t takes the values of r (its new value, computed out of place
    from ``alias(t)``) in its own memory, and r's place in the graph. Returns t.

    ``reshapes``: an op whose result may have another shape (take_result), else an error."""
    if r._data.dtype != t._data.dtype:
        r = cast(r, t._data.dtype)
    if tuple(r._data.shape) != tuple(t._data.shape):
        if not reshapes:
            raise shape_error(t, r, op)
        return take_result(t, r, op, graph=True)
    bump_version(t)
    _copy_into(t._data, r._data)
    node = r._node
    if node is not None and node.reads_output:
        # its output now lives in t's memory too (as in Paddle and PyTorch, where an op_ writes
        # its result there): a later write into that memory must make backward refuse
        owner = t._base if t._base is not None else t
        entry = ((owner, owner._version),)
        node.saved = entry if node.saved is None else node.saved + entry
    adopt(t, r)
    return t


def take_result(t, r, op, graph):
    """An in-place op whose result has another shape or dtype: t becomes r (its values, shape,
    dtype, memory and, with ``graph``, place in the graph), as in Paddle (``cumsum_`` without
    an axis flattens the tensor, ``assign(x, output)`` gives output x's shape, ``equal_``
    makes x bool). A view moves to its own memory (its base keeps its values); a tensor with
    live views of its own is refused (they would be left viewing memory it no longer has)."""
    if any(ref() is not None for ref in t._views or ()):
        raise ShapeError(f"{op}: the result (shape {list(r.shape)}, {r._data.dtype}) differs from the "
                         f"tensor (shape {list(t.shape)}, {t._data.dtype}), and views of the tensor "
                         f"share its memory; expected: a tensor without live views, or a "
                         f"result of its shape and dtype")
    bump_version(t)
    version = version_total(t)  # kept: a node that saved t must still see it changed
    t._data = r._data
    t._base = t._view_fn = None
    t._detached = False
    t._version = version
    if graph:
        t._node, t._out_idx, t._req = r._node, r._out_idx, r._req
        t._sg_off, t._op_result = r._sg_off, r._op_result
    return t


def adopt(t, r):
    """After t's memory holds r's values: give t (or its base, through the view) r's graph."""
    root = t._base
    if root is None or t._detached:
        t._node, t._out_idx, t._req = r._node, r._out_idx, r._req
        regenerate(t)
        return
    new = write_view(alias(root), t._view_fn, r, root._data)
    root._node, root._out_idx, root._req = new._node, new._out_idx, new._req
    regenerate(root)


def _copy_into(dst, src):
    if type(dst) is np.ndarray:
        np.copyto(dst, src, casting="unsafe")
    else:
        dst[...] = src


def regenerate(root):
    """Recompute the graph of every live view of root from root (after root was rebased)."""
    views = root._views
    if not views:
        return
    prev = _state.enabled
    _regen.active = True
    _state.enabled = True
    try:
        for ref in views:
            v = ref()
            if v is None or v._view_fn is None:
                continue
            n = v._view_fn(root)
            v._node, v._out_idx, v._req = n._node, n._out_idx, n._req
    finally:
        _regen.active = False
        _state.enabled = prev


def write_view(base, fn, value, data):
    """The base after ``fn(base)`` was overwritten by ``value``: its old graph outside the view,
    value's inside. ``data`` is the base's memory, already holding the written values."""
    if not needs_grad(base, value):
        return _wrap(data)
    xp = array_module(data)
    # where the view's elements sit in the base, as flat positions (works for any view op)
    with grad_mode.no_grad():
        pos = fn(_wrap(xp.arange(data.size).reshape(data.shape)))._data
    outside = xp.ones(data.size, dtype=bool)
    outside[pos.reshape(-1)] = False
    return record("write_view", data, (base, value), _WRITE_VIEW,
                  (outside.reshape(data.shape), pos))


# the base keeps the gradient outside the view (a select: 0 inside, whatever g holds there);
# the written value gets the view's elements of it
_WRITE_VIEW = (lambda g, outside, pos: maths.where(outside, g, 0),
               lambda g, outside, pos: maths.take(g, pos))
