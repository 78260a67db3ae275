"""The maths gradient rules are written in: one name for arrays and Tensors alike.

A rule (autograd.record) runs on arrays for a first-order backward and on Tensors when its
result must be differentiated again. Operators (``+ - * / **``, unary ``-``) work on both;
each function here runs NumPy on arrays (CuPy arrays too, through NumPy's dispatch) and the
opsdk op on Tensors. The ops live in the modules above this one, which hand them down when
they load (``provide``), so the rules of every op module can use all of them.
"""
import numpy as np

from ..autograd.record import expand, unbroadcast  # noqa: F401  (part of the rules' maths)
from ..tensor import Tensor, _wrap


class _Ops:
    """The opsdk ops behind the functions below, set by their modules through ``provide``."""

    def __getattr__(self, name):
        raise RuntimeError(f"opsdk.functional.maths: the op {name!r} was not provided yet (its "
                           "module provides it when it loads)")


ops = _Ops()


def provide(**fns):
    """Hand an op module's functions down to the rules' maths (called as the module loads)."""
    for name, fn in fns.items():
        setattr(ops, name, fn)


def is_tensor(v):
    """True when the rule runs on Tensors (create_graph), False on arrays."""
    return isinstance(v, Tensor)


# -- elementwise --------------------------------------------------------------------------
def _elementwise(name, array_fn):
    """f(v): array_fn on an array, the opsdk op ``name`` on a Tensor."""
    def fn(v):
        return getattr(ops, name)(v) if isinstance(v, Tensor) else array_fn(v)
    fn.__name__ = name
    return fn


exp = _elementwise("exp", np.exp)
log = _elementwise("log", np.log)
sin = _elementwise("sin", np.sin)
cos = _elementwise("cos", np.cos)
tanh = _elementwise("tanh", np.tanh)
abs = _elementwise("abs", np.abs)


def where(cond, a, b):
    """a where cond (an array of bools, a constant), else b."""
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return ops.where(cond, a, b)
    return np.where(cond, a, b)


def cast(v, dtype):
    return ops.cast(v, dtype) if isinstance(v, Tensor) else v.astype(dtype)


def zeros_like(v):
    """Zeros of v's shape and dtype, not connected to any graph."""
    if isinstance(v, Tensor):
        return _wrap(np.zeros_like(v._data))
    return np.zeros_like(v)


def take(v, flat, unique=True):
    """v's elements at the flat positions ``flat`` (flat_index.take)."""
    return ops.take(v, flat, unique)


def put(v, flat, shape, unique=True):
    """Zeros of ``shape`` with v added at the flat positions ``flat`` (flat_index.put)."""
    return ops.put(v, flat, shape, unique)


def zeros(shape, like):
    """Zeros of ``shape`` in like's dtype (and array kind), not connected to any graph."""
    if isinstance(like, Tensor):
        return _wrap(np.zeros_like(like._data, shape=shape))
    return np.zeros_like(like, shape=shape)


# -- shapes and reductions --------------------------------------------------------------------
def reshape(v, shape):
    """v with exactly this shape (every entry a size, as NumPy reads it)."""
    return ops.reshape_exact(v, list(shape)) if isinstance(v, Tensor) else v.reshape(shape)


def transpose(v, perm):
    return ops.transpose(v, list(perm)) if isinstance(v, Tensor) else v.transpose(perm)


def shape(v):
    """v's shape as a tuple."""
    return tuple(v._data.shape) if isinstance(v, Tensor) else v.shape


def mT(v):
    """v with its last two axes swapped."""
    return ops.mT(v) if isinstance(v, Tensor) else np.swapaxes(v, -1, -2)


def getitem(v, index):
    """v[index] (basic or advanced indexing)."""
    return ops.getitem(v, index) if isinstance(v, Tensor) else v[index]


def flip(v, axes):
    return ops.flip(v, list(axes)) if isinstance(v, Tensor) else np.flip(v, axis=axes)


def concat(parts, axis):
    """The parts joined along axis (Tensors if any part is one)."""
    if any(isinstance(p, Tensor) for p in parts):
        return ops.concat(parts, axis)
    return np.concatenate(parts, axis=axis)


def sum(v, axis=None, keepdims=False):
    if isinstance(v, Tensor):
        return ops.sum(v, axis=None if axis is None else list(np.atleast_1d(axis)),
                       keepdim=keepdims)
    return v.sum(axis=axis, keepdims=keepdims)


def matmul(a, b, transpose_a=False, transpose_b=False):
    """a @ b over the last two axes, either one transposed first."""
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return ops.matmul(a, b, transpose_a, transpose_b)
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return a @ b
