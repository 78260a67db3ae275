"""Tensor methods of the scan, sorting, selection, diagonal, product and scatter ops.

tensor_methods attaches these with the rest; only names Paddle's Tensor has are listed.
"""
from . import (along_axis as A, cumulative as C, diagonal as D, nan_reduction as N,
               order_stats as O, products as P, rearrange as R, scatter as SC, sorting as S,
               triangular as T)

METHODS = {
    "prod": P.prod, "kron": P.kron, "cross": P.cross,
    "cumsum": C.cumsum, "cumprod": C.cumprod, "logcumsumexp": C.logcumsumexp,
    "cumsum_": C.cumsum_, "cumprod_": C.cumprod_,
    "nansum": N.nansum, "nanmean": N.nanmean, "count_nonzero": N.count_nonzero,
    "sort": S.sort, "argsort": S.argsort, "topk": S.topk,
    "kthvalue": O.kthvalue, "mode": O.mode, "median": O.median,
    "roll": R.roll, "rot90": R.rot90, "repeat_interleave": R.repeat_interleave,
    "diagonal": D.diagonal, "diag": D.diag, "trace": D.trace,
    "tril": T.tril, "triu": T.triu, "tril_": T.tril_, "triu_": T.triu_,
    "scatter": SC.scatter, "scatter_": SC.scatter_, "put_along_axis": A.put_along_axis,
    "put_along_axis_": A.put_along_axis_, "take_along_axis": A.take_along_axis,
    "index_add": SC.index_add, "index_add_": SC.index_add_,
    "masked_fill": SC.masked_fill, "masked_fill_": SC.masked_fill_,
}
