"""Row-sparse gradients (``Embedding(sparse=True)``): the type lives in the autograd engine.

Kept so code importing ``opsdk.nn.sparse_grad`` keeps working; see ``opsdk.autograd.sparse_rows``.
"""
from ..autograd.sparse_rows import (SparseGradTensor, SparseRowGrad, _sparse_grad_tensor,
                                    accumulate_rows, coalesce_rows)

__all__ = ["SparseRowGrad", "SparseGradTensor", "accumulate_rows", "coalesce_rows",
           "_sparse_grad_tensor"]
