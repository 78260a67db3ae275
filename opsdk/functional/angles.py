"""The two-argument arctangent, atan2, with its gradient to any order.

Paddle's argument order: atan2(x, y) = arctan(x / y) in the quadrant of the point (y, x).
"""
import numpy as np

from ..autograd.record import record
from ..dtypes import default_float
from ..tensor import Tensor, _wrap, as_array
from .casting import cast
from .operands import binary_args, compute


def atan2(x, y, name=None):
    """Element-wise arctan(x / y) in the quadrant of the point (y, x), with broadcasting.

    Two integer tensors give float64, as in Paddle. Gradients: y / (x^2 + y^2) and -x / (x^2 + y^2).

    Example:
        >>> import opsdk
        >>> round(float(opsdk.atan2(opsdk.to_tensor(1.0), opsdk.to_tensor(-1.0))), 4)
        2.3562
    """
    if isinstance(x, Tensor) and isinstance(y, Tensor) and x._data.dtype.kind in "biu" \
            and y._data.dtype.kind in "biu":
        x, y = cast(x, "float64"), cast(y, "float64")
    xd, xt, yd, yt = binary_args(x, y, "atan2", true_div=True)
    if xt is None and yt is None:
        return _wrap(as_array(np.arctan2(xd, yd)).astype(default_float()))
    out = compute(np.arctan2, xd, yd, "atan2")
    args = (xt if xt is not None else xd, yt if yt is not None else yd)
    return record("atan2", out, (xt, yt), _ATAN2, args, broadcast=True)


def _over_radius2(g, x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return g / (x * x + y * y)


_ATAN2 = (lambda g, x, y: _over_radius2(g, x, y) * y, lambda g, x, y: -_over_radius2(g, x, y) * x)
