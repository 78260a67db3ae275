"""take_along_axis and put_along_axis: reading and writing at indices along one axis."""
import numpy as np

from ..device import CPU, array_module, move_to, place_of
from ..errors import OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap
from .flat_index import positions
from .inplace import inplace_method
from .op_args import (aliases, axis_arg, check_same_dtype, index_array, tensor_arg,
                      wrap_index)
from .put_reduce import put_reduce
from .shape import broadcast_to
from .sorting import take_along
from .transfer import moved


def _along_axis_args(op, arr, indices, axis):
    arr = tensor_arg(arr, op, "arr")
    ind = index_array(indices, op, "indices")
    nd = arr._data.ndim
    if nd == 0:
        raise ShapeError(f"{op}: expected: 'arr' with at least 1 dim; got: a 0-d tensor")
    if ind.ndim != nd:
        raise ShapeError(f"{op}: 'indices' must have {nd} dims like 'arr'; got: {ind.ndim} "
                         f"(shape {list(ind.shape)})")
    return arr, ind, axis_arg(axis, nd, op)


def _broadcast_array(a, shape, op, arg):
    try:
        return np.broadcast_to(a, shape)
    except ValueError:
        raise ShapeError(f"{op}: '{arg}' of shape {list(np.shape(a))} does not broadcast to "
                         f"{list(shape)}") from None


def _within(op, ind, shape, axis, what):
    for d, (i, s) in enumerate(zip(ind.shape, shape)):
        if d != axis and i > s:
            raise ShapeError(f"{op}: 'indices' is larger than {what} in dim {d}; expected: at "
                             f"most {s}; got: {i} (indices shape {list(ind.shape)})")


@aliases(input="arr", dim="axis")
def take_along_axis(arr, indices, axis, broadcast=True):
    """Values of arr at indices along axis; indices has arr's ndim.

    With broadcast=True, indices and arr broadcast against each other on the other axes;
    with broadcast=False, indices may be smaller there and reads the leading part of arr.
    Repeated indices add their gradients.

    Example:
        >>> x = opsdk.to_tensor([[1.0, 2.0, 3.0]])
        >>> opsdk.take_along_axis(x, opsdk.to_tensor([[2, 0]]), 1).numpy()
        array([[3., 1.]], dtype=float32)
    """
    arr, ind, axis = _along_axis_args("take_along_axis", arr, indices, axis)
    if broadcast:
        a_s = arr._data.shape
        shape = [0 if 0 in (i, a) else max(i, a) for i, a in zip(ind.shape, a_s)]
        shape[axis] = ind.shape[axis]
        ind = _broadcast_array(ind, shape, "take_along_axis", "indices")
        shape[axis] = a_s[axis]
        if list(a_s) != shape:
            arr = broadcast_to(arr, shape)
    else:
        _within("take_along_axis", ind, arr._data.shape, axis, "'arr'")
    ind = wrap_index(ind, arr._data.shape[axis], "take_along_axis", "indices", axis)
    return take_along("take_along_axis", arr, ind, axis, unique=False)


_REDUCES = {"assign": "assign", "add": "add", "mul": "mul", "multiply": "mul", "mean": "mean",
            "amin": "amin", "amax": "amax"}


def _values_arg(values, arr, op, arg="values"):
    """values as a Tensor of arr's dtype: a Tensor must have it, numbers and lists are cast."""
    if isinstance(values, Tensor):
        check_same_dtype(op, arr, values, "arr" if arg == "values" else "x", arg)
        return values
    try:
        # on arr's device (a number written into a GPU tensor goes there first)
        return _wrap(array_module(arr._data).asarray(np.asarray(values).astype(arr._data.dtype)))
    except (TypeError, ValueError):
        raise OpArgumentError(f"{op}: argument '{arg}' must be a number, a list of numbers or a "
                              f"Tensor; got: {type(values).__name__} {values!r}") from None


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    """arr with values written at indices along axis (a copy).

    reduce says how values meet what is there: 'assign' (the last value at a position wins),
    'add', 'mul'/'multiply', 'mean', 'amin', 'amax'; include_self=False leaves arr's own value
    out of the reduction. Ties of amin/amax share the gradient equally.

    Example:
        >>> x = opsdk.zeros([1, 3])
        >>> opsdk.put_along_axis(x, opsdk.to_tensor([[1]]), 5.0, 1).numpy()
        array([[0., 5., 0.]], dtype=float32)
    """
    op = "put_along_axis"
    arr, ind, axis = _along_axis_args(op, arr, indices, axis)
    if reduce not in _REDUCES:
        raise OpArgumentError(f"{op}: argument 'reduce' must be one of {sorted(_REDUCES)}; "
                              f"got: {reduce!r}")
    v = _values_arg(values, arr, op)
    a_s = arr._data.shape
    if broadcast:
        shape = list(a_s)
        shape[axis] = ind.shape[axis]
        if any(a < i for a, i in zip(a_s, ind.shape)):
            shape = list(ind.shape)  # as Paddle: no broadcasting then, indices must fit arr
            _within(op, ind, a_s, axis, "'arr'")
        ind = _broadcast_array(ind, shape, op, "indices")
        if list(v._data.shape) != shape:
            _broadcast_array(v._data, shape, op, "values")
            v = broadcast_to(v, shape)
    else:
        _within(op, ind, a_s, axis, "'arr'")
        if v._data.ndim == 0:
            v = broadcast_to(v, list(ind.shape))
        if v._data.ndim != ind.ndim or any(i > s for i, s in zip(ind.shape, v._data.shape)):
            raise ShapeError(f"{op}: 'values' must cover 'indices'; expected: at least "
                             f"{list(ind.shape)} in every dim; got: {v.shape}")
        if list(v._data.shape) != list(ind.shape):
            v = v[tuple(slice(0, i) for i in ind.shape)]
    ind = wrap_index(ind, a_s[axis], op, "indices", axis)
    region = tuple(slice(0, s) if d != axis else slice(None) for d, s in enumerate(ind.shape))
    p = np.take_along_axis(positions(a_s, like=ind)[region], ind, axis)
    place = place_of(arr._data)
    if place != CPU:  # the reductions' grouping is NumPy's: run on host copies, come back
        out = put_reduce(op, moved(arr, CPU), move_to(p, CPU), moved(v, CPU), _REDUCES[reduce],
                         include_self)
        return moved(out, place)
    return put_reduce(op, arr, p, v, _REDUCES[reduce], include_self)


put_along_axis_ = inplace_method(put_along_axis, "put_along_axis_")
