"""What a tensor is, asked as Paddle asks it: ndimension, is_floating_point, is_integer,
is_empty, is_same_shape, element_size, itemsize; and type_as (a cast to another's dtype)."""
import numpy as np

from ..tensor import _wrap
from .casting import cast
from .op_args import tensor_arg as _arg


def ndimension(x):
    return _arg(x, "ndimension").ndim


def is_floating_point(x):
    """True for a float16/32/64 tensor."""
    return _arg(x, "is_floating_point")._data.dtype.kind == "f"


def is_integer(x):
    """True for a tensor of a (signed or unsigned) integer dtype; bool is not one."""
    return _arg(x, "is_integer")._data.dtype.kind in "iu"


def is_empty(x, name=None):
    """A 0-d bool tensor: whether x has no elements."""
    return _wrap(np.array(_arg(x, "is_empty")._data.size == 0))


def is_same_shape(x, y):
    return _arg(x, "is_same_shape").shape == _arg(y, "is_same_shape", "y").shape


def element_size(x):
    """Bytes per element."""
    return int(_arg(x, "element_size")._data.dtype.itemsize)


def type_as(x, other):
    """x cast to other's dtype."""
    return cast(_arg(x, "type_as"), _arg(other, "type_as", "other")._data.dtype)
