"""Argument checks the pack's row-wise ops share."""
import opsdk
from opsdk.errors import OpArgumentError


def check_rows(qualname, x):
    """OpArgumentError unless x is a float32/float64 tensor with a non-empty last axis."""
    if x.ndim < 1 or x.shape[-1] < 1 or x.dtype not in (opsdk.float32, opsdk.float64):
        raise OpArgumentError(f"{qualname}: argument 'x' must be a float32 or float64 tensor with a "
                              f"non-empty last axis; got: {x.dtype} {x.shape}")
