"""Scans along an axis: cumsum, cumprod, logcumsumexp, and the in-place cumsum_, cumprod_."""
import numpy as np

from ..autograd.record import needs_grad, output_read_by_backward, record
from ..dtypes import convert_dtype
from ..errors import DTypeError, NoKernelDTypeError, OpArgumentError
from ..tensor import _wrap
from . import maths
from .arithmetic import divide, multiply
from .casting import as_dtype as _cast
from .inplace import inplace_method
from .logic import where
from .op_args import aliases, axis_arg, int_arg, not_bool, scan_axis, tensor_arg
from .reduction import sum as _sum
from .shape import as_shape, flip, moveaxis, unsqueeze
from .unary import exp, log

_INT64 = np.dtype("int64")


def _along(x, axis, op):
    """(x, axis) with axis=None meaning the flattened tensor, as in Paddle."""
    if axis is None:
        return as_shape(x, [x._data.size]), 0
    if op == "cumprod":
        return x, axis_arg(axis, x._data.ndim, op)
    return x, scan_axis(axis, x._data.ndim, op)


def _scan(name, core, x, axis):
    """core(x1d_or_nd, axis) on x; a 0-d x is scanned as one element and stays 0-d."""
    if x._data.ndim == 0 or x._data.shape[axis] == 1:
        # a scan over one element is the identity: a copy, exact at every order
        return record(name, x._data.copy(), (x,), _SAME)
    return core(x, axis)


_SAME = (lambda g: g,)


# -- cumsum -----------------------------------------------------------------------------------
def _cumsum_array(a, axis, reverse):
    if not reverse:
        return np.cumsum(a, axis=axis)
    return np.ascontiguousarray(np.flip(np.cumsum(np.flip(a, axis), axis=axis), axis))


def _cumsum(x, axis, reverse=False):
    """Inclusive running sum; its adjoint is the running sum in the other direction."""
    out = _cumsum_array(x._data, axis, reverse)
    return record("cumsum", out, (x,), _CUMSUM, (axis, reverse))


def _summed(v, axis, reverse):
    """The running sum of an array or (a graph op) a Tensor."""
    return _cumsum(v, axis, reverse) if maths.is_tensor(v) else _cumsum_array(v, axis, reverse)


_CUMSUM = (lambda g, axis, reverse: _summed(g, axis, not reverse),)


@aliases(input="x", dim="axis")
def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along axis (of the flattened tensor when axis is None).

    Integer inputs sum in int64, as in Paddle; ``dtype`` casts the input first. A bool input
    needs a ``dtype``: Paddle has no bool kernel (RuntimeError), nor has opsdk.

    Args:
        x: the tensor.
        axis: the axis to scan; None scans the flattened tensor (a 1-D result).
        dtype: the dtype to compute and return in.

    Returns:
        A tensor of x's shape (1-D for axis=None).

    Example:
        >>> opsdk.cumsum(opsdk.to_tensor([1.0, 2.0, 3.0])).numpy()
        array([1., 3., 6.], dtype=float32)
    """
    x = tensor_arg(x, "cumsum")
    if dtype is None and x._data.dtype == np.bool_:
        raise NoKernelDTypeError("cumsum: argument 'x' must not be a bool tensor (Paddle has no "
                                 "bool kernel); pass dtype='int64' to count")
    if dtype is None and x._data.dtype.kind in "biu" and x._data.dtype != _INT64:
        dtype = _INT64
    if dtype is not None:
        x = _cast(x, dtype, "cumsum")
    if isinstance(axis, (float, np.floating)):
        axis = int(axis)  # Paddle's cumsum truncates a float axis (its other scans refuse one)
    x, axis = _along(x, axis, "cumsum")
    return _scan("cumsum", _cumsum, x, axis)


# -- cumprod ----------------------------------------------------------------------------------
def _rows(a, axis):
    """a with axis moved last, as (rows, n), and a function putting such rows back."""
    moved = np.moveaxis(a, axis, -1)
    n = moved.shape[-1]

    def back(r):
        return np.moveaxis(r.reshape(moved.shape), -1, axis)
    return moved.reshape(-1, n), back


def _cumprod_grad_exact(g, x):
    """d/dx_i sum_k g_k prod_{j<=k} x_j = (prod_{j<i} x_j) * R_i, R_i = g_i + x_{i+1} R_{i+1}.

    No division, so zeros, infinities and overflowing products give the exact value; the
    recurrence runs once per position along the axis (vectorised over the rows).
    """
    n = x.shape[1]
    left = np.ones_like(x)
    left[:, 1:] = np.cumprod(x[:, :-1], axis=1)
    r = np.empty_like(g)
    r[:, n - 1] = g[:, n - 1]
    for i in range(n - 2, -1, -1):
        r[:, i] = g[:, i] + x[:, i + 1] * r[:, i + 1]
    return left * r


def _cumprod_grad_pairs(g, x):
    """The same gradient as the plain sum of products (the n x n form _cumprod_vjp_pairs uses
    with create_graph): rows with inf or NaN give what that sum gives, as in Paddle."""
    n = x.shape[1]
    res = np.empty_like(g)
    eye = np.eye(n, dtype=bool)
    upper = np.triu(np.ones((n, n), dtype=bool))
    step = max(1, (1 << 22) // max(n * n, 1))
    for s in range(0, len(x), step):
        m = np.where(eye, 1, x[s:s + step, None, :])
        c = np.cumprod(m, axis=2)
        res[s:s + step] = np.where(upper, g[s:s + step, None, :] * c, 0).sum(axis=2)
    return res


_PAIRS_MAX = 1024  # longer rows use the recurrence (it differs only where inf meets 0)


def _cumprod_grad_array(g, x, y, axis):
    """First-order cumprod gradient: reversed cumsum of g*y over x where that is exact."""
    if x.size == 0:
        return np.zeros_like(g)
    x2, back = _rows(x, axis)
    g2, _ = _rows(g, axis)
    y2, _ = _rows(y, axis)
    with np.errstate(all="ignore"):
        res = _cumsum_array(g2 * y2, 1, True) / x2
        # division is exact only for rows without zeros, infinities or over/underflow
        bad = ~((np.isfinite(x2) & (x2 != 0) & (y2 != 0)).all(axis=1) &
                np.isfinite(res).all(axis=1))
        if bad.any():
            # inf, NaN or overflow: the plain sum of products, as Paddle and create_graph do
            special = bad & ~(np.isfinite(x2) & np.isfinite(y2)).all(axis=1)
            if x2.shape[1] > _PAIRS_MAX:
                special[:] = False
            rest = bad & ~special
            if rest.any():
                res[rest] = _cumprod_grad_exact(g2[rest], x2[rest])
            if special.any():
                res[special] = _cumprod_grad_pairs(g2[special], x2[special])
    return back(res)


def _cumprod_vjp(g, x, axis):
    """The cumprod gradient with Tensor ops (differentiable again)."""
    xd = x._data
    with np.errstate(all="ignore"):
        y = _cumprod(x, axis)
        safe = bool((np.isfinite(xd) & (xd != 0) & np.isfinite(y._data) & (y._data != 0)).all())
    if safe:
        return divide(_cumsum(multiply(g, y), axis, True), x)
    with np.errstate(all="ignore"):  # inf - inf is NaN here as in the first-order rule
        return _cumprod_vjp_pairs(g, x, axis)


def _cumprod_vjp_pairs(g, x, axis):
    """grad_i = sum_{k>=i} g_k prod_{j<=k, j!=i} x_j, built as an n x n cumprod.

    Exact at zeros and differentiable to any order; it costs n times the memory of x, and is
    used only where x has zeros or non-finite values (torch does the same).
    """
    n = x._data.shape[axis]
    xl = moveaxis(x, axis, -1)
    gl = moveaxis(g, axis, -1)
    # row i of m is x with x_i replaced by 1
    m = where(_wrap(np.eye(n, dtype=bool)), 1, unsqueeze(xl, -2))
    c = _cumprod(m, m._data.ndim - 1)
    # a select, not a product with 0/1: inf in c below the diagonal must not become NaN
    upper = _wrap(np.triu(np.ones((n, n), dtype=bool)))
    out = _sum(where(upper, c * unsqueeze(gl, -2), 0), axis=-1)
    return moveaxis(out, -1, axis)


def _cumprod_array(a, axis):
    with np.errstate(all="ignore"):  # overflow to inf is the IEEE answer, as in Paddle
        return np.cumprod(a, axis=axis, dtype=a.dtype)


def _cumprod(x, axis):
    out = _cumprod_array(x._data, axis)
    # backward recomputes the product from x (saved, version-checked) instead of reading the
    # output: no reference to the output, and writes into it cannot corrupt the gradient
    return record("cumprod", out, (x,), _CUMPROD, (x, axis))


def _cumprod_grad(g, x, axis):
    """sum_{k>=i} g_k prod_{j<=k, j!=i} x_j: on arrays by division where exact, else the O(n)
    recurrence; on Tensors with differentiable ops (the same sum, exact at zeros)."""
    if maths.is_tensor(g):
        return _cumprod_vjp(g, x, axis)
    return _cumprod_grad_array(g, x, _cumprod_array(x, axis), axis)


_CUMPROD = (_cumprod_grad,)


@aliases(input="x")
def cumprod(x, dim=None, dtype=None, name=None):
    """Running product along dim (of the flattened tensor when dim is None).

    The gradient is exact also where x has zeros (no division by x there).

    Args:
        x: the tensor.
        dim: the axis to scan; None scans the flattened tensor.
        dtype: the dtype to compute and return in.

    Returns:
        A tensor of x's shape (1-D for dim=None) and dtype.

    Example:
        >>> opsdk.cumprod(opsdk.to_tensor([1.0, 2.0, 3.0]), dim=0).numpy()
        array([1., 2., 6.], dtype=float32)
    """
    x = tensor_arg(x, "cumprod")
    if x._data.ndim == 0 and dim is not None and int_arg(dim, "cumprod", "dim") != 0:
        # Paddle's cumprod takes only dim=0 on a 0-d tensor (cumsum takes -1 too)
        raise OpArgumentError(f"cumprod: argument 'dim' out of range; expected: 0 or None for a "
                              f"0-d tensor; got: {dim}")
    if dtype is not None:
        x = _cast(x, dtype, "cumprod")
    x, axis = _along(not_bool(x, "cumprod"), dim, "cumprod")
    # Paddle's cumprod backward reads the output: writing it in place makes backward refuse
    return output_read_by_backward(_scan("cumprod", _cumprod, x, axis))


# -- logcumsumexp -----------------------------------------------------------------------------
def _lcse_array(a, axis, reverse=False):
    with np.errstate(invalid="ignore"):  # NaN in, NaN out: no warning
        if not reverse:
            return np.logaddexp.accumulate(a, axis=axis)
        return np.ascontiguousarray(np.flip(np.logaddexp.accumulate(np.flip(a, axis), axis=axis),
                                            axis))


def _lcse_grad_array(g, x, y, axis):
    """sum_{k>=i} g_k exp(x_i - y_k), in log space (positive and negative g apart)."""
    with np.errstate(all="ignore"):
        # y_k = -inf only where every x up to k is -inf; those positions get 0 below
        ys = np.where(np.isneginf(y), 0, y)
        pos = np.where(g > 0, np.log(np.where(g > 0, g, 1)), -np.inf) - ys
        neg = np.where(g < 0, np.log(np.where(g < 0, -g, 1)), -np.inf) - ys
        res = np.exp(x + _lcse_array(pos, axis, True)) - np.exp(x + _lcse_array(neg, axis, True))
        res = np.where(np.isnan(_cumsum_array(g, axis, True)), np.nan, res)
        # an input at -inf has no weight in any output: its gradient is 0, as in Paddle
        return np.where(np.isneginf(x), 0, res).astype(x.dtype, copy=False)


def _lcse_vjp(g, x, axis):
    """The same sum with Tensor ops, as exp(x + L(log(g + c) - y)) - c exp(x + L(-y)).

    L is the reversed logcumsumexp. c = 2 max|g| per slice makes g + c positive, so the formula
    is an identity in g, x and y (differentiable again), also where g is 0.
    """
    gd = g._data
    if gd.size == 0:
        return _wrap(np.zeros_like(x._data))
    with np.errstate(all="ignore"):
        c = 2 * np.max(np.abs(gd), axis=axis, keepdims=True)
        c = np.where(c == 0, 1, c).astype(gd.dtype)
    y = _lcse(x, axis)
    skip = _wrap(np.isneginf(x._data))
    ys = where(_wrap(np.isneginf(y._data)), 0.0, y)
    xs = where(skip, 0.0, x)
    a = _lcse(log(g + c) - ys, axis, True)
    b = _lcse(-ys, axis, True)
    return where(skip, 0.0, exp(xs + a) - exp(xs + b) * c)


def _lcse(x, axis, reverse=False):
    xd = x._data
    if reverse and needs_grad(x):
        return flip(_lcse(flip(x, [axis]), axis), [axis])
    out = _lcse_array(xd, axis, reverse)
    # as for cumprod, backward recomputes the output from the saved x
    return record("logcumsumexp", out, (x,), _LCSE, (x, axis))


def _lcse_grad(g, x, axis):
    """sum_{k>=i} g_k exp(x_i - y_k): on arrays in log space (signs of g apart), on Tensors as
    an identity in g, x and y (differentiable again)."""
    if maths.is_tensor(g):
        return _lcse_vjp(g, x, axis)
    return _lcse_grad_array(g, x, _lcse_array(x, axis), axis)


_LCSE = (_lcse_grad,)


def logcumsumexp(x, axis=None, dtype=None, name=None):
    """log(cumsum(exp(x))) along axis, without overflow; integer inputs give float32.

    NaN propagates and an all -inf prefix gives -inf (Paddle gives the lowest float there).

    Args:
        x: the tensor.
        axis: the axis to scan; None scans the flattened tensor.
        dtype: the float dtype to compute and return in.

    Returns:
        A float tensor of x's shape (1-D for axis=None).

    Example:
        >>> opsdk.logcumsumexp(opsdk.to_tensor([0.0, 0.0])).numpy()
        array([0.       , 0.6931472], dtype=float32)
    """
    x = tensor_arg(x, "logcumsumexp")
    if x._data.dtype.kind == "c":
        raise DTypeError(f"logcumsumexp: expected: a real tensor; got: {x._data.dtype}")
    if dtype is not None:
        x = _cast(x, dtype, "logcumsumexp")
    elif not_bool(x, "logcumsumexp")._data.dtype.kind not in "fc":
        x = _cast(x, "float32", "logcumsumexp")
    x, axis = _along(x, axis, "logcumsumexp")
    return output_read_by_backward(_scan("logcumsumexp", _lcse, x, axis))


# -- in place ---------------------------------------------------------------------------------
# Paddle's steps, each an in-place write of its own (inplace_version counts them): cumprod_
# without a dim flattens x first; a dtype other than x's casts x in place (x takes it); then
# the scan writes into x (cumsum_ without an axis flattens x as it writes)
_cumsum_into = inplace_method(lambda x, axis: cumsum(x, axis), "cumsum_", reshapes=True)
_cumprod_into = inplace_method(lambda x, dim: cumprod(x, dim), "cumprod_")


def _cast_first(x, dtype, op):
    x = tensor_arg(x, op)
    if dtype is not None and x._data.dtype != convert_dtype(dtype, op=op):
        x.cast_(dtype)
    return x


def cumsum_(x, axis=None, dtype=None, name=None):
    """In-place cumsum: x takes the running sums (and ``dtype``, cast first, as in Paddle)."""
    if dtype is None:
        not_bool(tensor_arg(x, "cumsum_"), "cumsum_")  # no bool kernel, as cumsum
    return _cumsum_into(_cast_first(x, dtype, "cumsum_"), axis)


def cumprod_(x, dim=None, dtype=None, name=None):
    """In-place cumprod: x takes the running products (without ``dim`` of the flattened x,
    which x becomes; ``dtype`` is cast first), as in Paddle."""
    x = tensor_arg(x, "cumprod_")
    if dim is None:
        x.flatten_()
        dim = -1
    return _cumprod_into(_cast_first(x, dtype, "cumprod_"), dim)
