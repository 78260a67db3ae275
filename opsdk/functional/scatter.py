"""Writing by index: scatter, put_along_axis, index_add, masked_fill (and their in-place
variants), with take_along_axis, the gather that put_along_axis inverts.

Where several values land on one position, 'assign' keeps the last one (in index order) and
only that value gets a gradient; the others never reach the output, so theirs is 0.
"""
import inspect

import numpy as np

from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap
from .flat_index import positions, put, take
from .inplace_apply import inplace_method
from .op_args import (aliases, axis_arg, check_same_dtype, index_array, reshape_exact,
                      tensor_arg, wrap_index)
from .record import _state, record
from .sorting import take_along


def last_writers(p):
    """Mask of the entries of p (flat positions) that are the last to write their position."""
    n = p.size
    if n == 0:
        return np.zeros(0, dtype=bool)
    last = np.full(int(p.max()) + 1, -1, dtype=np.int64)
    np.maximum.at(last, p, np.arange(n, dtype=np.int64))
    win = np.zeros(n, dtype=bool)
    win[last[last >= 0]] = True
    return win


def _zero_where(g, mask):
    """g with 0 where mask (a select, not a product: NaN and inf there become 0 too)."""
    from .logic import where
    return where(_wrap(mask), 0, g)


# -- scatter ----------------------------------------------------------------------------------
def _rows_index(index, x, updates):
    ind = index_array(index, "scatter")
    if ind.ndim == 2 and ind.shape[1] == 1:
        ind = ind[:, 0]
    elif ind.ndim == 0:
        ind = ind.reshape(1)
        updates = reshape_exact(updates, [1] + list(updates._data.shape))
    elif ind.ndim != 1:
        raise ShapeError(f"scatter: argument 'index' must be 1-D (or [N, 1]); got: shape "
                         f"{list(ind.shape)}")
    return wrap_index(ind, x._data.shape[0], "scatter", "index", 0), updates


def _scatter_rows(x, index, updates, overwrite=True, name=None):
    x = tensor_arg(x, "scatter")
    u = tensor_arg(updates, "scatter", "updates")
    if x._data.ndim == 0:
        raise ShapeError("scatter: expected: 'x' with at least 1 dim; got: a 0-d tensor")
    rows, u = _rows_index(index, x, u)
    check_same_dtype("scatter", x, u, "x", "updates")
    n, rest = len(rows), list(x._data.shape[1:])
    us = list(u._data.shape)
    if len(us) != len(rest) + 1 or us[1:] != rest or us[0] < n:
        raise ShapeError(f"scatter: 'updates' must have shape [{n}] + x.shape[1:] = "
                         f"{[n] + rest}; got: {us}")
    if us[0] > n:  # Paddle reads the first len(index) rows
        u = u[:n]
    xd, ud = x._data, u._data
    hit = np.zeros(xd.shape[0], dtype=bool)
    hit[rows] = True
    out = xd.copy()
    if overwrite:
        win = last_writers(rows)
        out[rows[win]] = ud[win]
    else:
        win = None
        out[hit] = 0
        np.add.at(out, rows, ud)
    if not (_state.enabled and (x._req or u._req)):
        return _wrap(out)
    rx, ru = x._req, u._req
    lay = (-1,) + (1,) * len(rest)

    def fast(g):
        gx = np.where(hit.reshape(lay), 0, g) if rx else None
        gu = g[rows] if ru else None
        if gu is not None and win is not None:
            gu[~win] = 0
        return gx, gu

    def vjp(g):
        from .indexing import getitem
        gx = _zero_where(g, hit.reshape(lay)) if rx else None
        gu = None
        if ru:
            gu = getitem(g, rows)
            if win is not None:
                gu = _zero_where(gu, ~win.reshape(lay))
        return gx, gu
    return record("scatter", out, (x, u), vjp, fast)


def _scatter_by_dim(input, dim, index, src=None, reduce=None, value=None, name=None):
    """Paddle's torch-style scatter(input, dim, index, src): put_along_axis, no broadcasting."""
    if src is None:
        src = value
    elif value is not None:
        raise OpArgumentError("scatter: pass 'src' or 'value', not both")
    if src is None:
        raise OpArgumentError("scatter: the (input, dim, index, src) form needs 'src'")
    return put_along_axis(input, index, src, dim, reduce or "assign", broadcast=False)


def _is_dim_call(args, kwargs):
    return "dim" in kwargs or (len(args) >= 2 and isinstance(args[1], (int, np.integer))
                               and not isinstance(args[1], bool))


def scatter(*args, **kwargs):
    """scatter(x, index, updates, overwrite=True): rows of x at index replaced by updates.

    With overwrite=True a repeated index keeps its last update (the earlier ones get gradient
    0); with overwrite=False the updates of an index are summed, replacing x's row. x's
    scattered rows get gradient 0. ``scatter(input, dim, index, src, reduce=None)`` is
    put_along_axis without broadcasting, as in Paddle.

    Example:
        >>> x = opsdk.zeros([3, 2])
        >>> opsdk.scatter(x, opsdk.to_tensor([1]), opsdk.ones([1, 2])).numpy()
        array([[0., 0.],
               [1., 1.],
               [0., 0.]], dtype=float32)
    """
    if _is_dim_call(args, kwargs):
        return _scatter_by_dim(*args, **kwargs)
    return _scatter_rows(*args, **kwargs)


scatter.__signature__ = inspect.signature(_scatter_rows)
scatter_ = inplace_method(scatter, "scatter_")


# -- take_along_axis / put_along_axis ---------------------------------------------------------
def _along_axis_args(op, arr, indices, axis):
    arr = tensor_arg(arr, op, "arr")
    ind = index_array(indices, op, "indices")
    nd = arr._data.ndim
    if nd == 0:
        raise ShapeError(f"{op}: expected: 'arr' with at least 1 dim; got: a 0-d tensor")
    if ind.ndim != nd:
        raise ShapeError(f"{op}: 'indices' must have {nd} dims like 'arr'; got: {ind.ndim} "
                         f"(shape {list(ind.shape)})")
    return arr, ind, axis_arg(axis, nd, op)


def _broadcast_array(a, shape, op, arg):
    try:
        return np.broadcast_to(a, shape)
    except ValueError:
        raise ShapeError(f"{op}: '{arg}' of shape {list(np.shape(a))} does not broadcast to "
                         f"{list(shape)}") from None


def _within(op, ind, shape, axis, what):
    for d, (i, s) in enumerate(zip(ind.shape, shape)):
        if d != axis and i > s:
            raise ShapeError(f"{op}: 'indices' is larger than {what} in dim {d}; expected: at "
                             f"most {s}; got: {i} (indices shape {list(ind.shape)})")


@aliases(input="arr", dim="axis")
def take_along_axis(arr, indices, axis, broadcast=True):
    """Values of arr at indices along axis; indices has arr's ndim.

    With broadcast=True, indices and arr broadcast against each other on the other axes;
    with broadcast=False, indices may be smaller there and reads the leading part of arr.
    Repeated indices add their gradients.

    Example:
        >>> x = opsdk.to_tensor([[1.0, 2.0, 3.0]])
        >>> opsdk.take_along_axis(x, opsdk.to_tensor([[2, 0]]), 1).numpy()
        array([[3., 1.]], dtype=float32)
    """
    from .shape import broadcast_to
    arr, ind, axis = _along_axis_args("take_along_axis", arr, indices, axis)
    if broadcast:
        a_s = arr._data.shape
        shape = [0 if 0 in (i, a) else max(i, a) for i, a in zip(ind.shape, a_s)]
        shape[axis] = ind.shape[axis]
        ind = _broadcast_array(ind, shape, "take_along_axis", "indices")
        shape[axis] = a_s[axis]
        if list(a_s) != shape:
            arr = broadcast_to(arr, shape)
    else:
        _within("take_along_axis", ind, arr._data.shape, axis, "'arr'")
    ind = wrap_index(ind, arr._data.shape[axis], "take_along_axis", "indices", axis)
    return take_along("take_along_axis", arr, ind, axis, unique=False)


_REDUCES = {"assign": "assign", "add": "add", "mul": "mul", "multiply": "mul", "mean": "mean",
            "amin": "amin", "amax": "amax"}


def _values_arg(values, arr, op, arg="values"):
    """values as a Tensor of arr's dtype: a Tensor must have it, numbers and lists are cast."""
    if isinstance(values, Tensor):
        check_same_dtype(op, arr, values, "arr" if arg == "values" else "x", arg)
        return values
    try:
        return _wrap(np.asarray(np.asarray(values).astype(arr._data.dtype)))
    except (TypeError, ValueError):
        raise OpArgumentError(f"{op}: argument '{arg}' must be a number, a list of numbers or a "
                              f"Tensor; got: {type(values).__name__} {values!r}") from None


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    """arr with values written at indices along axis (a copy).

    reduce says how values meet what is there: 'assign' (the last value at a position wins),
    'add', 'mul'/'multiply', 'mean', 'amin', 'amax'; include_self=False leaves arr's own value
    out of the reduction. Ties of amin/amax share the gradient equally.

    Example:
        >>> x = opsdk.zeros([1, 3])
        >>> opsdk.put_along_axis(x, opsdk.to_tensor([[1]]), 5.0, 1).numpy()
        array([[0., 5., 0.]], dtype=float32)
    """
    from .shape import broadcast_to
    op = "put_along_axis"
    arr, ind, axis = _along_axis_args(op, arr, indices, axis)
    if reduce not in _REDUCES:
        raise OpArgumentError(f"{op}: argument 'reduce' must be one of {sorted(_REDUCES)}; "
                              f"got: {reduce!r}")
    v = _values_arg(values, arr, op)
    a_s = arr._data.shape
    if broadcast:
        shape = list(a_s)
        shape[axis] = ind.shape[axis]
        if any(a < i for a, i in zip(a_s, ind.shape)):
            shape = list(ind.shape)  # as Paddle: no broadcasting then, indices must fit arr
            _within(op, ind, a_s, axis, "'arr'")
        ind = _broadcast_array(ind, shape, op, "indices")
        if list(v._data.shape) != shape:
            _broadcast_array(v._data, shape, op, "values")
            v = broadcast_to(v, shape)
    else:
        _within(op, ind, a_s, axis, "'arr'")
        if v._data.ndim == 0:
            v = broadcast_to(v, list(ind.shape))
        if v._data.ndim != ind.ndim or any(i > s for i, s in zip(ind.shape, v._data.shape)):
            raise ShapeError(f"{op}: 'values' must cover 'indices'; expected: at least "
                             f"{list(ind.shape)} in every dim; got: {v.shape}")
        if list(v._data.shape) != list(ind.shape):
            v = v[tuple(slice(0, i) for i in ind.shape)]
    ind = wrap_index(ind, a_s[axis], op, "indices", axis)
    region = tuple(slice(0, s) if d != axis else slice(None) for d, s in enumerate(ind.shape))
    p = np.take_along_axis(positions(a_s)[region], ind, axis)
    return put_reduce(op, arr, p, v, _REDUCES[reduce], include_self)


put_along_axis_ = inplace_method(put_along_axis, "put_along_axis_")


class _Groups:
    """The positions written (uniq), each entry's group (inv) and the group sizes."""

    def __init__(self, p, size):
        self.p = p.reshape(-1)
        counts = np.bincount(self.p, minlength=size)
        self.hit = counts > 0
        self.uniq = np.flatnonzero(self.hit)
        self.counts = counts[self.uniq]
        group = np.empty(size, dtype=np.int64)
        group[self.uniq] = np.arange(len(self.uniq), dtype=np.int64)
        self.inv = group[self.p]

    def sums(self, vals):
        if vals.dtype.kind == "f":
            return np.bincount(self.inv, weights=vals, minlength=len(self.uniq)).astype(
                vals.dtype, copy=False)
        acc = np.zeros(len(self.uniq), dtype=vals.dtype)
        np.add.at(acc, self.inv, vals)
        return acc


def _reduce_forward(xd, g, vals, reduce, include):
    """The output array of put_reduce (flat), and what its gradient rule needs."""
    out = xd.reshape(-1).copy()
    base = out[g.uniq]
    if reduce == "assign":
        win = last_writers(g.p)
        out[g.p[win]] = vals[win]
        return out, win
    if reduce in ("add", "mean"):
        s = g.sums(vals) + (base if include else 0)
        if reduce == "mean":
            d = g.counts + int(include)
            s = s / d if xd.dtype.kind in "fc" else np.trunc(s / d)
        out[g.uniq] = s
        return out, None
    if reduce == "mul":
        acc = base.copy() if include else np.ones_like(base)
        np.multiply.at(acc, g.inv, vals)
        out[g.uniq] = acc
        return out, None
    fn = np.minimum if reduce == "amin" else np.maximum
    acc = base.copy() if include else vals[np.unique(g.inv, return_index=True)[1]].copy()
    fn.at(acc, g.inv, vals)
    out[g.uniq] = acc
    return out, None


def _equal(a, b):
    return (a == b) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind == "f" else a == b


def _minmax_weights(xd, out, g, vals, include):
    """Equal shares of the gradient for the members equal to the result (ties split)."""
    res = out[g.uniq]
    wv = _equal(vals, res[g.inv])
    wb = _equal(xd.reshape(-1)[g.uniq], res) if include else np.zeros(len(g.uniq), bool)
    ties = np.bincount(g.inv, weights=wv, minlength=len(g.uniq)) + wb
    return wv / ties[g.inv], wb / ties


def _mul_others(xd, g, vals, include):
    """For each member of a 'mul' group, the product of the other members (zeros exact)."""
    base = xd.reshape(-1)[g.uniq]
    zero_v = vals == 0
    nz = np.ones(len(g.uniq), dtype=vals.dtype)
    np.multiply.at(nz, g.inv, np.where(zero_v, 1, vals))
    zc = np.bincount(g.inv, weights=zero_v, minlength=len(g.uniq)).astype(np.int64)
    if include:
        nz = nz * np.where(base == 0, 1, base)
        zc = zc + (base == 0)

    def others(m, grp):
        with np.errstate(all="ignore"):
            return np.where(zc[grp] == 0, nz[grp] / np.where(m == 0, 1, m),
                            np.where((zc[grp] == 1) & (m == 0), nz[grp], 0)).astype(m.dtype)
    ov = others(vals, g.inv)
    ob = others(base, np.arange(len(g.uniq))) if include else None
    return ov, ob


def put_reduce(op, x, p, v, reduce, include):
    """x with v (shape of p) reduced into the flat positions p of x."""
    xd = x._data
    if p.size == 0:
        return _nothing_written(op, x, v)
    g = _Groups(p, xd.size)
    vals = v._data.reshape(-1)
    out, win = _reduce_forward(xd, g, vals, reduce, include)
    out = out.reshape(xd.shape)
    if not (_state.enabled and (x._req or v._req)) or xd.dtype.kind not in "fc":
        return _wrap(out)
    if reduce in ("amin", "amax"):
        wv, wb = _minmax_weights(xd, out.reshape(-1), g, vals, include)
    elif reduce == "mean":
        d = (g.counts + int(include)).astype(xd.dtype)
        wv, wb = 1 / d[g.inv], (1 / d if include else np.zeros_like(d))
    elif reduce == "mul":
        wv, wb = _mul_others(xd, g, vals, include)
        if not include:
            wb = np.zeros(len(g.uniq), xd.dtype)
    else:
        wv = win.astype(xd.dtype) if reduce == "assign" else np.ones_like(vals)
        wb = np.ones(len(g.uniq), xd.dtype) if reduce == "add" and include else \
            np.zeros(len(g.uniq), xd.dtype)
    wv, wb = wv.astype(xd.dtype), wb.astype(xd.dtype)
    rx, rv = x._req, v._req
    xs, vs = xd.shape, v._data.shape
    # the gradient reaching x: g off the written positions, g * wb on them
    wx = np.ones(xd.size, xd.dtype)
    wx[g.uniq] = wb
    wx = wx.reshape(xs)

    def fast(gr):
        gx = _scaled_array(gr, wx) if rx else None
        gv = _scaled_array(gr.reshape(-1)[g.p], wv).reshape(vs) if rv else None
        return gx, gv

    def vjp(gr):
        if reduce == "mul":
            return _mul_vjp(gr, x, v, g, include, rx, rv)
        gx = _scaled(gr, wx) if rx else None
        gv = reshape_exact(_scaled(take(op, gr, g.p, unique=False), wv), vs) if rv else None
        return gx, gv
    saved = (x, v) if reduce in ("mul", "amin", "amax") else ()
    return record(op, out, (x, v), vjp, fast, saved=saved)


def _nothing_written(op, x, v):
    """put_reduce with no indices: a copy of x; v (empty) gets an empty gradient."""
    out = x._data.copy()
    if not (_state.enabled and (x._req or v._req)) or out.dtype.kind not in "fc":
        return _wrap(out)
    zeros = np.zeros(v._data.shape, dtype=out.dtype)
    return record(op, out, (x, v), lambda g: (g, _wrap(zeros)), lambda g: (g, zeros))


def _scaled_array(a, w):
    """a * w, exactly 0 where w is 0 (NaN or inf in a do not leak through a zero weight)."""
    return np.where(w == 0, np.zeros((), a.dtype), a * w)


def _scaled(t, w):
    """_scaled_array with Tensor ops."""
    from .logic import where
    if np.all(w == 1):
        return t
    zero = w == 0
    r = t * _wrap(w) if np.any(w[~zero] != 1) else t
    return where(_wrap(zero), 0, r) if zero.any() else r


def _mul_vjp(gr, x, v, g, include, rx, rv):
    """The 'mul' gradient with Tensor ops: each group laid out as a row (padded with 1s), the
    product of the other members from products._others (exact and differentiable)."""
    from .products import _others
    n_u = len(g.uniq)
    order = np.argsort(g.inv, kind="stable")
    starts = np.cumsum(g.counts) - g.counts
    rank = np.empty_like(g.inv)
    rank[order] = np.arange(g.inv.size) - starts[g.inv[order]]
    lead = int(include)
    width = int(g.counts.max()) + lead
    pos_v = g.inv * width + rank + lead
    filled = np.zeros(n_u * width, dtype=bool)
    filled[pos_v] = True
    vflat = reshape_exact(v, [g.p.size])
    rows = put("put_along_axis", vflat, pos_v, (n_u * width,))
    if include:
        filled[np.arange(n_u) * width] = True
        rows = rows + put("put_along_axis", take("put_along_axis", x, g.uniq),
                          np.arange(n_u) * width, (n_u * width,))
    rows = rows + _wrap((~filled).astype(x._data.dtype))
    others = reshape_exact(_others(reshape_exact(rows, [n_u, width])), [n_u * width])
    gv = None
    if rv:
        gv = reshape_exact(take("put_along_axis", gr, g.p, unique=False) *
                           take("put_along_axis", others, pos_v), v._data.shape)
    gx = None
    if rx:
        from .logic import where
        hit = _wrap(g.hit.reshape(x._data.shape))
        if include:
            on = take("put_along_axis", gr, g.uniq) * take("put_along_axis", others,
                                                          np.arange(n_u) * width)
            gx = where(hit, put("put_along_axis", on, g.uniq, x._data.shape), gr)
        else:
            gx = where(hit, 0, gr)
    return gx, gv


# -- index_add ---------------------------------------------------------------------------------
def _index_add(x, index, axis, value, alpha=1, name=None):
    from .arithmetic import add, multiply
    op = "index_add"
    x = tensor_arg(x, op)
    v = tensor_arg(value, op, "value")
    ind = index_array(index, op)
    if ind.ndim != 1:
        raise ShapeError(f"{op}: argument 'index' must be 1-D; got: shape {list(ind.shape)}")
    nd = x._data.ndim
    if nd == 0:
        raise ShapeError(f"{op}: expected: 'x' with at least 1 dim; got: a 0-d tensor")
    axis = axis_arg(axis, nd, op)
    ind = wrap_index(ind, x._data.shape[axis], op, "index", axis)
    want = list(x._data.shape)
    want[axis] = ind.size
    if list(v._data.shape) != want:
        raise ShapeError(f"{op}: 'value' must have x's shape with axis {axis} of len(index); "
                         f"expected: {want}; got: {v.shape}")
    check_same_dtype(op, x, v, "x", "value")
    if alpha != 1:
        if x._data.dtype.kind in "iu" and alpha != int(alpha):
            raise DTypeError(f"{op}: a fractional 'alpha' needs a float tensor; got: alpha "
                             f"{alpha!r} for {x._data.dtype}")
        v = multiply(v, alpha if x._data.dtype.kind in "fc" else int(alpha))
    p = np.take(positions(x._data.shape), ind, axis=axis)
    return add(x, put(op, v, p, x._data.shape, unique=False))


def _index_add_args(args, kwargs):
    """Paddle accepts (x, index, axis, value) and the torch order (x, axis, index, value)."""
    for alias, real in (("input", "x"), ("dim", "axis"), ("source", "value")):
        if alias in kwargs:
            kwargs[real] = kwargs.pop(alias)
    if len(args) >= 2 and isinstance(args[1], (int, np.integer)):
        names = ("x", "axis", "index", "value", "alpha")
        kwargs.update(zip(names, args))
        args = ()
    return args, kwargs


def index_add(*args, **kwargs):
    """index_add(x, index, axis, value, alpha=1): x with alpha * value added at index along
    axis (repeated indices add up). The torch order (x, axis, index, value) works too.

    Example:
        >>> x = opsdk.zeros([3])
        >>> opsdk.index_add(x, opsdk.to_tensor([0, 0]), 0, opsdk.ones([2])).numpy()
        array([2., 0., 0.], dtype=float32)
    """
    args, kwargs = _index_add_args(args, kwargs)
    return _index_add(*args, **kwargs)


index_add.__signature__ = inspect.signature(_index_add)
index_add_ = inplace_method(index_add, "index_add_")


# -- masked_fill -------------------------------------------------------------------------------
def masked_fill(x, mask, value, name=None):
    """x with value where mask is true (x, mask and value broadcast together).

    A number is cast to x's dtype; a tensor value must have x's dtype and gets the gradient
    of the filled positions (Paddle returns 0 there when x and mask have one shape).

    Example:
        >>> x = opsdk.to_tensor([1.0, 2.0])
        >>> opsdk.masked_fill(x, opsdk.to_tensor([True, False]), 0.0).numpy()
        array([0., 2.], dtype=float32)
    """
    from .logic import where
    x = tensor_arg(x, "masked_fill")
    m = tensor_arg(mask, "masked_fill", "mask")._data
    if m.dtype != np.bool_:
        m = m.astype(bool)
    v = _values_arg(value, x, "masked_fill", "value")
    try:
        np.broadcast_shapes(m.shape, x._data.shape, v._data.shape)
    except ValueError:
        raise ShapeError(f"masked_fill: 'x' {x.shape}, 'mask' {list(m.shape)} and 'value' "
                         f"{v.shape} do not broadcast together") from None
    return where(_wrap(m), v, x)


masked_fill_ = inplace_method(masked_fill, "masked_fill_")
