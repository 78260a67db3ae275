"""In-place variants of the added ops (masked_fill_, index_add_, scatter_, tril_, cumsum_, ...)."""
import inspect

from ..errors import LeafInplaceError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap, bump_version
from .record import _state


def _alias(x):
    """A second Tensor for x's array and graph position: the op reads x's old value through it."""
    a = _wrap(x._data)
    a._node, a._out_idx, a._req = x._node, x._out_idx, x._req
    a._version, a._base = x._version, x._base
    return a


def apply_inplace(x, opname, fn):
    """Make x hold ``fn(x)``, as the in-place op ``opname``; returns x.

    Outside the graph the result is written into x's memory (views of x see it) and x's version
    goes up. Inside it, x takes the result and its node; nodes that saved x's old value see the
    version bump and refuse to run backward, as for the other in-place ops.
    """
    if not isinstance(x, Tensor):
        raise OpArgumentError(f"{opname}: argument 'x' must be a Tensor; got: {type(x).__name__}")
    if _state.enabled and x._req and x._node is None:
        raise LeafInplaceError(
            f"{opname}: in-place update of a leaf tensor that needs a gradient (shape {x.shape});"
            f" wrap it in `with opsdk.no_grad():` or use the out-of-place "
            f"`{opname.rstrip('_')}`")
    r = fn(_alias(x))
    if r._data.shape != x._data.shape:
        raise ShapeError(f"{opname}: the result's shape {r.shape} differs from the tensor's "
                         f"{x.shape}; an in-place op cannot change a tensor's shape")
    data = r._data if r._data.dtype == x._data.dtype else r._data.astype(x._data.dtype)
    if _state.enabled and r._req:
        x._data = data
        x._node, x._out_idx, x._req = r._node, r._out_idx, r._req
        x._base = None
        x._version += 1
    else:
        x._data[...] = data
        bump_version(x)
    return x


def inplace_method(fn, name):
    """``x.name(*args)``: fn(x, *args) written into x (see apply_inplace); also a function."""
    def method(self, *args, **kwargs):
        return apply_inplace(self, name, lambda a: fn(a, *args, **kwargs))
    method.__name__ = name
    method.__doc__ = f"In-place {name[:-1]}: writes the result into this tensor and returns it."
    method.__signature__ = inspect.signature(fn)
    return method
