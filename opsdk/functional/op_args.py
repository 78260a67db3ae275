"""Argument checks shared by the core ops: axes, ints, index tensors, Paddle's aliases."""
import builtins
import inspect
import functools

import numpy as np

from ..errors import (ArgumentTypeError, AxisOutOfRangeError, DTypeError, DuplicateAxisError,
                      IndexOutOfRangeError, NoKernelDTypeError, OpArgumentError, ShapeError)
from ..tensor import Tensor, tensor_arg  # noqa: F401  (tensor_arg: the ops import it from here)


def check_axis(axis, ndim, op, arg="axis"):
    """One axis as a non-negative int; out of [-ndim, ndim) is an error naming op and arg."""
    # a 0-d tensor accepts axis 0 and -1, as in Paddle
    n = builtins.max(ndim, 1)
    a = axis.item() if isinstance(axis, Tensor) else axis
    if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
        raise ArgumentTypeError(f"{op}: argument '{arg}' must be an int; got: {axis!r}")
    a = int(a)
    if not -n <= a < n:
        raise AxisOutOfRangeError(f"{op}: argument '{arg}' out of range; expected: in "
                                  f"[{-n}, {n - 1}] for a {ndim}-d tensor; got: {a}")
    return a % n


def vector_arg(x, op, arg="x"):
    """x, unless it is 0-d: the ops that pick along an axis (split, unbind, flip, gather,
    index_select, diff) have none to pick along there; Paddle raises ValueError or IndexError
    by op, an AxisOutOfRangeError is both."""
    if x.ndim == 0:
        raise AxisOutOfRangeError(f"{op}: argument '{arg}' must have at least one dimension (no "
                                  f"axis to work along); got: a 0-d tensor")
    return x


def normalize_axis(axis, ndim, op):
    """None -> all axes; int/list/tuple -> a sorted tuple of non-negative axes (checked)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, Tensor):
        axis = axis.tolist()
    axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    checked = [check_axis(a, ndim, op) for a in axes]
    if len(set(checked)) < len(checked):
        # Paddle refuses an axis named twice (a ValueError) rather than reducing it once
        raise DuplicateAxisError(f"{op}: argument 'axis' names an axis twice; expected: "
                                 f"distinct axes; got: {list(axes)}")
    return tuple(sorted(checked))


def reduction_axes(axis, ndim, op):
    """The axes a reduction runs over: None or an empty list is every axis, as in Paddle (and
    PyTorch); a 0-d tensor takes axis 0 or -1 (checked) and reduces none."""
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        axis = None
    axes = normalize_axis(axis, ndim, op)
    return axes if ndim else ()


def not_bool(x, op, arg="x"):
    """x (a Tensor), unless it is a bool tensor: Paddle 3.3.1 has no bool kernel for most
    numeric ops (max, prod, argmax, the scans, isnan, ...), a RuntimeError (NotFound) there; a
    NoKernelDTypeError is that RuntimeError too (a NotImplementedError) and a TypeError."""
    if x._data.dtype.kind == "b":
        raise NoKernelDTypeError(f"{op}: argument '{arg}' must not be a bool tensor (Paddle has "
                                 f"no bool kernel for {op}); expected: a float or integer tensor; "
                                 f"got: bool")
    return x


def int_arg(v, op, arg):
    """An integer argument (a Python/NumPy int or a one-element integer Tensor)."""
    if isinstance(v, Tensor):
        if v._data.dtype.kind not in "iu" or v._data.size != 1:
            raise ArgumentTypeError(f"{op}: argument '{arg}' must be an int; expected: an int or a "
                                  f"one-element integer tensor; got: a {v._data.dtype} tensor "
                                  f"of shape {list(v.shape)}")
        return int(v._data.reshape(-1)[0])
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, float, np.floating)):
        raise ArgumentTypeError(f"{op}: argument '{arg}' must be an int; got: "
                                f"{type(v).__name__} {v!r}")
    if v != int(v):
        raise ArgumentTypeError(f"{op}: argument '{arg}' must be an int; got: {v!r}")
    return int(v)


def axis_arg(axis, ndim, op, arg="axis"):
    """One axis as a non-negative int; a 0-d tensor accepts 0 and -1, as in Paddle. A float
    axis (even 1.0) is refused, as Paddle refuses it (a TypeError)."""
    if isinstance(axis, (float, np.floating)):
        raise ArgumentTypeError(f"{op}: argument '{arg}' must be an int; got: float {axis!r}")
    return check_axis(int_arg(axis, op, arg), ndim, op, arg)


def scan_axis(axis, ndim, op):
    """axis_arg for the scans whose out-of-range axis Paddle refuses with an IndexError (cumsum,
    logcumsumexp, cummax, cummin): an AxisOutOfRangeError, an IndexError too."""
    a = axis.item() if isinstance(axis, Tensor) else axis
    n = builtins.max(ndim, 1)
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool) and not -n <= a < n:
        raise AxisOutOfRangeError(f"{op}: argument 'axis' out of range; expected: in "
                                  f"[{-n}, {n - 1}] for a {ndim}-d tensor; got: {a}")
    return axis_arg(axis, ndim, op)


def index_array(index, op, arg="index"):
    """The integer array of an index argument (a Tensor, list or array); floats are refused."""
    d = tensor_arg(index, op, arg)._data
    if d.dtype.kind not in "iu":
        raise DTypeError(f"{op}: argument '{arg}' must be an integer tensor; expected: int32 or "
                         f"int64; got: {d.dtype}")
    return d


def wrap_index(ind, n, op, arg, axis):
    """Indices in [-n, n) made non-negative; anything outside is an error naming op and arg."""
    if ind.size == 0:
        return ind.astype(np.int64)
    lo, hi = int(ind.min()), int(ind.max())
    if lo < -n or hi >= n:
        raise IndexOutOfRangeError(
            f"{op}: argument '{arg}' has an index out of range for axis {axis} of size {n}; "
            f"expected: values in [{-n}, {n - 1}]; got: min {lo}, max {hi}")
    ind = ind.astype(np.int64)
    return np.where(ind < 0, ind + n, ind) if lo < 0 else ind


def nd_index(index, shape, op):
    """gather_nd / scatter_nd_add's index: an integer array [..., k] whose last axis holds
    coordinates into the first k axes of shape; returns the tuple of k index arrays (made
    non-negative), each of shape index.shape[:-1]."""
    ind = index_array(index, op)
    if ind.ndim == 0 or ind.shape[-1] > len(shape):
        raise ShapeError(f"{op}: argument 'index' must have shape [..., k] with k <= {len(shape)} "
                         f"(the rank of x); got: shape {list(ind.shape)}")
    return tuple(wrap_index(ind[..., j], shape[j], op, "index", j) for j in range(ind.shape[-1]))


def tensor_list_arg(args, op, arg):
    """Tensors passed one by one or as one list: at least one, all of one dtype."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    if not args:
        raise OpArgumentError(f"{op}: expected: at least one tensor; got: none")
    ts = [tensor_arg(t, op, f"{arg}[{i}]") for i, t in enumerate(args)]
    for i, t in enumerate(ts):
        if t._data.dtype != ts[0]._data.dtype:
            raise DTypeError(f"{op}: every input must have one dtype; expected: "
                             f"{ts[0]._data.dtype}; got: {arg}[{i}] {t._data.dtype}")
    return ts


def check_same_dtype(op, a, b, a_name, b_name):
    if a._data.dtype != b._data.dtype:
        raise DTypeError(f"{op}: '{b_name}' must have the dtype of '{a_name}'; expected: "
                         f"{a._data.dtype}; got: {b._data.dtype}")


def aliases(**alias_of):
    """Accept Paddle's keyword aliases (``input`` for ``x``, ``dim`` for ``axis``, ...)."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if kwargs:
                for alias, real in alias_of.items():
                    if alias in kwargs:
                        if real in kwargs:
                            raise TypeError(f"{fn.__name__}() got both '{real}' and its alias "
                                            f"'{alias}'")
                        kwargs[real] = kwargs.pop(alias)
            return fn(*args, **kwargs)
        # inspect.signature shows the aliases too (keyword-only)
        wrapper.__signature__ = _signature_with(fn, *((alias, None) for alias in alias_of))
        return wrapper
    return decorate


def _signature_with(fn, *extra):
    """fn's signature with the keyword-only parameters ``extra`` (name, default) added after
    its own (before a **kwargs), so inspect.signature shows what the wrapper accepts."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    have = {p.name for p in params}
    tail = [p for p in params if p.kind is p.VAR_KEYWORD]
    params = [p for p in params if p.kind is not p.VAR_KEYWORD]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
               for name, default in extra if name not in have]
    return sig.replace(parameters=params + tail)


def write_out(out, result, op):
    """Paddle's ``out=``: out becomes the result (its values, shape and dtype, whatever they
    were; its memory, shared with the returned tensor; and its place in the graph, so a
    gradient flows through out as through the result). The result is returned, another
    tensor over the same memory, as Paddle returns. A tuple result takes a tuple of outs."""
    if isinstance(result, (tuple, list)):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise ArgumentTypeError(f"{op}: argument 'out' must be a tuple of {len(result)} "
                                    f"Tensors (one per result); got: {type(out).__name__}")
        for o, r in zip(out, result):
            write_out(o, r, op)
        return result
    if not isinstance(out, Tensor):
        raise ArgumentTypeError(f"{op}: argument 'out' must be a Tensor; got: "
                                f"{type(out).__name__}")
    out._data, out._node, out._req = result._data, result._node, result._req
    state = out.__dict__
    state.clear()
    state.update(result.__dict__)
    return result


def with_out(fn, op=None):
    """fn taking Paddle's keyword-only ``out=`` (see write_out). The ops call fn itself (and
    the operators are fn), so only the public names pay for the extra call."""
    op = op or fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        return write_out(out, fn(*args, **kwargs), op)
    wrapper.__signature__ = _signature_with(fn, ("out", None))
    wrapper.takes_out = True
    return wrapper
