"""Attach operators and math methods to Tensor (kept apart so tensor.py stays readable)."""
import numpy as np

from .autograd.grad_mode import _state
from .errors import LeafInplaceError, ShapeError
from .functional import elementwise as E, indexing, linalg, reduction as R, shape as S
from .functional.record import record
from .tensor import Tensor, _wrap, bump_version


def _rev(fn):
    return lambda self, other: fn(other, self)


def clone(x, name=None):
    """A differentiable copy of x (new memory)."""
    out = x._data.copy()
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record("clone", out, (x,), lambda g: (g,), lambda g: (g,))


def _out_of_place_hint(opname):
    if opname.endswith("="):
        return f"`x = x {opname[:-1]} y`"
    return f"`x = x.{opname[:-1]}(y)`"


def _inplace(fn, np_fn, opname):
    """Build ``x op= y``: true in-place on the array outside the graph, a rebased node inside."""
    def method(self, other):
        other_t = isinstance(other, Tensor)
        if _state.enabled and (self._req or (other_t and other._req)):
            if self._node is None and self._req:
                raise LeafInplaceError(
                    f"{opname}: in-place update of a leaf tensor that needs a gradient "
                    f"(shape {self.shape}); wrap the update in `with opsdk.no_grad():` (as for "
                    f"`w -= lr * w.grad`), or compute out of place ({_out_of_place_hint(opname)})")
            # the new node sees the old value through an alias; nodes that saved self see the
            # version bump and refuse to run
            alias = _wrap(self._data)
            alias._node, alias._out_idx, alias._req = self._node, self._out_idx, self._req
            alias._version, alias._base = self._version, self._base
            r = fn(alias, other)
            if r._data.shape != self._data.shape:
                raise ShapeError(f"{opname}: the result's shape {r.shape} differs from the "
                                 f"tensor's {self.shape}; an in-place op cannot grow a tensor")
            data = r._data if r._data.dtype == self._data.dtype else r._data.astype(
                self._data.dtype)
            self._data = data
            self._node, self._out_idx, self._req = r._node, r._out_idx, r._req
            # new memory: views of the old array keep their values and their graph, consistently
            self._base = None
            self._version += 1
            return self
        od = other._data if other_t else other
        try:
            np_fn(self._data, od, out=self._data, casting="same_kind")
        except ValueError:
            raise ShapeError(f"{opname}: operand of shape {list(np.shape(od))} does not "
                             f"broadcast to the tensor's shape {self.shape}") from None
        except TypeError:
            self._data[...] = np_fn(self._data, od).astype(self._data.dtype)
        bump_version(self)
        return self
    return method


def _setitem(self, idx, value):
    vt = isinstance(value, Tensor)
    if _state.enabled and (self._req or (vt and value._req)):
        if self._node is None and self._req:
            raise LeafInplaceError(
                f"__setitem__: in-place assignment into a leaf tensor that needs a gradient "
                f"(shape {self.shape}); use `with opsdk.no_grad():` or work on a clone()")
        alias = _wrap(self._data)
        alias._node, alias._out_idx, alias._req = self._node, self._out_idx, self._req
        alias._version, alias._base = self._version, self._base
        r = indexing.setitem(alias, idx, value)
        self._data, self._node, self._out_idx, self._req = r._data, r._node, r._out_idx, r._req
        self._base = None
        self._version += 1
    else:
        self._data[indexing._plain_index(idx)] = value._data if vt else value
        bump_version(self)


def _set_value(self, value):
    """Overwrite the values (no graph), as Paddle's Tensor.set_value."""
    arr = value._data if isinstance(value, Tensor) else np.asarray(value)
    if tuple(arr.shape) != tuple(self._data.shape):
        raise ShapeError(f"set_value: expected: shape {self.shape}; got: {list(arr.shape)}")
    self._data[...] = arr
    bump_version(self)
    return self


def _fill_(self, value):
    self._data[...] = value
    bump_version(self)
    return self


def _zero_(self):
    return _fill_(self, 0)


def _copy_(self, other, blocking=True):
    return _set_value(self, other)


def _scale(self, scale=1.0, bias=0.0, bias_after_scale=True):
    return self * scale + bias if bias_after_scale else (self + bias) * scale


def _erf(self, name=None):
    from .builtin_ops.erf import erf
    return erf(self)


def _astype(self, dtype):
    return E.cast(self, dtype)


def _cpu(self):
    from .device import CPU, move_to
    t = _wrap(move_to(self._data, CPU))
    t.stop_gradient = self.stop_gradient
    return t


def _cuda(self, device_id=0, blocking=True):
    from .device import Place, move_to
    t = _wrap(move_to(self._data, Place("gpu", device_id)))
    t.stop_gradient = self.stop_gradient
    return t


_METHODS = {
    "__add__": E.add, "__radd__": _rev(E.add),
    "__sub__": E.subtract, "__rsub__": _rev(E.subtract),
    "__mul__": E.multiply, "__rmul__": _rev(E.multiply),
    "__truediv__": E.divide, "__rtruediv__": _rev(E.divide),
    "__pow__": E.pow, "__rpow__": _rev(E.pow),
    "__matmul__": linalg.matmul, "__rmatmul__": _rev(linalg.matmul),
    "__neg__": E.neg, "__abs__": E.abs, "__pos__": lambda self: self,
    "__floordiv__": E.floor_divide, "__mod__": E.remainder,
    "__eq__": E.equal, "__ne__": E.not_equal, "__lt__": E.less_than, "__le__": E.less_equal,
    "__gt__": E.greater_than, "__ge__": E.greater_equal,
    "__and__": E.logical_and, "__or__": E.logical_or, "__xor__": E.logical_xor,
    "__invert__": E.logical_not,
    "__getitem__": indexing.getitem, "__setitem__": _setitem,
    "__iadd__": _inplace(E.add, np.add, "+="),
    "__isub__": _inplace(E.subtract, np.subtract, "-="),
    "__imul__": _inplace(E.multiply, np.multiply, "*="),
    "__itruediv__": _inplace(E.divide, np.divide, "/="),
    "add_": _inplace(E.add, np.add, "add_"),
    "subtract_": _inplace(E.subtract, np.subtract, "subtract_"),
    "multiply_": _inplace(E.multiply, np.multiply, "multiply_"),
    "divide_": _inplace(E.divide, np.divide, "divide_"),
    "add": E.add, "subtract": E.subtract, "multiply": E.multiply, "divide": E.divide,
    "pow": E.pow, "matmul": linalg.matmul, "mm": linalg.mm, "dot": linalg.dot,
    "maximum": E.maximum, "minimum": E.minimum,
    "neg": E.neg, "abs": E.abs, "exp": E.exp, "log": E.log, "sqrt": E.sqrt, "rsqrt": E.rsqrt,
    "square": E.square, "reciprocal": E.reciprocal, "sin": E.sin, "cos": E.cos,
    "tanh": E.tanh, "sigmoid": E.sigmoid, "sign": E.sign, "floor": E.floor, "ceil": E.ceil,
    "round": E.round, "clip": E.clip, "cast": E.cast, "astype": _astype,
    "equal": E.equal, "not_equal": E.not_equal, "less_than": E.less_than,
    "less_equal": E.less_equal, "greater_than": E.greater_than,
    "greater_equal": E.greater_equal, "logical_not": E.logical_not, "isnan": E.isnan,
    "isinf": E.isinf, "isfinite": E.isfinite, "allclose": E.allclose,
    "sum": R.sum, "mean": R.mean, "max": R.max, "min": R.min, "amax": R.max, "amin": R.min,
    "logsumexp": R.logsumexp, "argmax": R.argmax, "argmin": R.argmin, "all": R.all,
    "any": R.any, "var": R.var, "std": R.std, "norm": R.norm,
    "reshape": S.reshape, "view": S.reshape, "flatten": S.flatten, "transpose": S.transpose,
    "t": S.t, "squeeze": S.squeeze, "unsqueeze": S.unsqueeze, "expand": S.expand,
    "expand_as": S.expand_as, "broadcast_to": S.broadcast_to, "split": S.split,
    "chunk": S.chunk, "unbind": S.unbind, "flip": S.flip, "tile": S.tile,
    "moveaxis": S.moveaxis,
    "gather": indexing.gather, "index_select": indexing.index_select,
    "take_along_axis": indexing.take_along_axis, "masked_select": indexing.masked_select,
    "nonzero": indexing.nonzero,
    "erf": _erf, "clone": clone, "set_value": _set_value, "fill_": _fill_, "zero_": _zero_,
    "copy_": _copy_, "scale": _scale, "cpu": _cpu, "cuda": _cuda,
}


def install():
    from .functional.extra_methods import METHODS
    for name, fn in {**_METHODS, **METHODS}.items():
        setattr(Tensor, name, fn)


install()
