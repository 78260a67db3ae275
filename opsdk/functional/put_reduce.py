"""Reducing values into positions of a tensor (put_along_axis's core): assign, add, mul, mean,
amin, amax, with or without the tensor's own value, and their exact gradients.

Where several values land on one position, 'assign' keeps the last one (in index order) and
only that value gets a gradient; the others never reach the output, so theirs is 0.
"""
import numpy as np

from ..autograd.record import needs_grad, record
from ..tensor import _wrap
from . import maths
from .flat_index import put, take
from .logic import where
from .products import _others
from .shape import as_shape


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
    if not needs_grad(x, v) or xd.dtype.kind not in "fc":
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
    # the gradient reaching x: g off the written positions, g * wb on them
    wx = np.ones(xd.size, xd.dtype)
    wx[g.uniq] = wb
    wx = wx.reshape(xd.shape)
    # only 'mul' reads x and v in backward; amin and amax refuse them modified in place too
    read = (x, v) if reduce == "mul" else (None, None)
    saved = (x, v) if reduce in ("amin", "amax") else ()
    return record(op, out, (x, v), _PUT_REDUCE, read + (v._data.shape, g, wx, wv, include),
                  saved=saved)


def _put_reduce_grad_in_x(gr, x, v, vs, g, wx, wv, include):
    if x is not None and maths.is_tensor(gr):
        return _mul_grads(gr, x, v, g, include, True, False)[0]
    return _scaled(gr, wx)


def _put_reduce_grad_in_v(gr, x, v, vs, g, wx, wv, include):
    if x is not None and maths.is_tensor(gr):
        return _mul_grads(gr, x, v, g, include, False, True)[1]
    return maths.reshape(_scaled(maths.take(gr, g.p, unique=False), wv), vs)


# the weights are constants fixed at forward, except for 'mul' on Tensors: there each member's
# share is the product of the others, a function of x and v (differentiable again)
_PUT_REDUCE = (_put_reduce_grad_in_x, _put_reduce_grad_in_v)


def _nothing_written(op, x, v):
    """put_reduce with no indices: a copy of x; v (empty) gets an empty gradient."""
    out = x._data.copy()
    if out.dtype.kind not in "fc":
        return _wrap(out)
    return record(op, out, (x, v), _NOTHING_WRITTEN, (v._data.shape,))


_NOTHING_WRITTEN = (lambda g, vs: g, lambda g, vs: maths.zeros(vs, g))


def _scaled(t, w):
    """t * w, exactly 0 where w is 0 (NaN or inf in t do not leak through a zero weight)."""
    if np.all(w == 1):
        return t
    zero = w == 0
    r = t * w if np.any(w[~zero] != 1) else t
    return maths.where(zero, 0, r) if zero.any() else r


def _mul_grads(gr, x, v, g, include, rx, rv):
    """The 'mul' gradient with Tensor ops: each group laid out as a row (padded with 1s), the
    product of the other members from products._others (exact and differentiable)."""
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
    vflat = as_shape(v, [g.p.size])
    rows = put("put_along_axis", vflat, pos_v, (n_u * width,))
    if include:
        filled[np.arange(n_u) * width] = True
        rows = rows + put("put_along_axis", take("put_along_axis", x, g.uniq),
                          np.arange(n_u) * width, (n_u * width,))
    rows = rows + _wrap((~filled).astype(x._data.dtype))
    others = as_shape(_others(as_shape(rows, [n_u, width])), [n_u * width])
    gv = None
    if rv:
        gv = as_shape(take("put_along_axis", gr, g.p, unique=False) *
                           take("put_along_axis", others, pos_v), v._data.shape)
    gx = None
    if rx:
        hit = _wrap(g.hit.reshape(x._data.shape))
        if include:
            on = take("put_along_axis", gr, g.uniq) * take("put_along_axis", others,
                                                          np.arange(n_u) * width)
            gx = where(hit, put("put_along_axis", on, g.uniq, x._data.shape), gr)
        else:
            gx = where(hit, 0, gr)
    return gx, gv
