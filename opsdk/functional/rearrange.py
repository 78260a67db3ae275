"""Ops that move elements around: roll, rot90, repeat_interleave, meshgrid (all copies)."""
import numpy as np

from ..autograd.record import needs_grad, record
from ..errors import OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap
from . import maths
from .flat_index import positions, take
from .op_args import aliases, axis_arg, index_array, int_arg, tensor_arg, tensor_list_arg
from .shape import as_shape


def _rearranged(name, x, fn, unique=True):
    """fn (a NumPy rearrangement) applied to x, as a copy; the gradient follows each element
    back to where fn took it from."""
    xd = x._data
    if not needs_grad(x):
        return _wrap(_copy(fn(xd), xd))
    return take(name, x, fn(positions(xd.shape)), unique)


def _copy(out, xd):
    return out.copy() if out is xd or out.base is not None else out


def _permuted(name, x, fn, inverse):
    """A permutation of x's elements with a known inverse (roll, rot90): both directions are
    single NumPy calls, and the gradient rule is the same op run backwards."""
    xd = x._data
    return record(name, _copy(fn(xd), xd), (x,), _PERMUTED, (name, fn, inverse))


def _permuted_back(g, name, fn, inverse):
    """The permutation undone, on an array or (the same op run backwards) a Tensor."""
    if maths.is_tensor(g):
        return _permuted(name, g, inverse, fn)
    return _copy(inverse(g), g)


_PERMUTED = (_permuted_back,)


def _int_list(v, op, arg):
    if isinstance(v, Tensor):
        d = index_array(v, op, arg)
        return [int(i) for i in d.reshape(-1)]
    if isinstance(v, (list, tuple)):
        return [int_arg(i, op, arg) for i in v]
    return [int_arg(v, op, arg)]


def roll(x, shifts, axis=None, name=None):
    """Shift elements along axis (of the flattened tensor when axis is None), wrapping around.

    Example:
        >>> opsdk.roll(opsdk.to_tensor([1.0, 2.0, 3.0]), 1).numpy()
        array([3., 1., 2.], dtype=float32)
    """
    x = tensor_arg(x, "roll")
    shifts = _int_list(shifts, "roll", "shifts")
    nd = x._data.ndim
    if axis is None:
        if len(shifts) != 1:
            raise OpArgumentError(f"roll: without 'axis', 'shifts' must be one int; got: "
                                  f"{shifts}")
        return _permuted("roll", x, lambda a: np.roll(a, shifts[0]),
                         lambda a: np.roll(a, -shifts[0]))
    if nd == 0:
        raise OpArgumentError(f"roll: a 0-d tensor has no axis {axis}; expected: axis=None")
    axes = [axis_arg(a, nd, "roll") for a in _int_list(axis, "roll", "axis")]
    if len(axes) != len(shifts):
        raise OpArgumentError(f"roll: 'shifts' and 'axis' must have one entry each per axis; "
                              f"got: {len(shifts)} shifts, {len(axes)} axes")
    back = [-s for s in shifts]
    return _permuted("roll", x, lambda a: np.roll(a, shifts, axes),
                     lambda a: np.roll(a, back, axes))


def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006 (Paddle's default; never mutated)
    """Rotate by 90 degrees k times in the plane of axes (from the first axis to the second).

    Example:
        >>> opsdk.rot90(opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
        array([[2., 4.],
               [1., 3.]], dtype=float32)
    """
    x = tensor_arg(x, "rot90")
    k = int_arg(k, "rot90", "k")
    nd = x._data.ndim
    axes = list(axes)
    if len(axes) != 2:
        raise OpArgumentError(f"rot90: argument 'axes' must name two axes; got: {axes}")
    if nd < 2:
        raise ShapeError(f"rot90: expected: a tensor with at least 2 dims; got: shape {list(x.shape)}")
    a0, a1 = (axis_arg(a, nd, "rot90", "axes") for a in axes)
    if a0 == a1:
        raise OpArgumentError(f"rot90: the two 'axes' must differ; got: {axes}")
    return _permuted("rot90", x, lambda a: np.rot90(a, k, (a0, a1)),
                     lambda a: np.rot90(a, -k, (a0, a1)))


def _repeats(repeats, n, op, ndim):
    """repeats as an int or a 1-D int array with one count per element along the axis."""
    if isinstance(repeats, (Tensor, list, tuple, np.ndarray)):
        r = index_array(repeats, op, "repeats").reshape(-1).astype(np.int64)
        if r.size == 0 and ndim > 1:
            raise OpArgumentError(f"{op}: argument 'repeats' is an empty tensor; expected: one "
                                  f"count per element along the axis (Paddle refuses an empty "
                                  f"one for a tensor of more than 1 dim: use an int)")
        if r.size != n:
            raise ShapeError(f"{op}: 'repeats' needs one count per element along the axis; "
                             f"expected: {n} counts; got: {r.size}")
        if r.size and r.min() < 0:
            raise OpArgumentError(f"{op}: argument 'repeats' must not be negative; got: min "
                                  f"{r.min()}")
        return r
    r = int_arg(repeats, op, "repeats")
    if r <= 0:
        raise OpArgumentError(f"{op}: an int 'repeats' must be positive (use a tensor of counts "
                              f"for 0); got: {r}")
    return r


@aliases(input="x", dim="axis")
def repeat_interleave(x, repeats, axis=None, name=None, output_size=None):
    """Repeat each element along axis (of the flattened tensor when None) repeats times.

    Args:
        x: the tensor.
        repeats: an int (> 0) or an integer tensor of counts (>= 0), one per element.
        axis: the axis, or None.
        output_size: the result's size along axis, checked when given.

    Example:
        >>> opsdk.repeat_interleave(opsdk.to_tensor([1.0, 2.0]), 2).numpy()
        array([1., 1., 2., 2.], dtype=float32)
    """
    x = tensor_arg(x, "repeat_interleave")
    if axis is None:
        x, ax = as_shape(x, [x._data.size]), 0
    else:
        if x._data.ndim == 0:
            raise OpArgumentError(f"repeat_interleave: a 0-d tensor has no axis {axis}; "
                                  f"expected: axis=None")
        ax = axis_arg(axis, x._data.ndim, "repeat_interleave")
    n = x._data.shape[ax]
    r = _repeats(repeats, n, "repeat_interleave", x._data.ndim)
    total = int(r.sum()) if isinstance(r, np.ndarray) else r * n
    if output_size is not None and int_arg(output_size, "repeat_interleave",
                                           "output_size") != total:
        raise ShapeError(f"repeat_interleave: 'output_size' does not match the repeats; "
                         f"expected: {total}; got: {output_size}")
    unique = bool(np.all(r <= 1))
    return _rearranged("repeat_interleave", x, lambda a: np.repeat(a, r, ax), unique)


def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D (or 0-d) tensors: output k varies along axis k.

    Call as meshgrid(x, y, ...) or meshgrid([x, y, ...]); ``indexing='xy'`` swaps the first
    two axes (Cartesian order). The inputs must share one dtype. Returns copies.

    Example:
        >>> a, b = opsdk.meshgrid(opsdk.to_tensor([1.0, 2.0]), opsdk.to_tensor([3.0, 4.0, 5.0]))
        >>> a.shape, b.shape
        (paddle.Size([2, 3]), paddle.Size([2, 3]))
    """
    indexing = kwargs.pop("indexing", "ij")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid() got an unexpected keyword argument {next(iter(kwargs))!r}")
    if indexing not in ("ij", "xy"):
        raise OpArgumentError(f"meshgrid: argument 'indexing' must be 'ij' or 'xy'; got: "
                              f"{indexing!r}")
    ts = tensor_list_arg(args, "meshgrid", "args")
    for i, t in enumerate(ts):
        if t._data.ndim > 1:
            raise ShapeError(f"meshgrid: every input must be 0-d or 1-D; got: args[{i}] of "
                             f"shape {list(t.shape)}")
    sizes = [t._data.size for t in ts]
    dims = list(range(len(ts)))
    if indexing == "xy" and len(ts) > 1:
        dims[0], dims[1] = 1, 0
    shape = [0] * len(ts)
    for d, s in zip(dims, sizes):
        shape[d] = s
    outs = []
    for t, d, s in zip(ts, dims, sizes):
        lay = [1] * len(ts)
        lay[d] = s
        src = np.broadcast_to(np.arange(s, dtype=np.int64).reshape(lay), shape)
        # an input repeats in its grid unless every other input has one element
        unique = int(np.prod(shape, dtype=np.int64)) == s
        outs.append(take("meshgrid", as_shape(t, [s]), src, unique))
    return outs
