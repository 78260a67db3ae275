"""paddle.linalg's decompositions and what is built on them, with gradients to any order.

Primitives (forward by NumPy's LAPACK, batched over leading axes): slogdet, cholesky,
triangular_solve, cholesky_solve, eigh, svd, qr, lu, matrix_exp. Each backward is written with
opsdk's differentiable ops (matmul, triangular_solve, tril/triu, the diagonal...) through the
dispatching helpers below, which run NumPy on arrays (a first-order backward) and opsdk ops on
Tensors (create_graph), so the gradient differentiates again. An op with several outputs
(eigh, svd, qr, lu) cannot hand its rule its own outputs as Tensors, so under create_graph the
rule recomputes the decomposition from its saved input: same LAPACK call, same values, and now
in the graph.

The formulas are the standard ones (as in PyTorch and Paddle): Murray's for cholesky; for
eigh and svd the off-diagonal terms divide by the gaps between eigenvalues (squared singular
values), so a repeated one gives inf/nan, as in Paddle; qr follows the m >= n formula and splits
a wide matrix into its square part and the rest. Composed on top (their gradients come from
the ops): eigvalsh, svdvals, cholesky_inverse, pinv, cond, lu_unpack, lu_solve, cov, corrcoef,
the SVD norms. lstsq and matrix_rank record no gradient, as in Paddle 3.3.1.
"""
import numpy as np

from ..autograd.record import OUTPUT as OUT_ARG, index_result, record
from ..errors import (ArgumentTypeError, AssertedShapeError, DTypeError, OpArgumentError,
                      ShapeError)
from ..tensor import Tensor, _wrap, tensor_arg
from . import maths
from .diagonal import diagonal
from .linalg import inv, matmul, vector_norm, _singular
from .logic import where
from .reduction import amax, amin, mean, sum as _sum
from .shape import squeeze, transpose, unsqueeze
from .triangular import tril, triu
from .unary import abs as _abs, sqrt


# -- helpers the rules share: NumPy on arrays, opsdk ops on Tensors -------------------------
def _is(v):
    return isinstance(v, Tensor)


def _const(a, like):
    """The array a as like's kind: a Tensor (no gradient) when like is one."""
    return _wrap(np.asarray(a)) if _is(like) else a


def _mm(a, b):
    return maths.matmul(a, b)


def _T(v):
    return maths.mT(v)


def _tril(v, k=0):
    return tril(v, k) if _is(v) else np.tril(v, k)


def _triu(v, k=0):
    return triu(v, k) if _is(v) else np.triu(v, k)


def _diag(v):
    """The diagonal of the last two axes."""
    return diagonal(v, 0, -2, -1) if _is(v) else np.diagonal(v, 0, -2, -1)


def _unsq(v, axis):
    return unsqueeze(v, axis) if _is(v) else np.expand_dims(v, axis)


def _eye(n, like):
    dtype = like._data.dtype if _is(like) else like.dtype
    return _const(np.eye(n, dtype=dtype), like)


def _diag_embed(v):
    """Matrices with v's last axis on their diagonal (differentiable in v)."""
    return _unsq(v, -1) * _eye(maths.shape(v)[-1], v)


def _quiet(rule):
    """rule with NumPy's divide warnings off: a repeated eigenvalue (singular value) gives
    inf/nan in the gradient, as in Paddle, without a warning."""
    def quiet(*args):
        with np.errstate(divide="ignore", invalid="ignore"):
            return rule(*args)
    quiet.__name__ = rule.__name__
    return quiet


def _sym(v):
    return (v + _T(v)) * 0.5


def _trisolve(a, b, upper, transpose=False, unit=False):
    """op(tri(a))^{-1} b: triangular_solve on Tensors, NumPy's solve on arrays."""
    if _is(a) or _is(b):
        return triangular_solve(a if _is(a) else _wrap(a), b if _is(b) else _wrap(b), upper,
                                transpose, unit)
    return _tri_array_solve(a, b, upper, transpose, unit)


def _tri_array_solve(a, b, upper, transpose, unit):
    """op(tri(a))^{-1} b on arrays by substitution, batch axes broadcast: a zero on the diagonal
    gives inf/nan as LAPACK's trsm does (Paddle's result there), not an error."""
    m = np.triu(a) if upper else np.tril(a)
    if transpose:
        m = np.swapaxes(m, -1, -2)
        upper = not upper
    n, k = m.shape[-1], b.shape[-1]
    batch = np.broadcast_shapes(m.shape[:-2], b.shape[:-2])
    m = np.broadcast_to(m, batch + (n, n))
    b = np.broadcast_to(b, batch + (n, k))
    out = np.zeros(batch + (n, k), np.result_type(m, b))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for i in (range(n - 1, -1, -1) if upper else range(n)):
            done = slice(i + 1, n) if upper else slice(0, i)
            row = b[..., i, :] - (m[..., i:i + 1, done] @ out[..., done, :])[..., 0, :]
            out[..., i, :] = row if unit else row / m[..., i, i, None]
    return out


def _square(x, op, arg="x", error=ShapeError):
    """x as a float Tensor [..., n, n] (Paddle's errors: a ValueError for a non-square one)."""
    x = tensor_arg(x, op, arg)
    shape = x._data.shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise error(f"{op}: argument '{arg}' must be a square matrix or a batch of them "
                         f"(shape [..., n, n]); got: shape {list(shape)}")
    _float(x, op, arg)
    return x


def _matrix(x, op, arg="x"):
    """x as a float Tensor [..., m, n]."""
    x = tensor_arg(x, op, arg)
    if x._data.ndim < 2:
        raise ShapeError(f"{op}: argument '{arg}' must be a matrix or a batch of them (at least "
                         f"2 dimensions); got: shape {list(x._data.shape)}")
    _float(x, op, arg)
    return x


def _same_dtype(x, y, op):
    """x and y (Tensors) hold one dtype, as Paddle's solvers need."""
    if y._data.dtype != x._data.dtype:
        raise DTypeError(f"{op}: arguments 'x' and 'y' must share one dtype; got: "
                         f"{x._data.dtype} and {y._data.dtype}")


def _rhs_rows(rhs, square, op, rhs_arg, square_desc):
    """rhs [..., n, k] has as many rows as the square [..., n, n] it is solved against."""
    n = square.shape[-1]
    if rhs.shape[-2] != n:
        raise ShapeError(f"{op}: argument '{rhs_arg}' must have {n} rows, as {square_desc} is "
                         f"{n}x{n}; got: shape {list(rhs.shape)}")


def _broadcast_solve(op, solve, x, y, *args):
    """solve(*args) (NumPy arrays of x and y inside), its batch axes' mismatch as a ShapeError."""
    try:
        return solve(*args)
    except ValueError:
        raise ShapeError(f"{op}: batch dimensions do not broadcast; got: x "
                         f"{list(x._data.shape)}, y {list(y._data.shape)}") from None


def _float(x, op, arg):
    if x._data.dtype.kind != "f" or x._data.dtype.itemsize < 4:
        raise DTypeError(f"{op}: argument '{arg}' must be float32 or float64; got: "
                         f"{x._data.dtype}")


# -- slogdet ----------------------------------------------------------------------------------
def slogdet(x, name=None):
    """sign and log|det| of a square matrix (batched), stacked as one Tensor of shape
    [2, *batch] (Paddle 3.3.1's layout). The gradient flows through log|det|: g inv(x)^T."""
    x = _square(x, "slogdet")
    sign, logabs = np.linalg.slogdet(x._data)
    out = np.stack([sign, logabs]).astype(x._data.dtype)
    return record("slogdet", out, (x,), _SLOGDET, (x,))


def _slogdet_grad(g, x):
    g1 = maths.getitem(g, 1)
    g1 = maths.reshape(g1, maths.shape(g1) + (1, 1))
    return g1 * _T(_inverse_or_nan(x))


def _inverse_or_nan(x):
    """inv(x); for a singular x NaNs, as Paddle's slogdet gradient gives (log|det| is -inf)."""
    try:
        return inv(x) if _is(x) else np.linalg.inv(x)
    except (np.linalg.LinAlgError, OpArgumentError):
        data = x._data if _is(x) else x
        return _const(np.full_like(data, np.nan), x)


_SLOGDET = (_slogdet_grad,)


# -- triangular systems and Cholesky ----------------------------------------------------------
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """The solution z of op(A) z = y, A the upper (or lower) triangle of x (its diagonal taken
    as ones when unitriangular), op a transpose when ``transpose``; batch axes broadcast.

    Gradients: gy = op(A)^{-T} g, gx = the triangle of -(gy z^T) (transposed back)."""
    x = _square(x, "triangular_solve")
    y = _matrix(y, "triangular_solve", "y")
    _same_dtype(x, y, "triangular_solve")
    _rhs_rows(y._data, x._data, "triangular_solve", "y", "'x'")
    out = _broadcast_solve("triangular_solve", _tri_array_solve, x, y, x._data, y._data, upper,
                           transpose, unitriangular)
    flags = (bool(upper), bool(transpose), bool(unitriangular))
    return record("triangular_solve", out, (x, y), _TRISOLVE, (x, OUT_ARG, flags),
                  broadcast=True)


def _trisolve_grad_y(g, x, z, flags):
    upper, transpose, unit = flags
    return _trisolve(x, g, upper, not transpose, unit)


def _trisolve_grad_x(g, x, z, flags):
    upper, transpose, unit = flags
    gy = _trisolve(x, g, upper, not transpose, unit)
    gm = -_mm(gy, _T(z))
    if transpose:
        gm = _T(gm)
    k = (1 if upper else -1) if unit else 0
    return _triu(gm, k) if upper else _tril(gm, k)


_TRISOLVE = (_trisolve_grad_x, _trisolve_grad_y)


def cholesky(x, upper=False, name=None):
    """The Cholesky factor of a symmetric positive definite matrix (batched), read from its
    lower triangle: L with x = L L^T, or U = L^T when ``upper``.

    Gradient (Murray's, symmetrized as in Paddle): L^{-T} Phi(L^T gL) L^{-1}, Phi the lower
    triangle with its diagonal halved."""
    x = _square(x, "cholesky", error=AssertedShapeError)  # (Paddle asserts it)
    try:
        low = np.linalg.cholesky(x._data)
    except np.linalg.LinAlgError:
        raise OpArgumentError("cholesky: the matrix is not positive definite (Cholesky "
                              f"decomposition failed; shape {list(x._data.shape)}); expected: a "
                              "symmetric positive definite matrix") from None
    out = np.swapaxes(low, -1, -2).copy() if upper else low
    return record("cholesky", out, (x,), _CHOLESKY, (OUT_ARG, bool(upper)))


def _cholesky_grad(g, factor, upper):
    low, gl = (_T(factor), _T(g)) if upper else (factor, g)
    phi = _tril(_mm(_T(low), gl))
    phi = phi - _diag_embed(_diag(phi)) * 0.5
    ga = _trisolve(low, phi, False, True)           # L^{-T} Phi
    ga = _T(_trisolve(low, _T(ga), False, True))    # (L^{-T} Phi) L^{-1}
    return _sym(ga)


_CHOLESKY = (_cholesky_grad,)


def cholesky_solve(x, y, upper=False, name=None):
    """The solution z of A z = x, given A's Cholesky factor y (lower, or upper when ``upper``).

    Gradients (as Paddle's): gx = cholesky_solve(g, y), gy = the triangle of -(C + C^T) L
    with C = gx z^T (of -U (C + C^T) for an upper factor)."""
    x = _matrix(x, "cholesky_solve")
    y = _square(y, "cholesky_solve", "y")
    _same_dtype(x, y, "cholesky_solve")
    _rhs_rows(x._data, y._data, "cholesky_solve", "x", "the factor 'y'")
    out = _broadcast_solve("cholesky_solve", _cholesky_solved, x, y, y._data, x._data, upper)
    return record("cholesky_solve", out, (x, y), _CHOLESKY_SOLVE, (y, OUT_ARG, bool(upper)),
                  broadcast=True)


def _cholesky_solved(factor, b, upper):
    if _is(factor) or _is(b):
        return cholesky_solve(b, factor, upper)
    if upper:
        return _tri_array_solve(factor, _tri_array_solve(factor, b, True, True, False),
                                True, False, False)
    return _tri_array_solve(factor, _tri_array_solve(factor, b, False, False, False),
                            False, True, False)


def _cholesky_solve_grad_x(g, factor, z, upper):
    return _cholesky_solved(factor, g, upper)


def _cholesky_solve_grad_y(g, factor, z, upper):
    gb = _cholesky_solved(factor, g, upper)
    c = _mm(gb, _T(z))
    c = c + _T(c)
    # only the factor's triangle is read (Paddle masks the same way)
    return _triu(-_mm(factor, c)) if upper else _tril(-_mm(c, factor))


_CHOLESKY_SOLVE = (_cholesky_solve_grad_x, _cholesky_solve_grad_y)


def cholesky_inverse(x, upper=False, name=None):
    """The inverse of A from its Cholesky factor x: inv(x x^T) (inv(x^T x) when ``upper``)."""
    x = _square(x, "cholesky_inverse")
    return inv(matmul(x, x, transpose_x=upper, transpose_y=not upper))


# -- eigh ----------------------------------------------------------------------------------
def eigh(x, UPLO="L", name=None):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix, read from its lower
    ('L') or upper ('U') triangle. Gradient: V (diag(gw) + skew(V^T gV) / (w_j - w_i)) V^T."""
    x = _square(x, "eigh")
    if UPLO not in ("L", "U"):
        raise OpArgumentError(f"eigh: argument 'UPLO' must be 'L' or 'U'; got: {UPLO!r}")
    w, v = np.linalg.eigh(x._data, UPLO=UPLO)
    # (copies for the rule: writing an output in place must not change the gradient)
    return tuple(record("eigh", [w, v], (x,), _EIGH, (x, w.copy(), v.copy(), UPLO)))


def _eigh_grad(gs, x, w, v, uplo):
    gw, gv = gs
    if _is(x):
        w, v = eigh(x, uplo)
    inner = 0
    if gv is not None:
        vtgv = _mm(_T(v), gv)
        skew = (vtgv - _T(vtgv)) * 0.5
        n = maths.shape(w)[-1]
        gap = _unsq(w, -2) - _unsq(w, -1) + _eye(n, w)
        inner = skew / gap
    if gw is not None:
        inner = inner + _diag_embed(gw)
    return _mm(_mm(v, inner), _T(v))


_EIGH = (_quiet(_eigh_grad),)


def eigvalsh(x, UPLO="L", name=None):
    """The eigenvalues (ascending) of a symmetric matrix. Gradient: V diag(g) V^T."""
    return eigh(x, UPLO)[0]


# -- svd -----------------------------------------------------------------------------------
def svd(x, full_matrices=False, name=None):
    """U, S, VH with x = U diag(S) VH (S descending), batched; U [.., m, k], VH [.., k, n] with
    k = min(m, n), or square U and VH when ``full_matrices`` (their extra columns get no
    gradient). The gradient divides by the gaps S_j^2 - S_i^2 (a repeated singular value gives
    inf/nan, as in Paddle)."""
    x = _matrix(x, "svd")
    u, s, vh = np.linalg.svd(x._data, full_matrices=bool(full_matrices))
    return tuple(record("svd", [u, s, vh], (x,), _SVD, (x, bool(full_matrices))))


def _svd_grad(gs, x, full):
    gu, gsv, gvh = gs
    m, n = maths.shape(x)[-2:]
    k = min(m, n)
    if _is(x):
        u, s, vh = svd(x, False)
    else:
        u, s, vh = np.linalg.svd(x, full_matrices=False)
    if full:  # only the first k columns (rows) take part in x = U S VH
        gu = None if gu is None else maths.getitem(gu, (Ellipsis, slice(None), slice(0, k)))
        gvh = None if gvh is None else maths.getitem(gvh, (Ellipsis, slice(0, k), slice(None)))
    if gu is None and gvh is None:
        return _mm(u * _unsq(gsv, -2), vh)
    inner = 0
    s_row, s_col = _unsq(s, -2), _unsq(s, -1)
    gap = s_row * s_row - s_col * s_col + _eye(k, s)
    if gu is not None:
        utgu = _mm(_T(u), gu)
        inner = inner + (utgu - _T(utgu)) * s_row / gap
    if gvh is not None:
        vtgv = _mm(vh, _T(gvh))
        inner = inner + s_col * (vtgv - _T(vtgv)) / gap
    if gsv is not None:
        inner = inner + _diag_embed(gsv)
    ga = _mm(_mm(u, inner), vh)
    if m > k and gu is not None:
        gus = gu / s_row
        ga = ga + _mm(gus - _mm(u, _mm(_T(u), gus)), vh)
    if n > k and gvh is not None:
        gvs = gvh / s_col
        ga = ga + _mm(u, gvs - _mm(_mm(gvs, _T(vh)), vh))
    return ga


_SVD = (_quiet(_svd_grad),)


def svdvals(x, name=None):
    """The singular values (descending). Gradient: U diag(g) VH."""
    return svd(x)[1]


# -- qr ------------------------------------------------------------------------------------
def qr(x, mode="reduced", name=None):
    """Q, R with x = Q R (batched): 'reduced' (Q [.., m, k], R [.., k, n]), 'complete' (Q
    square), 'r' (R alone, no gradient: Paddle refuses it). As in Paddle, 'complete' on a tall
    matrix (m > n) has no gradient."""
    x = _matrix(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise OpArgumentError(f"qr: argument 'mode' must be 'reduced', 'complete' or 'r'; got: "
                              f"{mode!r}")
    q, r = np.linalg.qr(x._data, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        return record("qr", [r], (x,), _QR, (x, mode))[0]
    return tuple(record("qr", [q, r], (x,), _QR, (x, mode)))


def _qr_grad(gs, x, mode):
    m, n = maths.shape(x)[-2:]
    if mode == "r":
        raise OpArgumentError("qr: the derivative of qr is not implemented when mode='r' (as "
                              "in Paddle); use mode='reduced'")
    if mode == "complete" and m > n:
        raise OpArgumentError(f"qr: the derivative of qr is not implemented when "
                              f"mode='complete' and {m} > {n} (as in Paddle)")
    gq, gr = gs
    if _is(x):
        q, r = qr(x)
    else:
        q, r = np.linalg.qr(x)
    if gq is None:
        gq = maths.zeros_like(q)
    if gr is None:
        gr = maths.zeros_like(r)
    if m >= n:
        return _qr_square_grad(q, r, gq, gr)
    # a wide x = [X | Y]: X = Q U (square), Y = Q V
    cut = (Ellipsis, slice(None), slice(0, m))
    rest = (Ellipsis, slice(None), slice(m, None))
    u = maths.getitem(r, cut)
    gu, gv = maths.getitem(gr, cut), maths.getitem(gr, rest)
    y = maths.getitem(x, rest)
    gx = _qr_square_grad(q, u, gq + _mm(y, _T(gv)), gu)
    return maths.concat([gx, _mm(q, gv)], -1)


def _qr_square_grad(q, r, gq, gr):
    """(gQ + Q copyltu(M)) R^{-T} with M = R gR^T - gQ^T Q (x = QR, m >= n)."""
    mm = _mm(r, _T(gr)) - _mm(_T(gq), q)
    low = _tril(mm, -1)
    copyltu = low + _T(low) + _diag_embed(_diag(mm))
    b = gq + _mm(q, copyltu)
    # b R^{-T} = (R^{-1} b^T)^T
    return _T(_trisolve(r, _T(b), True))


_QR = (_qr_grad,)


# -- built on the decompositions -----------------------------------------------------------
def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """The Moore-Penrose pseudo-inverse (batched), through svd (eigh when ``hermitian``):
    singular values at most rcond times the largest count as zero."""
    x = _matrix(x, "pinv")
    if hermitian:
        w, v = eigh(x)
        size = _abs(w)
        cutoff = amax(size, axis=-1, keepdim=True) * rcond
        keep = size._data > cutoff._data
        recip = where(_wrap(keep), 1.0 / where(_wrap(keep), w, _wrap(np.ones_like(w._data))),
                      _wrap(np.zeros_like(w._data)))
        return matmul(v * unsqueeze(recip, -2), v, transpose_y=True)
    u, s, vh = svd(x)
    cutoff = amax(s, axis=-1, keepdim=True) * rcond
    keep = s._data > cutoff._data
    recip = where(_wrap(keep), 1.0 / where(_wrap(keep), s, _wrap(np.ones_like(s._data))),
                  _wrap(np.zeros_like(s._data)))
    return matmul(vh * unsqueeze(recip, -1), u, transpose_x=True, transpose_y=True)


def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """The number of singular values above the tolerance (int64; no gradient, as in Paddle):
    tol (absolute) when given; else max(atol, rtol * largest), rtol defaulting to
    eps * max(m, n) when neither atol nor rtol is given."""
    x = _matrix(x, "matrix_rank")
    a = x._data
    s = np.abs(np.linalg.eigvalsh(a)) if hermitian else np.linalg.svd(a, compute_uv=False)
    largest = s.max(axis=-1, initial=0) if s.shape[-1] else np.zeros(s.shape[:-1], a.dtype)

    def value(t):
        return t._data if isinstance(t, Tensor) else t
    if tol is not None:
        bound = np.asarray(value(tol), a.dtype) * np.ones_like(largest)
    else:
        if atol is None and rtol is None:
            rtol = np.finfo(a.dtype).eps * max(a.shape[-2:])
        at = np.asarray(0.0 if atol is None else value(atol), a.dtype)
        rt = np.asarray(0.0 if rtol is None else value(rtol), a.dtype)
        bound = np.maximum(at, rt * largest)
    rank = (s > bound[..., None]).sum(axis=-1).astype(np.int64)
    return _wrap(np.asarray(rank))


def cond(x, p=None, name=None):
    """The condition number in norm p: None or 2 (largest / smallest singular value), -2 (the
    reverse), 'fro', 'nuc', inf, -inf, 1, -1 (norm(x) * norm(inv(x)), square x)."""
    x = _matrix(x, "cond")
    if p is None or p in (2, -2):
        s = svdvals(x)
        big, small = amax(s, axis=-1), amin(s, axis=-1)
        return small / big if p == -2 else big / small
    if p not in ("fro", "nuc", 1, -1, float("inf"), float("-inf")):
        raise OpArgumentError(f"cond: argument 'p' must be None, 'fro', 'nuc', 1, -1, 2, -2, inf "
                              f"or -inf; got: {p!r}")
    x = _square(x, "cond")
    return matrix_norm(x, p) * matrix_norm(inv(x), p)


def matrix_norm(x, p="fro", axis=(-2, -1), keepdim=False, name=None):
    """A matrix norm over two axes: 'fro', 'nuc' (the sum of singular values), 2 and -2 (the
    largest and smallest), 1, -1, inf, -inf (max/min absolute column or row sum)."""
    axis = list(axis)
    if len(axis) != 2:
        raise OpArgumentError(f"matrix_norm: argument 'axis' must name two axes; got: {axis}")
    if p == "fro":
        return vector_norm(x, 2.0, axis, keepdim)
    if p in ("nuc", 2, -2):
        return _svd_norm(tensor_arg(x, "matrix_norm", "x"), p, axis, keepdim)
    if p not in (1, -1, float("inf"), float("-inf")):
        raise OpArgumentError(f"matrix_norm: argument 'p' must be 'fro', 'nuc', 1, -1, 2, -2, "
                              f"inf or -inf; got: {p!r}")
    rows, cols = axis
    summed, over = (rows, cols) if abs(p) == 1 else (cols, rows)
    sums = _sum(_abs(x), axis=summed, keepdim=True)
    pick = amax if p > 0 else amin
    out = pick(sums, axis=over, keepdim=True)
    return out if keepdim else squeeze(out, axis)


def _svd_norm(x, p, axis, keepdim):
    """'nuc', 2, -2: the sum, largest or smallest singular value of the (axis) matrices."""
    nd = x.ndim
    a0, a1 = (a % nd for a in axis)
    rest = [i for i in range(nd) if i not in (a0, a1)]
    s = svdvals(transpose(x, rest + [a0, a1]))
    out = _sum(s, axis=-1) if p == "nuc" else (amax if p == 2 else amin)(s, axis=-1)
    if keepdim:
        for a in sorted((a0, a1)):
            out = unsqueeze(out, a)
    return out


def norm(x, p=None, axis=None, keepdim=False, name=None):
    """Paddle's linalg.norm (paddle.norm and Tensor.norm are the same function): the 2-norm of
    all elements by default; a vector norm over one axis; over two axes a matrix norm, the
    spectral norm (largest singular value) when p is None, as in Paddle 3.3.1. p='nuc' without
    axis is the nuclear norm of a 2-D x."""
    if isinstance(p, str) and p == "nuc" and (axis is None or not isinstance(axis, (list, tuple))):
        x = tensor_arg(x, "norm", "x")
        if axis is not None:
            raise ArgumentTypeError(f"norm: p='nuc' needs two axes (a list of two ints); got: "
                                    f"axis={axis!r}")
        if x.ndim != 2:
            raise OpArgumentError(f"norm: p='nuc' without axis needs a 2-D x; got: shape "
                                  f"{list(x.shape)}")
        return matrix_norm(x, "nuc", [0, 1], keepdim)
    if axis is not None and isinstance(axis, (list, tuple)) and len(axis) == 2:
        return matrix_norm(x, 2 if p is None else p, axis, keepdim)
    return vector_norm(x, 2.0 if p is None or p == "fro" else p, axis, keepdim)


# -- lstsq -----------------------------------------------------------------------------------
_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(x, y, rcond=None, driver=None, name=None):
    """The least-squares solution of x z = y (batched) with Paddle 3.3.1's four outputs:
    (solution, residuals, rank, singular_values). The driver (default 'gelsy' on the CPU)
    picks which are filled: 'gels' gives no rank or singular values (empty, int64 rank);
    'gelsy' no singular values; 'gelsd' and 'gelss' all. Residuals (squared column norms of y
    - x z) come when x is tall (m > n) and of full rank, else an empty Tensor. No gradient, as
    in Paddle."""
    x = _matrix(x, "lstsq")
    y = _matrix(y, "lstsq", "y")
    if driver is None:
        driver = "gelsy"
    if driver not in _DRIVERS:
        raise OpArgumentError(f"lstsq: argument 'driver' must be one of {list(_DRIVERS)} or "
                              f"None; got: {driver!r}")
    _same_dtype(x, y, "lstsq")
    a, b = x._data, y._data
    if a.shape[-2] != b.shape[-2]:
        raise ShapeError(f"lstsq: 'x' and 'y' must have the same number of rows; got: shapes "
                         f"{list(a.shape)} and {list(b.shape)}")
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    m, n = a.shape[-2:]
    k = b.shape[-1]
    a = np.broadcast_to(a, batch + (m, n)).reshape((-1, m, n))
    b = np.broadcast_to(b, batch + (m, k)).reshape((-1, m, k))
    eps = np.finfo(a.dtype).eps
    cut = eps * max(m, n) if rcond is None else rcond
    sols, ranks, svals = [], [], []
    for ai, bi in zip(a, b):
        sol, _, rank, sv = np.linalg.lstsq(ai.astype(np.float64), bi.astype(np.float64),
                                           rcond=cut)
        sols.append(sol)
        ranks.append(rank)
        svals.append(sv)
    dtype = x._data.dtype
    sol = np.asarray(sols, dtype).reshape(batch + (n, k))
    ranks = np.asarray(ranks).reshape(batch)
    full = m > n and driver != "gelsy" and bool(np.all(ranks == n))
    if full:
        res = ((np.broadcast_to(x._data, batch + (m, n)) @ sol
                - np.broadcast_to(y._data, batch + (m, k))) ** 2).sum(axis=-2).astype(dtype)
    else:
        res = np.zeros((0,), dtype)
    if driver == "gels":
        rank_out = np.zeros((0,), np.int64)
        sv_out = np.zeros((0,), dtype)
    else:
        rank_out = ranks.astype(np.int32)
        sv_out = (np.asarray(svals, dtype).reshape(batch + (min(m, n),))
                  if driver in ("gelsd", "gelss") else np.zeros((0,), dtype))
    return tuple(_wrap(np.asarray(v)) for v in (sol, res, rank_out, sv_out))


# -- statistics --------------------------------------------------------------------------------
def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """The covariance matrix of the variables (rows, or columns when not rowvar) of a 1-D or
    2-D x; ddof=True divides by N - 1; fweights (int) and aweights weight the observations."""
    x = tensor_arg(x, "cov", "x")
    if x.ndim > 2:
        raise ShapeError(f"cov: argument 'x' must have at most 2 dimensions; got: shape "
                         f"{list(x.shape)}")
    if x.ndim < 2:
        x = unsqueeze(x, 0)
    if not rowvar and x.shape[0] != 1:
        x = transpose(x, [1, 0])
    nobs = x.shape[1]
    w = None
    if fweights is not None:
        fw = tensor_arg(fweights, "cov", "fweights")
        if fw.ndim > 1 or fw.shape[0] != nobs:
            raise ShapeError(f"cov: argument 'fweights' must be 1-D with {nobs} entries; got: "
                             f"shape {list(fw.shape)}")
        if fw._data.dtype.kind not in "iu":
            raise DTypeError(f"cov: argument 'fweights' must be an integer Tensor; got: "
                             f"{fw._data.dtype}")
        if (fw._data < 0).any():
            raise OpArgumentError("cov: argument 'fweights' cannot be negative")
        w = fw.astype(x.dtype)
    if aweights is not None:
        aw = tensor_arg(aweights, "cov", "aweights")
        if aw.ndim > 1 or aw.shape[0] != nobs:
            raise ShapeError(f"cov: argument 'aweights' must be 1-D with {nobs} entries; got: "
                             f"shape {list(aw.shape)}")
        if (aw._data < 0).any():
            raise OpArgumentError("cov: argument 'aweights' cannot be negative")
        aw = aw.astype(x.dtype)
        w = aw if w is None else w * aw
    if w is None:
        avg = mean(x, axis=1, keepdim=True)
        norm_factor = nobs - (1 if ddof else 0)
        xc = x - avg
        return _squeezed(matmul(xc, xc, transpose_y=True) / norm_factor)
    wsum = _sum(w)
    avg = _sum(x * w, axis=1, keepdim=True) / wsum
    if not ddof:
        norm_factor = wsum
    elif aweights is None:
        norm_factor = wsum - 1
    else:
        norm_factor = wsum - _sum(w * aw) / wsum
    xc = x - avg
    return _squeezed(matmul(xc * w, xc, transpose_y=True) / norm_factor)


def _squeezed(c):
    return c.reshape([]) if c.shape == [1, 1] else c


def corrcoef(x, rowvar=True, name=None):
    """The Pearson correlation coefficients of the variables of x (cov normalised by the
    standard deviations, clipped to [-1, 1])."""
    c = cov(x, rowvar)
    if c.ndim == 0:
        return c / c
    d = sqrt(_diag(c))
    c = c / unsqueeze(d, 1) / unsqueeze(d, 0)
    return c.clip(-1, 1)


# -- lu ----------------------------------------------------------------------------------------
def _lu_factor(a):
    """LAPACK getrf in NumPy (partial pivoting, batched): the packed LU, the 1-based int32
    pivots, the int32 infos (j + 1 at the first zero pivot)."""
    m, n = a.shape[-2:]
    k = min(m, n)
    work = a.reshape((-1, m, n)).astype(a.dtype, copy=True)
    count = work.shape[0]
    piv = np.zeros((count, k), np.int32)
    info = np.zeros(count, np.int32)
    rows = np.arange(count)
    for j in range(k):
        p = j + np.argmax(np.abs(work[:, j:, j]), axis=1)
        piv[:, j] = p + 1
        top = work[rows, j, :].copy()
        work[rows, j, :] = work[rows, p, :]
        work[rows, p, :] = top
        d = work[:, j, j]
        zero = d == 0
        info[zero & (info == 0)] = j + 1
        work[:, j + 1:, j] /= np.where(zero, 1, d)[:, None]
        work[:, j + 1:, j + 1:] -= work[:, j + 1:, j:j + 1] * work[:, j:j + 1, j + 1:]
    batch = a.shape[:-2]
    return work.reshape(a.shape), piv.reshape(batch + (k,)), info.reshape(batch)


def _row_order(piv, m):
    """The row order perm with (P^T A)[i] = A[perm[i]], from 1-based pivots [..., k]."""
    flat = piv.reshape((-1, piv.shape[-1])) - 1
    perm = np.tile(np.arange(m), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for i in range(flat.shape[1]):
        p = flat[:, i]
        keep = perm[rows, i].copy()
        perm[rows, i] = perm[rows, p]
        perm[rows, p] = keep
    return perm.reshape(piv.shape[:-1] + (m,))


def _permutation(piv, m, dtype):
    """P (A = P L U) from the pivots: P[perm[i], i] = 1."""
    perm = _row_order(piv, m)
    eye = np.eye(m, dtype=dtype)
    return np.swapaxes(eye[perm], -1, -2)


def lu(x, pivot=True, get_infos=False, name=None):
    """The LU factorization with partial pivoting (batched, any m x n): (LU, pivots) or
    (LU, pivots, infos) with ``get_infos``; LU packs the unit lower L below its diagonal and U
    on and above it, the pivots are LAPACK's 1-based int32 row swaps. The gradient reaches x
    through LU (the pivots are constants)."""
    x = _matrix(x, "lu")
    if not pivot:
        raise OpArgumentError("lu: pivot=False is not supported on the CPU (as in Paddle)")
    packed, piv, info = _lu_factor(x._data)
    out = record("lu", [packed], (x,), _LU, (x, piv))
    # the integer outputs of an x that needs a gradient report stop_gradient=False and are not
    # leaves, as Paddle's (no gradient flows through them)
    res = (out[0], index_result(x, piv))
    return res + (index_result(x, info),) if get_infos else res


def _lu_grad(gs, x, piv):
    (g,) = gs
    m, n = maths.shape(x)[-2:]
    k = min(m, n)
    if _is(x):
        packed = lu(x)[0]
    else:
        packed = _lu_factor(x)[0]
    perm = _permutation(piv, m, (x._data if _is(x) else x).dtype)
    pmat = _const(perm, g)
    lo = maths.getitem(packed, (Ellipsis, slice(0, k), slice(0, k)))    # L1 (unit, packed)
    up = maths.getitem(packed, (Ellipsis, slice(0, k), slice(0, k)))    # U1 (packed)
    l1 = _tril(lo, -1) + _eye(k, lo)
    u1 = _triu(up)
    gl1 = _tril(maths.getitem(g, (Ellipsis, slice(0, k), slice(0, k))), -1)
    gu1 = _triu(maths.getitem(g, (Ellipsis, slice(0, k), slice(0, k))))
    phi_low = _mm(_T(l1), gl1)
    phi_up = _mm(gu1, _T(u1))
    if n > k:  # wide: U = [U1 | U2]
        u2 = maths.getitem(packed, (Ellipsis, slice(None), slice(k, None)))
        gu2 = maths.getitem(g, (Ellipsis, slice(None), slice(k, None)))
        phi_low = phi_low - _mm(gu2, _T(u2))
    if m > k:  # tall: L = [L1; L2]
        l2 = maths.getitem(packed, (Ellipsis, slice(k, None), slice(None)))
        gl2 = maths.getitem(g, (Ellipsis, slice(k, None), slice(None)))
        phi_up = phi_up - _mm(_T(l2), gl2)
    phi = _tril(phi_low, -1) + _triu(phi_up)
    # L1^{-T} Phi U1^{-T}
    left = _trisolve(lo, phi, False, True, True)
    top = _T(_trisolve(up, _T(left), True))
    if n > k:
        top = maths.concat([top, _trisolve(lo, gu2, False, True, True)], -1)
    if m > k:
        bottom = _T(_trisolve(up, _T(gl2), True))
        top = maths.concat([top, bottom], -2)
    return _mm(pmat, top)


_LU = (_lu_grad,)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """P, L, U from lu's packed x and pivots y, with A = P L U (L [.., m, k] unit lower, U
    [.., k, n]); the gradient reaches x through L and U. What is not unpacked is an empty
    float32 Tensor, as in Paddle."""
    x = _matrix(x, "lu_unpack")
    y = tensor_arg(y, "lu_unpack", "y")
    m, n = x.shape[-2:]
    k = min(m, n)
    low = up = perm = None
    if unpack_ludata:
        low = tril(x[..., :, :k], -1) + _wrap(np.eye(m, k, dtype=x._data.dtype))
        up = triu(x[..., :k, :])
    if unpack_pivots:
        perm = _wrap(_permutation(np.asarray(y._data), m, x._data.dtype))
    empty = _wrap(np.zeros((0,), np.float32))  # (float32 whatever x is, as Paddle's)
    return (empty if perm is None else perm, empty if low is None else low,
            empty if up is None else up)


def lu_solve(b, lu, pivots, trans="N", name=None):
    """The solution X of A X = b (trans 'N') or A^T X = b ('T', 'C'), A = P L U given by lu's
    packed lu and pivots; batched. Gradients reach b and lu through triangular solves."""
    b = _matrix(b, "lu_solve", "b")
    lu_ = _square(lu, "lu_solve", "lu")
    if trans not in ("N", "T", "C"):
        raise OpArgumentError(f"lu_solve: argument 'trans' must be 'N', 'T' or 'C'; got: "
                              f"{trans!r}")
    n = lu_.shape[-1]
    _rhs_rows(b, lu_, "lu_solve", "b", "'lu'")
    pivots = tensor_arg(pivots, "lu_solve", "pivots")
    pmat = _wrap(_permutation(np.asarray(pivots._data), n, lu_._data.dtype))
    # Paddle's lu_solve marks its pivots as needing no gradient (stop_gradient becomes True on
    # the caller's tensor, batch 1217 saw it); opsdk does the same
    pivots.stop_gradient = True
    if trans == "N":
        z = matmul(pmat, b, transpose_x=True)
        z = triangular_solve(lu_, z, upper=False, unitriangular=True)
        return triangular_solve(lu_, z, upper=True)
    z = triangular_solve(lu_, b, upper=True, transpose=True)
    z = triangular_solve(lu_, z, upper=False, transpose=True, unitriangular=True)
    return matmul(pmat, z)


# -- matrix_exp --------------------------------------------------------------------------------
def _expm(a):
    """exp of square matrices (batched): scaling and squaring around a Taylor series."""
    work = a.astype(np.float64)
    n = work.shape[-1]
    norm = np.abs(work).sum(axis=-2).max(axis=-1) if work.size else np.zeros(1)
    top = float(np.max(norm)) if np.size(norm) else 0.0
    steps = max(0, int(np.ceil(np.log2(top / 0.25)))) if top > 0.25 else 0
    work = work / (2.0 ** steps)
    eye = np.broadcast_to(np.eye(n), work.shape)
    out = eye.copy()
    term = eye
    for k in range(1, 19):
        term = term @ work / k
        out = out + term
    for _ in range(steps):
        out = out @ out
    return out.astype(a.dtype)


def matrix_exp(x, name=None):
    """The matrix exponential (batched). Gradient: the top-right block of
    exp([[x^T, g], [0, x^T]]), itself a matrix_exp, so it differentiates again."""
    x = _square(x, "matrix_exp")
    return record("matrix_exp", _expm(x._data), (x,), _MATRIX_EXP, (x,))


def _matrix_exp_grad(g, x):
    n = maths.shape(x)[-1]
    xt = _T(x)
    zero = maths.zeros_like(xt)
    block = maths.concat([maths.concat([xt, g], -1), maths.concat([zero, xt], -1)], -2)
    big = matrix_exp(block) if _is(block) else _expm(block)
    return maths.getitem(big, (Ellipsis, slice(0, n), slice(n, None)))


_MATRIX_EXP = (_matrix_exp_grad,)
