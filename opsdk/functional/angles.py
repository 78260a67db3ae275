"""The two-argument arctangent, atan2, with its gradient to any order.

Paddle's argument order: atan2(x, y) = arctan(x / y) in the quadrant of the point (y, x).
"""
import numpy as np

from ..dtypes import default_float
from ..tensor import Tensor, _wrap
from .arithmetic import _binary_args, _compute, _req, sides
from .record import as_array, record, unbroadcast, unbroadcast_array


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
        from .unary import cast
        x, y = cast(x, "float64"), cast(y, "float64")
    xd, xt, yd, yt = _binary_args(x, y, "atan2", true_div=True)
    if xt is None and yt is None:
        return _wrap(as_array(np.arctan2(xd, yd)).astype(default_float()))
    out = _compute(np.arctan2, xd, yd, "atan2")
    if not _req(xt, yt):
        return _wrap(out)
    rx, ry, xs, ys = sides(xd, xt, yd, yt)

    def fast(g):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = g / (xd * xd + yd * yd)
        return (unbroadcast_array(r * yd, xs) if rx else None,
                unbroadcast_array(-r * xd, ys) if ry else None)

    def vjp(g):
        xv = xt if xt is not None else xd
        yv = yt if yt is not None else yd
        r = g / (xv * xv + yv * yv)
        return (unbroadcast(r * yv, xs) if rx else None,
                unbroadcast(-(r * xv), ys) if ry else None)
    return record("atan2", out, (xt, yt), vjp, fast,
                  saved=tuple(t for t in (xt, yt) if t is not None))
