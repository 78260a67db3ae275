"""``paddle.linalg`` as ``opsdk.linalg``: the matrix functions opsdk provides, with gradients to
any order.

Provided: norm, vector_norm, matrix_norm ('fro', 'nuc', 1, -1, 2, -2, inf, -inf), inv, det,
solve, matrix_power, multi_dot, matrix_transpose, vecdot, and matmul, cross, diagonal (the core
ops under their linalg names); the decompositions slogdet, cholesky, triangular_solve,
cholesky_solve, cholesky_inverse, eigh, eigvalsh, svd, svdvals, qr, lu, lu_unpack, lu_solve,
matrix_exp and what is built on them: pinv, lstsq, matrix_rank, cond, cov, corrcoef (real
dtypes; lstsq and matrix_rank record no gradient, as in Paddle); householder_product, ormqr,
svd_lowrank, pca_lowrank (functional/lowrank.py). Not provided: eig and eigvals (complex
results: opsdk's tensors are real), fp8_fp8_half_gemm_fused; each raises UnsupportedError
naming the function (docs/paddle.md).

The code lives in ``opsdk/functional/``; this namespace only re-exports it.
"""
from .errors import UnsupportedError
from .functional.diagonal import diagonal
from .functional.decompositions import (cholesky, cholesky_inverse, cholesky_solve, cond,
                                        corrcoef, cov, eigh, eigvalsh, lstsq, lu, lu_solve,
                                        lu_unpack, matrix_exp, matrix_norm, matrix_rank, norm,
                                        pinv, qr, slogdet, svd, svdvals, triangular_solve)
from .functional.linalg import (det, inv, matmul, matrix_power, matrix_transpose, multi_dot,
                                solve, vector_norm)
from .functional.lowrank import householder_product, ormqr, pca_lowrank, svd_lowrank
from .functional.more_linalg import vecdot
from .functional.products import cross

__all__ = ["norm", "vector_norm", "matrix_norm", "inv", "det", "solve", "matrix_power",
           "multi_dot", "matrix_transpose", "matmul", "cross", "diagonal", "vecdot", "slogdet",
           "cholesky", "triangular_solve", "cholesky_solve", "cholesky_inverse", "eigh",
           "eigvalsh", "svd", "svdvals", "qr", "pinv", "lstsq", "matrix_rank", "cond", "lu",
           "lu_unpack", "lu_solve", "matrix_exp", "cov", "corrcoef", "householder_product",
           "ormqr", "svd_lowrank", "pca_lowrank"]

_UNSUPPORTED = ("eig", "eigvals", "fp8_fp8_half_gemm_fused")


def __getattr__(name):
    if name in _UNSUPPORTED:
        raise UnsupportedError(f"opsdk.linalg.{name} is not provided (complex results; see "
                               f"docs/paddle.md)")
    raise AttributeError(f"module 'opsdk.linalg' has no attribute {name!r}")
