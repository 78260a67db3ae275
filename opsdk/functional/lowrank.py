"""Householder products and the randomized low-rank SVD of Paddle 3.3.1's paddle.linalg:
householder_product, ormqr, svd_lowrank, pca_lowrank. Each composes as Paddle's does, of
opsdk's ops and of decompositions.qr / svd, so the gradients (to any order) come from those.
"""
import numpy as np

from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import _wrap, tensor_arg
from .decompositions import qr, svd
from .linalg import matmul, matrix_transposed
from .shape import reshape

_FLOATS = ("float32", "float64")


def _float_matrices(x, op):
    x = tensor_arg(x, op)
    if x.ndim < 2 or x._data.dtype.name not in _FLOATS:
        raise DTypeError(f"{op}: expected: a float32 or float64 matrix (or a batch of them); "
                         f"got: {x._data.dtype} of shape {list(x.shape)}")
    return x


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
