"""Attach operators and math methods to Tensor (kept apart so tensor.py stays readable)."""
import numpy as np

from .autograd.grad_mode import _state
from .errors import ShapeError
from .functional import elementwise as E, indexing, linalg, reduction as R, shape as S
from .functional import inplace as I
from .autograd import grad_api
from .autograd.record import clone
from .tensor import Tensor, _wrap, bump_version


def _rev(fn):
    return lambda self, other: fn(other, self)


def _set_value(self, value):
    """Overwrite the values (no graph), as Paddle's Tensor.set_value."""
    arr = value._data if isinstance(value, Tensor) else np.asarray(value)
    if tuple(arr.shape) != tuple(self._data.shape):
        raise ShapeError(f"set_value: expected: shape {self.shape}; got: {list(arr.shape)}")
    self._data[...] = arr
    bump_version(self)
    return self


def _copy_(self, other, blocking=True):
    return _set_value(self, other)


def _astype(self, dtype):
    from .dtypes import convert_dtype
    # Paddle's astype to the tensor's own dtype returns the tensor itself (paddle.cast copies)
    if convert_dtype(dtype, op="astype") == self._data.dtype:
        return self
    return E.cast(self, dtype)


def _uniform_(self, min=-1.0, max=1.0, seed=0, name=None):
    from .functional.creation import get_rng
    return I.fill_(self, get_rng().uniform(min, max, self._data.shape).astype(self._data.dtype))


def _normal_(self, mean=0.0, std=1.0, name=None):
    from .functional.creation import get_rng
    return I.fill_(self, get_rng().normal(mean, std, self._data.shape).astype(self._data.dtype))


def _erf(self, name=None):
    from .builtin_ops.erf import erf
    return erf(self)


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
    "__floordiv__": E.floor_divide, "__rfloordiv__": _rev(E.floor_divide),
    "__mod__": E.remainder, "__rmod__": _rev(E.remainder),
    "__eq__": E.equal, "__ne__": E.not_equal, "__lt__": E.less_than, "__le__": E.less_equal,
    "__gt__": E.greater_than, "__ge__": E.greater_equal,
    "__and__": E.logical_and, "__or__": E.logical_or, "__xor__": E.logical_xor,
    "__invert__": E.logical_not,
    "__getitem__": indexing.getitem, "__setitem__": I.setitem,
    "__iadd__": I.augmented(E.add, np.add, "+="),
    "__isub__": I.augmented(E.subtract, np.subtract, "-="),
    "__imul__": I.augmented(E.multiply, np.multiply, "*="),
    "__itruediv__": I.augmented(E.divide, np.divide, "/="),
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
    "erf": _erf, "clone": clone, "set_value": _set_value, "fill_": I.fill_, "zero_": I.zero_,
    "copy_": _copy_, "scale": E.scale, "cpu": _cpu, "cuda": _cuda,
    "uniform_": _uniform_, "normal_": _normal_, "remainder": E.remainder, "mod": E.remainder,
    "floor_mod": E.remainder, "floor_divide": E.floor_divide, "contiguous": lambda self: self,
    "is_contiguous": lambda self: True,
    "backward": grad_api.backward, "retain_grads": grad_api.retain_grads,
    "T": property(lambda self: S.transpose(self, list(range(self.ndim))[::-1])),
}

# in-place variants of the core ops: (name, op, NumPy ufunc for the plain write, reads x)
_INPLACE = [
    ("add_", E.add, np.add, False), ("subtract_", E.subtract, np.subtract, False),
    ("sub_", E.subtract, np.subtract, False), ("multiply_", E.multiply, np.multiply, True),
    ("mul_", E.multiply, np.multiply, True), ("divide_", E.divide, np.divide, True),
    ("div_", E.divide, np.divide, True), ("pow_", E.pow, None, True),
    ("remainder_", E.remainder, None, True), ("mod_", E.remainder, None, True),
    ("floor_mod_", E.remainder, None, True), ("floor_divide_", E.floor_divide, None, False),
    ("scale_", E.scale, None, False), ("clip_", E.clip, None, False),
    ("clamp_", E.clip, None, False), ("exp_", E.exp, None, False), ("tanh_", E.tanh, None, False),
    ("sigmoid_", E.sigmoid, None, False), ("sqrt_", E.sqrt, None, False),
    ("rsqrt_", E.rsqrt, None, True), ("abs_", E.abs, None, True), ("neg_", E.neg, None, False),
    ("log_", E.log, None, True), ("sin_", E.sin, None, True), ("cos_", E.cos, None, True),
    ("square_", E.square, None, True), ("reciprocal_", E.reciprocal, None, True),
    ("floor_", E.floor, None, False), ("ceil_", E.ceil, None, False),
    ("round_", E.round, None, False),
]
_SHAPE_INPLACE = [
    ("reshape_", S.reshape, lambda b, old, a, k: S.reshape(b, old)),
    ("squeeze_", S.squeeze, lambda b, old, a, k: S.reshape(b, old)),
    ("unsqueeze_", S.unsqueeze, lambda b, old, a, k: S.reshape(b, old)),
    ("flatten_", S.flatten, lambda b, old, a, k: S.reshape(b, old)),
    ("transpose_", S.transpose,
     lambda b, old, a, k: S.transpose(b, list(np.argsort(a[0] if a else k["perm"])))),
    ("t_", S.t, lambda b, old, a, k: S.t(b)),
]


for _name, _op, _ufunc, _reads in _INPLACE:
    _METHODS[_name] = I.inplace_method(_op, _name, _ufunc, _reads)
for _name, _op, _inverse in _SHAPE_INPLACE:
    _METHODS[_name] = I.shape_method(_op, _inverse, _name)


def install():
    from .functional.extra_methods import METHODS
    for name, fn in {**_METHODS, **METHODS}.items():
        setattr(Tensor, name, fn)


install()


# Paddle's module-level in-place functions (paddle.tanh_(x), ...): the methods above
MODULE_INPLACE = ("abs_", "cos_", "divide_", "div_", "floor_divide_", "floor_mod_", "mod_",
                  "remainder_", "flatten_", "log_", "multiply_", "neg_", "pow_", "reshape_",
                  "sin_", "square_", "squeeze_", "unsqueeze_", "subtract_", "sub_", "tanh_",
                  "transpose_", "t_", "exp_", "sqrt_", "rsqrt_", "reciprocal_", "sigmoid_",
                  "scale_", "clip_", "floor_", "ceil_", "round_", "zero_", "fill_", "add_")


def module_inplace_functions():
    """{name: function(x, *args)} for MODULE_INPLACE, each calling the Tensor method."""
    return {name: _METHODS[name] for name in MODULE_INPLACE}
