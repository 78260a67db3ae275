"""Matrix products under auto_cast: float16 inputs, float32 accumulation, float16 result.

That is what GPU tensor cores do; on the CPU the float32 product of float16-rounded inputs
gives the same numbers. Gradients come back through the same roundings, so a scaled loss
that overflows float16 shows up as inf in the gradients (what GradScaler watches for).
"""
import numpy as np

from ..functional import cast_policy
from ..functional.linalg import plain_matmul as matmul
from ..tensor import Tensor, _wrap
from .cast import quiet_cast
from .state import casts_to_low, state

_F32 = np.dtype("float32")


def _rounded(t):
    """t rounded to the low-precision dtype, held in float32 for the product."""
    return quiet_cast(quiet_cast(t, state.dtype), _F32)


def autocast_matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """``opsdk.matmul`` that runs in float16 inside ``opsdk.amp.auto_cast()``.

    Args:
        x, y, transpose_x, transpose_y: as for ``opsdk.matmul``.

    Returns:
        A float16 Tensor under auto_cast, else exactly ``opsdk.matmul(x, y, ...)``.

    Example:
        >>> with opsdk.amp.auto_cast():
        ...     opsdk.amp.autocast_matmul(opsdk.ones([2, 2]), opsdk.ones([2, 2])).dtype
        dtype('float16')
    """
    if not casts_to_low("matmul"):
        return matmul(x, y, transpose_x, transpose_y)
    x = x if isinstance(x, Tensor) else _wrap(np.asarray(x))
    y = y if isinstance(y, Tensor) else _wrap(np.asarray(y))
    return quiet_cast(matmul(_rounded(x), _rounded(y), transpose_x, transpose_y), state.dtype)


def autocast_linear(x, weight, bias=None):
    """x @ weight + bias in float16 (float32 accumulation); used by nn.functional.linear."""
    out = matmul(_rounded(x), _rounded(weight))
    if bias is not None:
        out = out + _rounded(bias)
    return quiet_cast(out, state.dtype)


# auto_cast becomes the core's casting policy (the core never imports opsdk.amp); it can only
# be switched on through this package (amp.auto_cast), which loads this module first
cast_policy.install(state, autocast_matmul)
