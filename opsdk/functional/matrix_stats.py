"""Matrix functions of Paddle 3.3.1 that compose of opsdk's own ops, so their gradients (to any
order) come from those: slogdet, cholesky, eigh, eigvalsh, svd, svdvals, qr, pinv, matrix_rank,
cond, lstsq (values only, as Paddle's), householder_product, ormqr, svd_lowrank, pca_lowrank,
lu, lu_unpack, cov, corrcoef,
cholesky_solve, cholesky_inverse.

cholesky is NumPy's factorization with the gradient of Murray (2016) written in ops:
sym(L^-T phi(L^T g) L^-1), phi the lower triangle with its diagonal halved.

slogdet is an op of its own (NumPy's slogdet: no overflow of the determinant) whose gradient,
inv(x)^T for the log of |det|, is written in ops. cov follows NumPy's (and Paddle's) weighted
formula; corrcoef divides it by the standard deviations and clips to [-1, 1]. cholesky_solve
and cholesky_inverse form the matrix from its Cholesky factor and solve or invert it.
"""
import numpy as np

from ..autograd.record import OUTPUT, record
from ..dtypes import default_float
from ..errors import DTypeError, OpArgumentError, ShapeError, UnsupportedError
from ..tensor import Tensor, _wrap, tensor_arg
from . import maths
from . import linalg as _linalg_module
from .linalg import _inverse, inv, matmul, matrix_transposed, solve, square_matrix_arg
from .shape import reshape

_FLOATS = ("float32", "float64")


def _float_matrix(x, op):
    x = square_matrix_arg(x, op)
    if x._data.dtype.name not in _FLOATS:
        raise DTypeError(f"{op}: argument 'x' has an unsupported dtype; expected: float32 or "
                         f"float64; got: {x._data.dtype}")
    return x


def slogdet(x, name=None):
    """[sign, log|det|] of a square matrix (batched: shape [2, *batch]), as Paddle 3.3.1
    stacks them. The gradient goes through log|det| only: inv(x)^T.

    Example:
        >>> opsdk.linalg.slogdet(opsdk.to_tensor([[2.0, 1.0], [1.0, 3.0]])).tolist()[0]
        1.0
    """
    x = _float_matrix(x, "slogdet")
    sign, logabs = np.linalg.slogdet(x._data)
    return record("slogdet", np.stack([sign, logabs]).astype(x._data.dtype), (x,), _SLOGDET,
                  (x,))


def _slogdet_grad(g, x):
    g = g[1]
    g = maths.reshape(g, maths.shape(g) + (1, 1))
    return g * maths.mT(_inverse(x, "slogdet (its gradient)"))


_SLOGDET = (_slogdet_grad,)


def cholesky(x, upper=False, name=None):
    """The Cholesky factor of a symmetric positive-definite matrix (batched): L lower with
    x = L L^T, or U = L^T with upper=True. Only x's lower triangle is read (as LAPACK's)."""
    x = _float_matrix(x, "cholesky")
    try:
        low = np.linalg.cholesky(x._data)
    except np.linalg.LinAlgError:
        raise OpArgumentError(f"cholesky: the matrix (shape {list(x.shape)}) is not positive "
                              f"definite (its Cholesky factorization failed)") from None
    out = record("cholesky", low, (x,), _CHOLESKY, (OUTPUT,))
    return matrix_transposed(out) if upper else out


def _cholesky_grad(g, low):
    n = maths.shape(low)[-1]
    half_lower = np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)
    inv_low = _inverse(low, "cholesky (its gradient)")
    p = maths.matmul(low, g, transpose_a=True) * half_lower.astype(np.dtype(low.dtype.name))
    s = maths.matmul(maths.matmul(inv_low, p, transpose_a=True), inv_low)
    return (s + maths.mT(s)) * 0.5


_CHOLESKY = (_cholesky_grad,)


def eigh(x, UPLO="L", name=None):
    """(eigenvalues ascending, eigenvectors as columns) of a symmetric matrix (batched), from
    its lower (UPLO='L') or upper triangle. Gradient: the symmetric part (Paddle's) of
    V (diag(gw) + F * (V^T gV)) V^T with F_ij = 1 / (w_j - w_i) off the diagonal, written in
    ops (it recomputes eigh on Tensors, so it differentiates again); repeated eigenvalues make
    the eigenvectors' part infinite."""
    x = _float_matrix(x, "eigh")
    if UPLO not in ("L", "U"):
        raise OpArgumentError(f"eigh: UPLO must be 'L' or 'U'; got: {UPLO!r}")
    w, v = np.linalg.eigh(x._data, UPLO=UPLO)
    return tuple(record("eigh", [w, v], (x,), _EIGH, (x, UPLO)))


def eigvalsh(x, UPLO="L", name=None):
    """The eigenvalues (ascending) of a symmetric matrix: eigh's first output."""
    return eigh(x, UPLO)[0]


def _eigh_grad(gs, x, uplo):
    gw, gv = gs
    w, v = eigh(x, uplo) if maths.is_tensor(x) else np.linalg.eigh(x, UPLO=uplo)
    n = maths.shape(w)[-1]
    eye = np.eye(n, dtype=np.dtype(w.dtype.name))
    inner = 0.0
    if gw is not None:
        inner = maths.reshape(gw, maths.shape(gw) + (1,)) * eye
    if gv is not None:
        gaps = maths.reshape(w, maths.shape(w)[:-1] + (1, n)) - \
            maths.reshape(w, maths.shape(w)[:-1] + (n, 1))
        inner = inner + maths.matmul(v, gv, transpose_a=True) * (1 - eye) / (gaps + eye)
    grad = maths.matmul(maths.matmul(v, inner), v, transpose_b=True)
    return (grad + maths.mT(grad)) * 0.5  # symmetric, as Paddle's


_EIGH = (_eigh_grad,)


def _float_matrices(x, op):
    x = tensor_arg(x, op)
    if x.ndim < 2 or x._data.dtype.name not in _FLOATS:
        raise DTypeError(f"{op}: expected: a float32 or float64 matrix (or a batch of them); "
                         f"got: {x._data.dtype} of shape {list(x.shape)}")
    return x


def svd(x, full_matrices=False, name=None):
    """(U, S, VH) with x = U diag(S) VH (batched; S descending, k = min(m, n) of them).
    Gradient: the real case of the standard formula (Townsend 2016), written in ops
    (recomputing svd on Tensors) so it differentiates again; as every SVD gradient it holds
    for functions the signs of the singular vectors do not change, and repeated singular
    values make the vectors' part infinite. full_matrices=True: square matrices only."""
    x = _float_matrices(x, "svd")
    m, n = x._data.shape[-2:]
    if full_matrices and m != n:
        raise UnsupportedError(f"svd: full_matrices=True is supported for square matrices "
                               f"only (the completed bases have no gradient); got: "
                               f"shape {list(x.shape)}")
    u, sv, vh = np.linalg.svd(x._data, full_matrices=False)
    return tuple(record("svd", [u, sv, vh], (x,), _SVD, (x,)))


def _svd_grad(gs, x):
    gu, gsv, gvh = gs
    u, sv, vh = svd(x) if maths.is_tensor(x) else np.linalg.svd(x, full_matrices=False)
    m, n = maths.shape(x)[-2:]
    k = min(m, n)
    eye = np.eye(k, dtype=np.dtype(sv.dtype.name))
    batch = maths.shape(sv)[:-1]
    row = maths.reshape(sv, batch + (1, k))  # S_j along a row
    col = maths.reshape(sv, batch + (k, 1))  # S_i down a column
    inner = 0.0
    if gsv is not None:
        inner = maths.reshape(gsv, maths.shape(gsv) + (1,)) * eye
    gaps = row * row - col * col + eye
    v = maths.mT(vh)
    if gu is not None:
        uhgu = maths.matmul(u, gu, transpose_a=True)
        inner = inner + (uhgu - maths.mT(uhgu)) * row / gaps * (1 - eye)
    if gvh is not None:
        gv = maths.mT(gvh)
        vhgv = maths.matmul(v, gv, transpose_a=True)
        inner = inner + col * (vhgv - maths.mT(vhgv)) / gaps * (1 - eye)
    grad = maths.matmul(maths.matmul(u, inner), vh)
    if gu is not None and m > k:
        rest = gu - maths.matmul(u, maths.matmul(u, gu, transpose_a=True))
        grad = grad + maths.matmul(rest / row, vh)
    if gvh is not None and n > k:
        gv = maths.mT(gvh)
        rest = gv - maths.matmul(v, maths.matmul(v, gv, transpose_a=True))
        grad = grad + maths.matmul(u, maths.mT(rest / row))
    return grad


_SVD = (_svd_grad,)


def qr(x, mode="reduced", name=None):
    """(Q, R) with x = Q R (batched): mode 'reduced' (Q [m, k], R [k, n], k = min(m, n)),
    'complete' (Q [m, m]) or 'r' (R alone), as NumPy's (and Paddle's) LAPACK signs. The
    gradient (reduced, or complete with m <= n; R of full rank) is written in ops, recomputing
    qr on Tensors, so it differentiates again."""
    x = _float_matrices(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise OpArgumentError(f"qr: mode must be 'reduced', 'complete' or 'r'; got: {mode!r}")
    m, n = x._data.shape[-2:]
    if mode == "complete" and m > n:
        q, r = np.linalg.qr(x._data, mode="complete")
        if x.stop_gradient:
            return _wrap(q), _wrap(r)
        raise UnsupportedError(f"qr: the gradient of mode='complete' is not defined for "
                               f"m > n (as Paddle's); got: shape {list(x.shape)}")
    q, r = np.linalg.qr(x._data, mode="reduced")
    q, r = record("qr", [q, r], (x,), _QR, (x,))
    return r if mode == "r" else (q, r)


def _copyltu(mat):
    k = maths.shape(mat)[-1]
    low = np.tril(np.ones((k, k)), -1)
    strict = mat * low
    return strict + maths.mT(strict) + mat * np.eye(k)


def _qr_square_or_tall_grad(gq, gr, q, r):
    m = maths.matmul(r, gr, transpose_b=True) - maths.matmul(gq, q, transpose_a=True)
    b = gq + maths.matmul(q, _copyltu(m))
    return maths.matmul(b, maths.mT(_inverse(r, "qr (its gradient: R must be invertible)")))


def _qr_grad(gs, x):
    gq, gr = gs
    q, r = qr(x) if maths.is_tensor(x) else np.linalg.qr(x, mode="reduced")
    gq = 0 * q if gq is None else gq
    gr = 0 * r if gr is None else gr
    m, n = maths.shape(x)[-2:]
    if m >= n:
        return _qr_square_or_tall_grad(gq, gr, q, r)
    # wide: x = [X | Y], R = [U | Q^T Y]
    u, gu = maths.getitem(r, (Ellipsis, slice(0, m))), maths.getitem(gr, (Ellipsis, slice(0, m)))
    y = maths.getitem(x, (Ellipsis, slice(m, None)))
    gv = maths.getitem(gr, (Ellipsis, slice(m, None)))
    gx = _qr_square_or_tall_grad(gq + maths.matmul(y, gv, transpose_b=True), gu, q, u)
    return maths.concat([gx, maths.matmul(q, gv)], -1)


_QR = (_qr_grad,)


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(x, y, rcond=None, driver=None, name=None):
    """(solution, residuals, rank, singular_values) of min ||x z - y|| (batched), as Paddle
    3.3.1 on the CPU: the driver ('gelsy' by default) decides which of the last three are
    filled (gels: residuals; gelsy: rank; gelsd, gelss: all three); residuals only for
    m > n and full rank. No gradient (Paddle's has none either)."""
    x = _float_matrices(x, "lstsq")
    y = _float_matrices(y, "lstsq")
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise OpArgumentError(f"lstsq: driver must be one of {', '.join(_LSTSQ_DRIVERS)}; got: "
                              f"{driver!r}")
    a, b = np.asarray(x._data), np.asarray(y._data)
    if a.shape[:-1] != b.shape[:-1]:
        raise ShapeError(f"lstsq: x [..., m, n] and y [..., m, k] must share the batch and m; "
                         f"got: {list(a.shape)} and {list(b.shape)}")
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    sols, ress, ranks, svs = [], [], [], []
    for i in np.ndindex(*batch):
        sol, res, rank, sv = np.linalg.lstsq(a[i], b[i], rcond=rcond)
        sols.append(sol)
        ress.append(res if (m > n and rank == n) else np.zeros(0, a.dtype))
        ranks.append(rank)
        svs.append(sv)
    dt = a.dtype
    solution = np.stack(sols).reshape(batch + sols[0].shape).astype(dt)
    empty = np.zeros(0, dt)
    filled = driver != "gelsy" and all(r.size for r in ress)
    residuals = np.stack(ress).reshape(batch + ress[0].shape).astype(dt) if filled else empty
    rank = np.zeros([0], np.int64) if driver == "gels" else np.asarray(
        ranks, np.int32).reshape(batch)
    singular = np.stack(svs).reshape(batch + svs[0].shape).astype(dt) \
        if driver in ("gelsd", "gelss") else empty
    return tuple(_wrap(v) for v in (solution, residuals, rank, singular))


def householder_product(x, tau, name=None):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i x's column i
    below the diagonal and 1 on it (LAPACK's reflectors, as np.linalg.qr(mode='raw') gives
    them transposed); composed of ops as Paddle's, so gradients go to x's lower part and tau."""
    from .shape import concat
    x = _float_matrices(x, "householder_product")
    tau = tensor_arg(tau, "householder_product", "tau")
    m, n = x._data.shape[-2:]
    if m < n or tau._data.shape[-1] > n or tau._data.shape[:-1] != x._data.shape[:-2] or \
            tau._data.dtype != x._data.dtype:
        raise ShapeError(f"householder_product: expected: x [..., m, n] with m >= n and tau "
                         f"[..., k] of x's batch and dtype with k <= n; got: x "
                         f"{list(x.shape)} ({x._data.dtype}), tau {list(tau.shape)} "
                         f"({tau._data.dtype})")
    batch = list(x._data.shape[:-2])
    q = _wrap(np.broadcast_to(np.eye(m, dtype=x._data.dtype), batch + [m, m]).copy())
    for i in range(min(tau._data.shape[-1], n)):
        one = _wrap(np.ones(batch + [1, 1], x._data.dtype))
        w = concat([one, reshape(x[..., i + 1:, i], batch + [m - i - 1, 1])], axis=-1 - 1)
        right = q[..., :, i:]
        t = reshape(tau[..., i], batch + [1, 1])
        right = right - matmul(matmul(right, w), w, transpose_y=True) * t
        q = concat([q[..., :, :i], right], axis=-1) if i else right
    return q[..., :, :n]


def ormqr(x, tau, y, left=True, transpose=False, name=None):
    """y multiplied by Q = householder_product(x, tau) (Q^T with transpose), from the left
    (Q y) or the right (y Q), as Paddle's composition."""
    q = householder_product(x, tau)
    if transpose:
        q = matrix_transposed(q)
    return matmul(q, y) if left else matmul(y, q)


def _approximate_basis(a, q, niter, m=None):
    """An orthonormal basis of a's range from q random directions refined by niter power
    iterations (Halko et al.; Paddle's composition)."""
    from .creation import get_rng
    n = a._data.shape[-1]
    r = _wrap(get_rng().standard_normal((n, q)).astype(a._data.dtype))

    def minus_m(prod, mat, right):
        return prod if mat is None else prod - matmul(mat, right)
    m_t = None if m is None else matrix_transposed(m)
    basis = qr(minus_m(matmul(a, r), m, r))[0]
    for _ in range(niter):
        basis = qr(minus_m(matmul(a, basis, transpose_x=True), m_t, basis))[0]
        basis = qr(minus_m(matmul(a, basis), m, basis))[0]
    return basis


def _lowrank_args(x, q, niter, op):
    x = _float_matrices(x, op)
    rows, cols = x._data.shape[-2:]
    q = min(6, rows, cols) if q is None else int(q)
    if not 0 <= q <= min(rows, cols):
        raise OpArgumentError(f"{op}: q(={q}) must be non-negative integer and not greater "
                              f"than min(m, n)={min(rows, cols)}")
    if not niter >= 0:
        raise OpArgumentError(f"{op}: niter(={niter}) must be non-negative integer")
    return x, q


def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """(U, S, V) of a rank-q approximation of x - M (x ~ U diag(S) V^T), by Paddle's randomized
    algorithm with draws from opsdk's generator: exact (up to the vectors' signs) when the
    rank is at most q; composed of qr, svd and matmul, so gradients flow."""
    x, q = _lowrank_args(x, q, niter, "svd_lowrank")
    rows, cols = x._data.shape[-2:]
    if M is not None:
        from .shape import broadcast_to
        M = broadcast_to(M, list(x.shape))
    if rows < cols or cols > q:
        basis = _approximate_basis(matrix_transposed(x), q, niter,
                                   None if M is None else matrix_transposed(M))
        b_t = matmul(x, basis) if M is None else matmul(x, basis) - matmul(M, basis)
        u, sv, vh = svd(b_t)
        return u, sv, matmul(basis, matrix_transposed(vh))
    basis = _approximate_basis(x, q, niter, M)
    b = matmul(x, basis, transpose_x=True)
    if M is not None:
        b = b - matmul(M, basis, transpose_x=True)
    u, sv, vh = svd(matrix_transposed(b))
    return matmul(basis, u), sv, matrix_transposed(vh)


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """svd_lowrank of x with its column means taken off (center=True), as Paddle's."""
    from .reduction import mean
    x, q = _lowrank_args(x, q, niter, "pca_lowrank")
    if center:
        x = x - mean(x, axis=-2, keepdim=True)
    return svd_lowrank(x, q, niter=niter)


def _getrf(a):
    """LAPACK's getrf on one matrix: the packed factors and the 1-based row swaps."""
    f = np.array(a, dtype=a.dtype)
    m, n = f.shape
    piv = np.zeros(min(m, n), np.int32)
    info = 0
    for j in range(min(m, n)):
        p = j + int(np.argmax(np.abs(f[j:, j])))
        piv[j] = p + 1
        if p != j:
            f[[j, p]] = f[[p, j]]
        if f[j, j] == 0:
            info = info or j + 1
            continue
        f[j + 1:, j] /= f[j, j]
        f[j + 1:, j + 1:] -= np.outer(f[j + 1:, j], f[j, j + 1:])
    return f, piv, info


def _permutation(piv, m, dtype):
    """The matrix P of x = P L U for 1-based row swaps piv."""
    order = np.arange(m)
    for j, p in enumerate(piv):
        order[[j, p - 1]] = order[[p - 1, j]]
    perm = np.zeros((m, m), dtype)
    perm[order, np.arange(m)] = 1
    return perm


def lu(x, pivot=True, get_infos=False, name=None):
    """(LU, pivots[, infos]) as Paddle's (LAPACK getrf): L's strict lower part and U packed in
    one matrix, int32 1-based row swaps, int32 infos (0, or the first zero pivot's 1-based
    place). Gradient (square x) written in ops: P L^-T (tril(L^T gL, -1) + triu(gU U^T))
    U^-T."""
    x = _float_matrices(x, "lu")
    if not pivot:
        raise OpArgumentError("lu: lu without pivoting is not implemented on the CPU (as "
                              "Paddle's), but got pivot=False")
    a = np.asarray(x._data)
    batch = a.shape[:-2]
    m = a.shape[-2]
    facs, pivs, infos, perms = [], [], [], []
    for i in np.ndindex(*batch):
        f, piv, info = _getrf(a[i])
        facs.append(f)
        pivs.append(piv)
        infos.append(info)
        perms.append(_permutation(piv, m, a.dtype))
    packed = np.stack(facs).reshape(a.shape)
    perm = np.stack(perms).reshape(batch + (m, m))
    out = record("lu", packed, (x,), _LU, (OUTPUT, perm))
    pivots = _wrap(np.stack(pivs).reshape(batch + (min(a.shape[-2:]),)))
    if not get_infos:
        return out, pivots
    return out, pivots, _wrap(np.asarray(infos, np.int32).reshape(batch))


def _lu_grad(g, packed, perm):
    m, n = maths.shape(packed)[-2:]
    if m != n:
        raise UnsupportedError(f"lu: the gradient is provided for square matrices only; got: "
                               f"{m} x {n}")
    eye = np.eye(n, dtype=np.dtype(packed.dtype.name))
    strict = np.tril(np.ones((n, n), eye.dtype), -1)
    low = packed * strict + eye
    up = packed * (1 - strict)
    inner = maths.matmul(low, g * strict, transpose_a=True) * strict + \
        maths.matmul(g * (1 - strict), up, transpose_b=True) * (1 - strict)
    inv_low = _inverse(low, "lu (its gradient)")
    inv_up = _inverse(up, "lu (its gradient: U must be invertible)")
    return maths.matmul(perm, maths.matmul(maths.matmul(inv_low, inner, transpose_a=True),
                                           inv_up, transpose_b=True))


_LU = (_lu_grad,)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """(P, L, U) from lu's packed factors x and pivots y; L and U are cut from x with ops (so
    they carry its gradient), P is constant."""
    from .triangular import tril, triu
    x = _float_matrices(x, "lu_unpack")
    y = tensor_arg(y, "lu_unpack", "y")
    m, n = x._data.shape[-2:]
    k = min(m, n)
    batch = x._data.shape[:-2]
    dt = x._data.dtype
    empty = _wrap(np.zeros(0, default_float()))  # Paddle's placeholder: the default float
    p = empty
    if unpack_pivots:
        pivs = np.asarray(y._data).reshape((-1, k))
        p = _wrap(np.stack([_permutation(pv, m, dt) for pv in pivs]).reshape(batch + (m, m)))
    if not unpack_ludata:
        return p, empty, empty
    low = tril(x[..., :, :k], -1) + _wrap(np.eye(m, k, dtype=dt))
    up = triu(x[..., :k, :])
    return p, low, up


def svdvals(x, name=None):
    """The singular values, descending (svd's S)."""
    return svd(x)[1]


def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """The pseudo-inverse, composed as Paddle's: from svd (eigh when hermitian), singular values
    at or below rcond times the largest dropped."""
    from .logic import where
    from .reduction import max as _max
    from .unary import abs as _abs
    x = _float_matrices(x, "pinv")
    rc = _value_array(rcond, x._data.dtype)
    if hermitian:
        sv, u = eigh(x)
        size = _abs(sv)
        vecs_left, vecs_right = u, u
    else:
        u, sv, vh = svd(x)
        size = sv
        vecs_left, vecs_right = matrix_transposed(vh), u
    if sv._data.shape[-1] == 0:
        return matrix_transposed(x)
    cutoff = _max(size, axis=-1, keepdim=True) * rc
    kept = where(size > cutoff, 1 / sv, _wrap(np.zeros((), x._data.dtype)))
    return matmul(vecs_left * reshape(kept, list(kept.shape[:-1]) + [1, kept.shape[-1]]),
                  vecs_right, transpose_y=True)


def _value_array(v, dtype):
    return _wrap(np.asarray(v._data if isinstance(v, Tensor) else v, dtype=dtype))


def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """The number of singular values (|eigenvalues| when hermitian) above the tolerance:
    tol if given, else max(atol, rtol * the largest) with rtol defaulting to eps * max(m, n)
    (0 when atol alone is given), as Paddle's; int64, no gradient."""
    x = _float_matrices(x, "matrix_rank")
    a = np.asarray(x._data)
    sv = np.abs(np.linalg.eigvalsh(a)) if hermitian else np.linalg.svd(a, compute_uv=False)
    top = sv.max(axis=-1, initial=0.0)
    if tol is not None:
        cut = np.asarray(tol._data if isinstance(tol, Tensor) else tol)
    else:
        eps = np.finfo(a.dtype).eps * max(a.shape[-2:])
        r = (rtol._data if isinstance(rtol, Tensor) else rtol) if rtol is not None else (
            eps if atol is None else 0.0)
        at = (atol._data if isinstance(atol, Tensor) else atol) if atol is not None else 0.0
        cut = np.maximum(at, np.asarray(r) * top)
    return _wrap(np.asarray(np.sum(sv > np.expand_dims(cut, -1), axis=-1), dtype=np.int64))


def cond(x, p=None, name=None):
    """The condition number: with p None, 2 or -2 the ratio of the largest and smallest
    singular values (smallest over largest for -2); with 'fro', 'nuc', inf, -inf, 1, -1
    norm(x, p) * norm(inv(x), p) (square x)."""
    from .linalg import matrix_norm
    from .reduction import max as _max, min as _min, sum as _sum
    x = _float_matrices(x, "cond")
    if p in (None, 2, -2):
        sv = svdvals(x)
        big, small = _max(sv, axis=-1), _min(sv, axis=-1)
        return small / big if p == -2 else big / small
    x = _float_matrix(x, "cond")
    if p == "nuc":
        return _sum(svdvals(x), axis=-1) * _sum(svdvals(inv(x)), axis=-1)
    if p not in ("fro", np.inf, -np.inf, 1, -1):
        raise OpArgumentError(f"cond: p must be None, 2, -2, 'fro', 'nuc', inf, -inf, 1 or -1; "
                              f"got: {p!r}")
    return matrix_norm(x, p) * matrix_norm(inv(x), p)


def _tensor(x, op, arg):
    if not isinstance(x, Tensor):
        raise OpArgumentError(f"{op}: {arg} must be a Tensor; got: {type(x).__name__}")
    return x


def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """The covariance matrix of the variables in x's rows (columns with rowvar=False), with
    integer frequency weights and float observation weights, as NumPy's cov; ddof=True
    divides by N - 1 (the weighted analogue with weights)."""
    from .reduction import sum as _sum
    x = _tensor(x, "cov", "x")
    if x.ndim > 2:
        raise ShapeError(f"cov: expected: a 1-D or 2-D tensor; got: {x.ndim} dimensions")
    xs = reshape(x, [1, -1]) if x.ndim < 2 else x
    if not rowvar and x.ndim == 2:
        xs = matrix_transposed(xs)
    n = xs._data.shape[1]
    w = None
    for weights, arg in ((fweights, "fweights"), (aweights, "aweights")):
        if weights is not None:
            weights = _tensor(weights, "cov", arg)
            if weights.ndim > 1 or weights._data.shape[0] != n:
                raise ShapeError(f"cov: {arg} must be 1-D with one weight per observation "
                                 f"({n}); got: shape {weights.shape}")
            if np.any(weights._data < 0):
                raise OpArgumentError(f"cov: {arg} must not be negative")
            weights = weights.astype(xs._data.dtype)
            w = weights if w is None else w * weights
    if w is None:
        avg = _sum(xs, axis=1, keepdim=True) / n
        fact = n - int(ddof)
    else:
        w_sum = _sum(w)
        avg = _sum(xs * w, axis=1, keepdim=True) / w_sum
        if not ddof:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - 1
        else:
            fact = w_sum - _sum(w * aweights.astype(xs._data.dtype)) / w_sum
    centred = xs - avg
    weighted = centred if w is None else centred * w
    c = matmul(centred, weighted, transpose_y=True) / fact
    return reshape(c, []) if c._data.size == 1 else c


def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the variables in x's rows (columns with
    rowvar=False): cov divided by the standard deviations, clipped to [-1, 1]."""
    from .unary import clip, sqrt
    from .diagonal import diagonal
    c = cov(x, rowvar)
    if c.ndim == 0:
        return c / c
    d = sqrt(diagonal(c))
    c = c / reshape(d, [-1, 1]) / reshape(d, [1, -1])
    return clip(c, -1.0, 1.0)


def _from_factor(y, upper):
    return matmul(y, y, transpose_x=True) if upper else matmul(y, y, transpose_y=True)


def cholesky_solve(x, y, upper=False, name=None):
    """The solution z of A z = x for A = y y^T (y's lower triangle) or y^T y (its upper one);
    as Paddle's triangular solves, the other triangle of y is not read (no gradient there;
    Paddle's gradient to a y whose other triangle is not zero differs: it is not the derivative
    of its values, opsdk's is)."""
    from .triangular import tril, triu
    y = _float_matrix(y, "cholesky_solve")
    y = triu(y) if upper else tril(y)
    return solve(_from_factor(y, upper), x)


def cholesky_inverse(x, upper=False, name=None):
    """inv(A) for A = x x^T (x lower triangular) or x^T x (upper)."""
    x = _float_matrix(x, "cholesky_inverse")
    return inv(_from_factor(x, upper))


# matrix_norm's 'nuc' and +-2 (in linalg, which this module imports) read the singular values
_linalg_module.provided["svdvals"] = svdvals
