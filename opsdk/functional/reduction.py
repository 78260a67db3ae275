"""Reductions over axes (sum, mean, max, min, logsumexp, ...), with keepdim."""
import builtins

import numpy as np

from ..autograd.record import needs_grad, output_read_by_backward, record
from ..device import array_module
from ..dtypes import convert_dtype
from ..errors import OpArgumentError
from ..tensor import _wrap, as_array
from . import maths
from .casting import cast, float_arg
from .logic import where
from .op_args import axis_arg, check_axis, normalize_axis, not_bool, reduction_axes, tensor_arg as _arg
from .shape import squeeze
from .unary import abs as _abs, exp, log, sqrt


def _kept_shape(shape, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over axis (all axes when None)."""
    x = _arg(x, "sum")
    xd = x._data
    axes = reduction_axes(axis, xd.ndim, "sum")
    if dtype is not None:
        dtype = convert_dtype(dtype, op="sum")
    elif xd.dtype.kind == "b":
        dtype = np.dtype("int64")
    out = xd.sum(axis=axes, dtype=dtype, keepdims=keepdim)
    return record("sum", out, (x,), _SUM, (_kept_shape(xd.shape, axes), xd.shape, xd.dtype))


def _sum_grad(g, kept, shape, dtype):
    """g broadcast back over the summed axes (in the input's dtype: sum may take another)."""
    g = maths.expand(maths.reshape(g, kept), shape)
    return g if g.dtype == dtype else maths.cast(g, dtype)


_SUM = (_sum_grad,)


def mean(x, axis=None, keepdim=False, name=None):
    """Mean over axis (all axes when None)."""
    x = _arg(x, "mean")
    xd = x._data
    axes = reduction_axes(axis, xd.ndim, "mean")
    if xd.size == 0:  # the mean of nothing is nan (NumPy would warn)
        out = np.full(np.sum(xd, axis=axes, keepdims=keepdim).shape, np.nan)
    else:
        out = as_array(xd.mean(axis=axes, keepdims=keepdim))
    # the input's dtype, integers (truncated) and bools too, as Paddle's mean
    out = out.astype(xd.dtype, copy=False)
    n = 1
    for a in axes:
        n *= xd.shape[a]
    return record("mean", out, (x,), _MEAN,
                  (_kept_shape(xd.shape, axes), xd.shape, 1.0 / builtins.max(n, 1)))


_MEAN = (lambda g, kept, shape, inv: maths.expand(maths.reshape(g, kept) * inv, shape),)


def _extreme(name, np_fn):
    def op(x, axis=None, keepdim=False, name=None):
        x = not_bool(_arg(x, name_), name_)
        xd = x._data
        axes = reduction_axes(axis, xd.ndim, name_)
        empty = [a for a in axes if xd.shape[a] == 0]
        if empty:
            raise OpArgumentError(f"{name_}: cannot reduce along axis {empty[0]} of size 0 "
                                  f"(shape {list(xd.shape)}); expected: at least one element "
                                  "along every reduced axis")
        out = as_array(np_fn(xd, axis=axes, keepdims=keepdim))
        if not needs_grad(x):
            return _wrap(out)
        ks = _kept_shape(xd.shape, axes)
        # ties share the gradient equally, so the sum of the gradient stays g
        mask = xd == out.reshape(ks)
        weight = mask / mask.sum(axis=axes, keepdims=True)
        weight = weight.astype(xd.dtype, copy=False)
        return output_read_by_backward(record(name_, out, (x,), _WEIGHTED, (ks, weight)))
    name_ = name
    op.__name__ = name
    op.__doc__ = f"{name.capitalize()} over axis; tied elements share the gradient equally."
    return op


# g spread over the reduced axes with weights fixed at forward
_WEIGHTED = (lambda g, kept, weight: maths.reshape(g, kept) * weight,)

max = _extreme("max", np.max)
min = _extreme("min", np.min)
amax = max
amin = min


def logsumexp(x, axis=None, keepdim=False, name=None):
    """log(sum(exp(x))) over axis, computed without overflow."""
    x = _arg(x, "logsumexp")
    if x._data.dtype.kind not in "fc":
        x = float_arg(x, "logsumexp")
    axes = reduction_axes(axis, x.ndim, "logsumexp")
    # initial=-inf: over a size-0 axis the sum of nothing is 0, its log -inf
    m = x._data.max(axis=axes, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0)
    shifted = x - _wrap(as_array(m))
    with np.errstate(divide="ignore"):
        s = log(sum(exp(shifted), axis=list(axes), keepdim=True))
    out = s + _wrap(as_array(m))
    if not keepdim:
        out = squeeze(out, axis=list(axes)) if axes else out
    return output_read_by_backward(out)


def _index_reduce(name):
    def op(x, axis=None, keepdim=False, dtype="int64", name=None):
        x = not_bool(_arg(x, name_), name_)
        xd = x._data
        if isinstance(axis, (float, np.floating)):
            axis = int(axis)  # Paddle's argmax and argmin truncate a float axis
        if xd.size == 0 and (axis is None or xd.shape[check_axis(axis, xd.ndim, name_)] == 0):
            raise OpArgumentError(f"{name_}: the tensor has no element to pick along the axis "
                                  f"(shape {list(xd.shape)}); expected: at least one")
        # the input's array module (CuPy on the GPU): np.asarray would refuse a CuPy array
        xp = array_module(xd)
        pick = getattr(xp, name_)
        if axis is None:
            out = xp.asarray(pick(xd.reshape(-1)))
            if keepdim:
                out = out.reshape((1,) * xd.ndim)
        else:
            out = pick(xd, axis=axis_arg(axis, xd.ndim, name_), keepdims=keepdim)
        return _wrap(as_array(out).astype(dtype))
    name_ = name
    op.__name__ = name
    op.__doc__ = f"Index of the {name[3:]} along axis; an int64 tensor, no gradient."
    return op


argmax = _index_reduce("argmax")
argmin = _index_reduce("argmin")


def all(x, axis=None, keepdim=False, name=None):
    x = _arg(x, "all")
    return _wrap(as_array(np.all(x._data, axis=reduction_axes(axis, x.ndim, "all"),
                                  keepdims=keepdim)))


def any(x, axis=None, keepdim=False, name=None):
    x = _arg(x, "any")
    return _wrap(as_array(np.any(x._data, axis=reduction_axes(axis, x.ndim, "any"),
                                  keepdims=keepdim)))


def var(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Variance over axis (unbiased by default, as Paddle; of one element that is nan)."""
    x = not_bool(_arg(x, "var"), "var")
    if x._data.dtype.kind not in "fc":
        # Paddle computes an integer variance in floats and truncates it to the input's dtype
        return cast(var(cast(x, "float64"), axis, unbiased, keepdim), x._data.dtype)
    return _var(x, axis, unbiased, keepdim)


def _var(x, axis, unbiased, keepdim):
    if x.ndim == 0 and unbiased:
        # Paddle: as the variance of the one number as a shape-[1] tensor: nan, and a nan
        # gradient (0 / 0) to every order
        return _var(x.reshape([1]), None, True, False)
    if x.ndim == 0:
        # Paddle: the biased spread of one number is the constant 0 (also for a nan input),
        # reported stop_gradient=False but with no gradient path
        t = _wrap(np.asarray(0.0, dtype=x._data.dtype))
        t._sg_off = needs_grad(x)
        return t
    axes = reduction_axes(axis, x.ndim, "var")
    n = 1
    for a in axes:
        n *= x._data.shape[a]
    c = x - mean(x, axis=list(axes), keepdim=True)
    s = sum(c * c, axis=list(axes), keepdim=keepdim)
    with np.errstate(invalid="ignore", divide="ignore"):
        # 0 / 0 = nan for one element (unbiased) or none, as in Paddle
        return output_read_by_backward(s / float(builtins.max(n - 1 if unbiased else n, 0)))


def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation over axis (integers give the default float, as in Paddle)."""
    x = _arg(x, "std")
    if x._data.dtype.kind not in "fc":
        x = float_arg(x, "std")
    v = _var(x, axis, unbiased, keepdim)
    r = sqrt(v)
    r._sg_off = v._sg_off  # a 0-d tensor's constant (see _var)
    return r


def _flat_with_nan_slope(x, at):
    """0 of x's shape whose derivative is nan where ``at`` (broadcast) holds, else 0: on a
    Tensor a graph op, on an array plain zeros."""
    if not maths.is_tensor(x):
        return np.zeros_like(x)
    out = np.zeros_like(x._data)
    slope = np.where(np.broadcast_to(at, out.shape), np.nan, 0).astype(out.dtype)
    return record("norm_grad_at_0", out, (x,), _TIMES_CONSTANT, (slope,))


_TIMES_CONSTANT = (lambda g, w: g * w,)


def _norm_kept(xd, p, axes):
    """The p-norm of the array xd over axes, keeping them (size 1), in xd's dtype."""
    a = np.abs(xd)
    with np.errstate(all="ignore"):
        if p == np.inf:
            kept = a.max(axis=axes, keepdims=True, initial=0)
        elif p == -np.inf:
            kept = a.min(axis=axes, keepdims=True, initial=np.inf)
        elif p == 0:
            kept = (a != 0).sum(axis=axes, keepdims=True).astype(xd.dtype)
        else:
            kept = (a ** p).sum(axis=axes, keepdims=True) ** (1.0 / p)
    return as_array(kept).astype(xd.dtype, copy=False)


def norm(x, p=2, axis=None, keepdim=False, name=None):
    """p-norm over axis (the flattened tensor when axis is None).

    The gradient is sign(x) |x|^(p-1) / norm^(p-1), and 0 where the norm is 0, as in Paddle;
    for p = +-inf it goes to every element whose |x| is the norm.
    """
    x = _arg(x, "norm")
    if x._data.dtype.kind not in "fc":
        x = float_arg(x, "norm")
    if p == "fro":
        p = 2
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise OpArgumentError(f"norm: argument 'p' must be a number, 'fro', 'inf' or '-inf'; "
                              f"got: {p!r}") from None
    xd = x._data
    axes = normalize_axis(axis, xd.ndim, "norm") if xd.ndim else ()
    kept = _norm_kept(xd, p, axes)
    out = kept if keepdim else kept.reshape([s for i, s in enumerate(xd.shape) if i not in axes])
    return output_read_by_backward(record("norm", out, (x,), _NORM, (x, p, axes)))


def _norm_grad(g, x, p, axes):
    """g times d norm / dx: sign(x) |x|^(p-1) / norm^(p-1), 0 where the norm is 0 (p >= 1)."""
    xd = x._data if maths.is_tensor(x) else x
    kept = _norm_kept(xd, p, axes)
    g = maths.reshape(g, kept.shape)
    with np.errstate(all="ignore"):
        if p in (np.inf, -np.inf):
            w = np.sign(xd) * (np.abs(xd) == kept)
        elif p == 0:
            w = np.zeros_like(xd)
        elif p == 1 or not maths.is_tensor(x):
            w = np.sign(xd) * np.abs(xd) ** (p - 1) / kept ** (p - 1)
            if p >= 1:
                # where the norm is 0 the gradient is 0 (for p < 1 Paddle's is nan there)
                w = np.where(kept == 0, 0, w)
        else:
            return g * _norm_slope(x, xd, kept, p, axes)
        # piecewise constant in x (or a first-order backward): the weight is a constant
        return g * as_array(w).astype(xd.dtype, copy=False)


def _norm_slope(x, xd, kept, p, axes):
    """The weight of _norm_grad as a function of the Tensor x, differentiable again."""
    zero = _wrap(as_array((kept == 0) & (p >= 1)))
    # the other branch of where must stay finite, or its zero gradient becomes nan
    k = where(zero, 1.0, norm(x, p, list(axes), keepdim=True))
    # p = 2: x / k itself (sign(x) |x| has the wrong derivative, 0, at x = 0)
    wt = x / k if p == 2 else _wrap(as_array(np.sign(xd))) * _abs(x) ** (p - 1) / k ** (p - 1)
    # where the norm is 0 the gradient is 0 (Paddle), its own derivative undefined: nan
    return where(zero, _flat_with_nan_slope(x, zero._data), wt)


_NORM = (_norm_grad,)

maths.provide(sum=sum)
