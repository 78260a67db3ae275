"""Selection and comparisons: where (differentiable), comparisons and logic (never)."""
import numpy as np

from ..autograd.record import record
from ..dtypes import promote
from ..errors import DTypeError, NoneArgumentError, PreconditionShapeError, ShapeError
from ..tensor import _SCALARS, Tensor, _wrap, as_array, tensor_arg
from . import maths
from .indexing import nonzero
from .op_args import not_bool
from .operands import operand, promoted

__all__ = ["where", "equal", "not_equal", "less_than", "less_equal", "greater_than",
           "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not",
           "isnan", "isinf", "isfinite", "allclose"]


def where(condition, x=None, y=None, name=None):
    """Pick x where condition is true, else y (broadcasting); gradients go to the picked side."""
    cond = condition._data if isinstance(condition, Tensor) else as_array(condition)  # a CuPy array stays one
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if cond.dtype != np.bool_:
        if isinstance(condition, Tensor):
            raise DTypeError(f"where: argument 'condition' must be a bool tensor (as in Paddle); "
                             f"got: {cond.dtype}")
        cond = cond.astype(bool)
    xd, xt = operand(x, "where", "x")
    yd, yt = operand(y, "where", "y")
    xd, xt, yd, yt = promoted(xd, xt, yd, yt, "where", scalar_0d=False)
    try:
        out = as_array(np.where(cond, xd, yd))
    except ValueError:
        raise ShapeError(f"where: shapes do not broadcast; expected: condition, x and y "
                         f"broadcastable to one shape; got: condition {list(cond.shape)}, "
                         f"x {list(np.shape(xd))}, y {list(np.shape(yd))}") from None
    return record("where", out, (xt, yt), _WHERE, (cond,), broadcast=True)


# the gradient goes to the side picked (a select, so NaN and inf on the other side stay there)
_WHERE = (lambda g, cond: maths.where(cond, g, 0), lambda g, cond: maths.where(cond, 0, g))


def _compare(name, fn):
    def op(x, y, name=None):
        for arg, v in (("x", x), ("y", y)):
            if v is None:
                raise NoneArgumentError(f"{name_}: argument '{arg}' is required; expected: a "
                                        f"Tensor; got: None")
        xd = x._data if isinstance(x, Tensor) else (x if type(x) in _SCALARS else np.asarray(x))
        yd = y._data if isinstance(y, Tensor) else (y if type(y) in _SCALARS else np.asarray(y))
        if isinstance(x, Tensor) and isinstance(y, Tensor) and xd.dtype != yd.dtype:
            # the dtypes must combine as for arithmetic (Paddle refuses float32 == int64)
            promote(xd.dtype, yd.dtype, xd.ndim == 0, yd.ndim == 0, name_)
        try:
            return _wrap(as_array(fn(xd, yd)))
        except ValueError:
            raise ShapeError(f"{name_}: shapes of 'x' and 'y' do not broadcast; got: x "
                             f"{list(np.shape(xd))}, y {list(np.shape(yd))}") from None
    name_ = name
    op.__name__ = name
    op.__doc__ = f"Elementwise {name}; a bool tensor, no gradient."
    return op


equal = _compare("equal", np.equal)
not_equal = _compare("not_equal", np.not_equal)
less_than = _compare("less_than", np.less)
less_equal = _compare("less_equal", np.less_equal)
greater_than = _compare("greater_than", np.greater)
greater_equal = _compare("greater_equal", np.greater_equal)
logical_and = _compare("logical_and", np.logical_and)
logical_or = _compare("logical_or", np.logical_or)
logical_xor = _compare("logical_xor", np.logical_xor)


def logical_not(x, name=None):
    return _wrap(as_array(np.logical_not(tensor_arg(x, "logical_not")._data)))


def isnan(x, name=None):
    return _wrap(as_array(np.isnan(not_bool(tensor_arg(x, "isnan"), "isnan")._data)))


def isinf(x, name=None):
    return _wrap(as_array(np.isinf(not_bool(tensor_arg(x, "isinf"), "isinf")._data)))


def isfinite(x, name=None):
    return _wrap(as_array(np.isfinite(not_bool(tensor_arg(x, "isfinite"), "isfinite")._data)))


def _close_args(x, y, op):
    """x's and y's arrays; two tensors of different dtypes are refused, as in Paddle."""
    xd, yd = tensor_arg(x, op)._host(), tensor_arg(y, op, "y")._host()
    if isinstance(x, Tensor) and isinstance(y, Tensor) and xd.dtype != yd.dtype:
        raise DTypeError(f"{op}: arguments 'x' and 'y' must have the same dtype (as in Paddle); "
                         f"got: {xd.dtype} and {yd.dtype}")
    return xd, yd


def allclose(x, y, rtol=1e-5, atol=1e-8, equal_nan=False, name=None):
    xd, yd = _close_args(x, y, "allclose")
    _same_shape(xd, yd, "allclose")
    return _wrap(np.asarray(np.allclose(xd, yd, rtol, atol, equal_nan)))


def _same_shape(xd, yd, op):
    """Paddle's isclose and allclose take x and y of one shape (no broadcasting): a
    PreconditionNotMet (RuntimeError) there."""
    if xd.shape != yd.shape:
        raise PreconditionShapeError(f"{op}: arguments 'x' and 'y' must have the same shape (as "
                                     f"in Paddle); got: {list(xd.shape)} and {list(yd.shape)}")


def isclose(x, y, rtol=1e-5, atol=1e-8, equal_nan=False, name=None):
    """Elementwise abs(x - y) <= atol + rtol * abs(y) (broadcast), a bool tensor.

    Example:
        >>> opsdk.isclose(opsdk.to_tensor([1.0, 2.0]), opsdk.to_tensor([1.0, 2.1])).numpy().tolist()
        [True, False]
    """
    xd, yd = _close_args(x, y, "isclose")
    _same_shape(xd, yd, "isclose")
    return _wrap(as_array(np.isclose(xd, yd, rtol, atol, equal_nan)))


def equal_all(x, y, name=None):
    """True (a 0-d bool tensor) when x and y have the same shape and the same values.

    Example:
        >>> bool(opsdk.equal_all(opsdk.to_tensor([1, 2]), opsdk.to_tensor([1, 2])))
        True
    """
    xd, yd = tensor_arg(x, "equal_all")._host(), tensor_arg(y, "equal_all")._host()
    if xd.dtype != yd.dtype:
        raise DTypeError(f"equal_all: arguments 'x' and 'y' must have the same dtype (as in "
                         f"Paddle); got: {xd.dtype} and {yd.dtype}")
    return _wrap(np.asarray(xd.shape == yd.shape and bool(np.array_equal(xd, yd))))


maths.provide(where=where)
