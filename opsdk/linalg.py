"""``paddle.linalg``: the matrix functions opsdk provides, with gradients to any order.

Provided: norm, vector_norm, matrix_norm ('fro', 1, -1, inf, -inf), inv, det, solve,
matrix_power, multi_dot, matrix_transpose, and matmul, cross, diagonal (the core ops under
their linalg names). Decompositions (svd, qr, eig, eigh, cholesky, lu) and what needs them
(the 2-norm and nuclear norm of a matrix, pinv, lstsq, matrix_rank, cond) are not provided:
each raises UnsupportedError naming the function (docs/paddle.md).
"""
from .errors import OpArgumentError, UnsupportedError
from .functional.diagonal import diagonal
from .functional.linalg import det, inv, matmul, matrix_transposed, solve, square_matrix_arg
from .functional.products import cross
from .tensor import tensor_arg

__all__ = ["norm", "vector_norm", "matrix_norm", "inv", "det", "solve", "matrix_power",
           "multi_dot", "matrix_transpose", "matmul", "cross", "diagonal"]

_UNSUPPORTED = ("svd", "svdvals", "svd_lowrank", "pca_lowrank", "qr", "eig", "eigh", "eigvals",
                "eigvalsh", "cholesky", "cholesky_solve", "cholesky_inverse", "lu", "lu_solve",
                "lu_unpack", "pinv", "lstsq", "matrix_rank", "cond", "slogdet", "matrix_exp",
                "triangular_solve", "householder_product", "ormqr", "cov", "corrcoef", "vecdot",
                "fp8_fp8_half_gemm_fused")


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None):
    """The p-norm of x's elements over axis (all of them when None)."""
    from .functional.reduction import norm as _norm
    return _norm(x, p=p, axis=axis, keepdim=keepdim)


def matrix_norm(x, p="fro", axis=(-2, -1), keepdim=False, name=None):
    """A matrix norm over the two axes: 'fro', or 1, -1, inf, -inf (max/min absolute column or
    row sum). The 2-norm and the nuclear norm need an SVD, which opsdk does not provide."""
    from .functional.reduction import amax, amin, sum as _sum
    from .functional.unary import abs as _abs
    axis = list(axis)
    if len(axis) != 2:
        raise OpArgumentError(f"matrix_norm: argument 'axis' must name two axes; got: {axis}")
    if p == "fro":
        return vector_norm(x, 2.0, axis, keepdim)
    if p in ("nuc", 2, -2):
        raise UnsupportedError(f"matrix_norm: p={p!r} needs a singular value decomposition, "
                               f"which opsdk does not provide; supported: 'fro', 1, -1, inf, -inf")
    if p not in (1, -1, float("inf"), float("-inf")):
        raise OpArgumentError(f"matrix_norm: argument 'p' must be 'fro', 1, -1, inf or -inf; got: {p!r}")
    rows, cols = axis
    summed, over = (rows, cols) if abs(p) == 1 else (cols, rows)
    sums = _sum(_abs(x), axis=summed, keepdim=True)
    pick = amax if p > 0 else amin
    out = pick(sums, axis=over, keepdim=True)
    if keepdim:
        return out
    from .functional.shape import squeeze
    return squeeze(out, axis)


def norm(x, p=None, axis=None, keepdim=False, name=None):
    """Paddle's linalg.norm: the 2-norm of all elements by default; a vector norm over one axis,
    a matrix norm over two (there p must be given: Paddle's default is the spectral norm)."""
    if axis is not None and isinstance(axis, (list, tuple)) and len(axis) == 2:
        if p is None:  # Paddle's default over two axes is the spectral norm, not Frobenius
            raise UnsupportedError("norm: over two axes p=None is the spectral norm (as in Paddle), "
                                   "which needs a singular value decomposition opsdk does not "
                                   "provide; pass p='fro' for the Frobenius norm")
        return matrix_norm(x, p, axis, keepdim)
    return vector_norm(x, 2.0 if p is None or p == "fro" else p, axis, keepdim)


def matrix_transpose(x, name=None):
    """x with its last two axes swapped."""
    x = tensor_arg(x, "matrix_transpose", "x")
    if x.ndim < 2:
        raise OpArgumentError(f"matrix_transpose: argument 'x' needs at least 2 dimensions; "
                              f"got: shape {list(x.shape)}")
    return matrix_transposed(x)


def matrix_power(x, n, name=None):
    """x multiplied by itself n times (the identity for 0, powers of inv(x) for n < 0)."""
    from .functional.creation import eye
    from .functional.shape import broadcast_to
    if isinstance(n, bool) or not isinstance(n, int):
        raise OpArgumentError(f"matrix_power: argument 'n' must be an int; got: {type(n).__name__}")
    x = square_matrix_arg(x, "matrix_power")
    if n == 0:  # connected to x, as in Paddle: a zero gradient, not none
        return x * 0 + broadcast_to(eye(x.shape[-1], dtype=x.dtype), x.shape)
    base = inv(x) if n < 0 else x
    result, power, n = None, base, abs(n)
    while n:  # square and multiply: log2(n) products
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result


def multi_dot(x, name=None):
    """The product of a list of matrices (the first may be a vector, as may the last)."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise OpArgumentError(f"multi_dot: argument 'x' must be a list of at least 2 tensors; got: {x!r}")
    out = x[0]
    for t in x[1:]:
        out = matmul(out, t)
    return out


def __getattr__(name):
    if name in _UNSUPPORTED:
        raise UnsupportedError(f"opsdk.linalg.{name} is not provided (decompositions and what needs "
                               f"them are not in opsdk; see docs/paddle.md)")
    raise AttributeError(f"module 'opsdk.linalg' has no attribute {name!r}")
