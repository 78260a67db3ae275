"""The cast auto_cast inserts: a graph op that lets float16 overflow to inf without a warning."""
import numpy as np

from ..autograd.record import record
from ..tensor import Tensor


def quiet_cast(x, dtype):
    """x cast to dtype (a graph op for a Tensor, a plain cast for an array); overflow to inf is
    expected here (what GradScaler watches for), so it does not warn."""
    dtype = np.dtype(dtype)
    if not isinstance(x, Tensor):
        with np.errstate(over="ignore"):
            return x.astype(dtype)
    src = x.array.dtype
    if src == dtype:
        return x
    with np.errstate(over="ignore"):
        out = x.array.astype(dtype)
    return record("amp_cast", out, (x,), _QUIET_CAST, (src,))


# the gradient cast back, as quietly
_QUIET_CAST = (lambda g, src: quiet_cast(g, src),)
