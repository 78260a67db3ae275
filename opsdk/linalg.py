"""``paddle.linalg`` as ``opsdk.linalg``: the matrix functions opsdk provides, with gradients to
any order.

Provided: norm, vector_norm, matrix_norm ('fro', 1, -1, inf, -inf), inv, det, solve,
matrix_power, multi_dot, matrix_transpose, vecdot, slogdet, cholesky, eigh, eigvalsh, svd,
svdvals, pinv, matrix_rank, cond, qr, lstsq, householder_product, ormqr, svd_lowrank,
pca_lowrank, lu, lu_unpack, cov, corrcoef, cholesky_solve, cholesky_inverse (the last two from
the Cholesky factor, as given), and matmul, cross, diagonal (the core ops under their linalg
names). eig and eigvals (complex results), lu_solve, matrix_exp and triangular_solve are not
provided: each raises UnsupportedError naming the function (docs/paddle.md).

The code lives in ``opsdk/functional/linalg.py`` and ``matrix_stats.py``; this namespace only
re-exports it.
"""
from .errors import UnsupportedError
from .functional.diagonal import diagonal
from .functional.linalg import (det, inv, matmul, matrix_norm, matrix_power, matrix_transpose,
                                multi_dot, norm, solve, vector_norm)
from .functional.matrix_stats import (cholesky, cholesky_inverse, cholesky_solve, cond,
                                      corrcoef, cov, eigh, eigvalsh, householder_product, lstsq,
                                      lu, lu_unpack, matrix_rank, ormqr, pca_lowrank, pinv, qr,
                                      slogdet, svd, svd_lowrank, svdvals)
from .functional.more_linalg import vecdot
from .functional.products import cross

__all__ = ["norm", "vector_norm", "matrix_norm", "inv", "det", "solve", "matrix_power",
           "multi_dot", "matrix_transpose", "matmul", "cross", "diagonal", "vecdot", "slogdet",
           "cov", "corrcoef", "cholesky", "cholesky_solve", "cholesky_inverse", "eigh",
           "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank", "cond", "qr", "lstsq",
           "householder_product", "ormqr", "svd_lowrank", "pca_lowrank", "lu", "lu_unpack"]

_UNSUPPORTED = ("eig", "eigvals", "lu_solve", "matrix_exp", "triangular_solve",
                "fp8_fp8_half_gemm_fused")


def __getattr__(name):
    if name in _UNSUPPORTED:
        raise UnsupportedError(f"opsdk.linalg.{name} is not provided (eig and eigvals have "
                               f"complex results; see docs/paddle.md)")
    raise AttributeError(f"module 'opsdk.linalg' has no attribute {name!r}")
