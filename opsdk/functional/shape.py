"""Shape ops: reshape, transpose, squeeze/unsqueeze, concat/stack/split, expand, flatten, flip."""
import functools

import numpy as np

from ..autograd.record import clone, record, unbroadcast
from ..errors import ArgumentTypeError, DTypeError, OpArgumentError, PreconditionShapeError, ShapeError
from ..tensor import Tensor
from . import maths
from .indexing import getitem
from .op_args import check_axis, tensor_arg as _arg, vector_arg
from .views import mark_view


def _ints(shape, op="shape op", arg="shape"):
    """A list of ints from an int, a list of ints (or int Tensors) or an int Tensor."""
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return [int(shape)]
    # a float (even 2.0) or another type is a TypeError in Paddle: an ArgumentTypeError is both
    # that and the ValueError opsdk raised before
    if not isinstance(shape, (list, tuple)):
        raise ArgumentTypeError(f"{op}: argument '{arg}' must be an int or a list of ints; "
                                f"got: {shape!r}")
    out = []
    for s in shape:
        v = s.item() if isinstance(s, Tensor) else s
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ArgumentTypeError(f"{op}: argument '{arg}' must hold ints; got: {shape!r}")
        out.append(int(v))
    return out


def reshape(x, shape, name=None):
    """x with a new shape of the same size; -1 infers one dimension, 0 keeps that dimension
    (Paddle's rule; opsdk's own code calls reshape_exact, where 0 is a size-0 dimension)."""
    x = _arg(x, "reshape")
    xd = x._data
    listed = isinstance(shape, (list, tuple))
    shape = _ints(shape, "reshape")
    if listed and shape == list(xd.shape):
        return x  # Paddle 3.3.1 returns x itself for its own shape (a leaf stays a leaf)
    if any(s < -1 for s in shape):
        raise OpArgumentError(f"reshape: argument 'shape' must not hold sizes below -1 (as in "
                              f"Paddle); got: {shape}")
    if xd.size:  # of a tensor with no elements, Paddle 3.3.1 reads 0 as a size-0 dimension
        shape = [xd.shape[i] if s == 0 and i < xd.ndim else s for i, s in enumerate(shape)]
    elif -1 in shape and 0 in shape:
        shape = _infer_beside_zeros(xd.shape, shape)
    return reshape_exact(x, shape, "reshape")


def _infer_beside_zeros(in_shape, shape):
    """Paddle 3.3.1's -1 in a shape that also holds size-0 dims, for a tensor with no elements:
    with as many 0s as the input has, -1 is the input's nonzero sizes' product over the shape's
    (a [0, 4] tensor reshaped to [2, 0, -1] is [2, 0, 2]); with another count it is ambiguous."""
    zeros_in, zeros_out = sum(d == 0 for d in in_shape), shape.count(0)
    known_in = int(np.prod([d for d in in_shape if d]))
    known_out = int(np.prod([d for d in shape if d > 0]))
    if zeros_out != zeros_in or known_in % known_out:
        raise ShapeError(f"reshape: cannot infer the -1 of {shape} for a tensor of shape "
                         f"{list(in_shape)} (no elements); expected: as many 0s as the tensor "
                         f"has ({zeros_in}) and sizes dividing {known_in}; got: {shape}")
    return [known_in // known_out if d == -1 else d for d in shape]


def reshape_exact(x, shape, op="reshape"):
    """x with exactly this shape (-1 infers one dimension); a view where NumPy can make one."""
    xd = x._data
    shape = [int(s) for s in shape]
    try:
        out = xd.reshape(shape)
    except ValueError:
        raise ShapeError(f"{op}: cannot reshape a tensor of shape {list(xd.shape)} "
                         f"({xd.size} elements); expected: a shape with {xd.size} elements; "
                         f"got: {shape}") from None
    new = list(out.shape)
    fn = lambda b: reshape_exact(b, new, op)
    return mark_view(record("reshape", out, (x,), _RESHAPE, (xd.shape,)), x, out, fn)


_RESHAPE = (lambda g, shape: maths.reshape(g, shape),)

view = reshape


def as_shape(x, shape):
    """x itself when it has this shape already, else reshape_exact(x, shape)."""
    shape = [int(s) for s in shape]
    return x if list(x._data.shape) == shape else reshape_exact(x, shape)


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge the axes from start_axis to stop_axis into one."""
    x = _arg(x, "flatten")
    nd = x.ndim
    if nd == 0:
        return reshape_exact(x, [1], "flatten")
    s = check_axis(start_axis, nd, "flatten", "start_axis")
    e = check_axis(stop_axis, nd, "flatten", "stop_axis")
    if s > e:
        raise OpArgumentError(f"flatten: argument 'stop_axis' must not come before "
                              f"'start_axis' (as in Paddle); got: start_axis {start_axis} "
                              f"(axis {s}), stop_axis {stop_axis} (axis {e})")
    shp = x.shape
    new = shp[:s] + [int(np.prod(shp[s:e + 1]))] + shp[e + 1:]
    return reshape_exact(x, new, "flatten")


def transpose(x, perm, name=None):
    """Permute the axes of x by perm. A shorter perm that permutes the leading axes leaves the
    others in place, as in Paddle (a perm [1, 0] of a 3-d x swaps its first two axes)."""
    x = _arg(x, "transpose")
    perm = [p + x.ndim if p < 0 else p for p in _ints(perm, "transpose", "perm")]
    if len(perm) < x.ndim and sorted(perm) == list(range(len(perm))):
        perm += list(range(len(perm), x.ndim))
    if sorted(perm) != list(range(x.ndim)):
        raise ShapeError(f"transpose: argument 'perm' must be a permutation of "
                         f"{list(range(x.ndim))}; got: {perm}")
    out = x._data.transpose(perm)
    fn = lambda b: transpose(b, perm)
    inv = [int(i) for i in np.argsort(perm)]
    return mark_view(record("transpose", out, (x,), _TRANSPOSE, (inv,)), x, out, fn)


_TRANSPOSE = (lambda g, inverse: maths.transpose(g, inverse),)


def t(x, name=None):
    """Transpose a tensor of at most 2 dimensions."""
    x = _arg(x, "t")
    if x.ndim > 2:
        raise ShapeError(f"t: argument 'input' must have at most 2 dimensions (as in Paddle); "
                         f"got: shape {list(x.shape)}. Use transpose with a perm")
    return x if x.ndim < 2 else transpose(x, [1, 0])


def moveaxis(x, source, destination, name=None):
    """Move the axes at source to the positions in destination; the others keep their order."""
    x = _arg(x, "moveaxis")
    src = [check_axis(a, x.ndim, "moveaxis", "source") for a in _ints(source, "moveaxis", "source")]
    dst = [check_axis(a, x.ndim, "moveaxis", "destination") for a in _ints(destination, "moveaxis", "destination")]
    if len(src) != len(dst):
        raise ShapeError(f"moveaxis: expected: as many destination axes as source axes "
                         f"({len(src)}); got: {len(dst)}")
    perm = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return transpose(x, perm)


def squeeze(x, axis=None, name=None):
    """Remove axes of size 1 (all of them, or those in axis)."""
    x = _arg(x, "squeeze")
    shp = x.shape
    if axis is None:
        new = [s for s in shp if s != 1]
    else:
        axes = {check_axis(a, x.ndim, "squeeze") for a in _ints(axis, "squeeze", "axis")}
        new = [s for i, s in enumerate(shp) if not (i in axes and s == 1)]
    # a new tensor (a view) also when nothing is squeezed, as in Paddle
    return reshape_exact(x, new, "squeeze")


def unsqueeze(x, axis, name=None):
    """Insert axes of size 1 at the positions in axis."""
    x = _arg(x, "unsqueeze")
    shp = x.shape
    for a in sorted(_ints(axis, "unsqueeze", "axis")):
        # each new axis counts in the shape grown so far, so -1 always means "last"
        a = check_axis(a, len(shp) + 1, "unsqueeze")
        shp = shp[:a] + [1] + shp[a:]
    return reshape_exact(x, shp, "unsqueeze")


def broadcast_to(x, shape, name=None):
    """x broadcast to shape; the gradient sums over the broadcast axes."""
    x = _arg(x, "broadcast_to")
    xd = x._data
    shape = _ints(shape, "broadcast_to")
    lead = len(shape) - xd.ndim
    if lead < 0 or any(s == -1 and i < lead for i, s in enumerate(shape)) or \
            any(s < -1 for s in shape):
        raise ShapeError(f"broadcast_to: shape {list(xd.shape)} cannot broadcast; expected: "
                         f"at least {xd.ndim} sizes, -1 only where x has a dimension; got: "
                         f"{shape}")
    shape = [xd.shape[i - lead] if s == -1 else s for i, s in enumerate(shape)]
    try:
        # a copy, as Paddle's expand makes (a broadcast view would be read-only)
        out = np.broadcast_to(xd, shape).copy()
    except ValueError:
        raise ShapeError(f"broadcast_to: shape {list(xd.shape)} cannot broadcast; expected: "
                         f"a shape compatible with {list(xd.shape)}; got: {shape}") from None
    # the gradient, summed back to x's shape by the recorder
    return record("broadcast_to", out, (x,), _SAME, broadcast=True)


_SAME = (lambda g: g,)


def broadcast_tensors(input, name=None):
    """The tensors of the list ``input`` broadcast to their common shape (a list of copies).

    One op with an output per input, as Paddle's: when any input needs a gradient, every
    output reports stop_gradient=False. Each input's gradient is its output's summed back to
    its shape. The tensors must share one dtype (Paddle's rule too).

    Example:
        >>> a, b = opsdk.broadcast_tensors([opsdk.ones([2, 1]), opsdk.ones([3])])
        >>> a.shape, b.shape
        (paddle.Size([2, 3]), paddle.Size([2, 3]))
    """
    if not isinstance(input, (list, tuple)):
        raise OpArgumentError(f"broadcast_tensors: argument 'input' must be a list of Tensors; "
                              f"got: {type(input).__name__}")
    ts = [_arg(t, "broadcast_tensors", f"input[{i}]") for i, t in enumerate(input)]
    if not ts:
        raise OpArgumentError("broadcast_tensors: argument 'input' must hold at least one Tensor")
    dtypes = [t._data.dtype for t in ts]
    if any(d != dtypes[0] for d in dtypes):
        raise DTypeError(f"broadcast_tensors: the tensors must share one dtype; expected: all "
                         f"{dtypes[0]}; got: {[str(d) for d in dtypes]}")
    shapes = [t._data.shape for t in ts]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise ShapeError(f"broadcast_tensors: the shapes do not broadcast together; expected: "
                         f"equal sizes or 1 in each trailing dimension; got: "
                         f"{[list(s) for s in shapes]}") from None
    # copies, as Paddle's (a broadcast view would be read-only)
    outs = [np.broadcast_to(t._data, shape).copy() for t in ts]
    rules = tuple(functools.partial(_broadcast_tensors_grad, i) for i in range(len(ts)))
    return record("broadcast_tensors", outs, tuple(ts), rules, (shapes,))


def _broadcast_tensors_grad(i, gs, shapes):
    g = gs[i]
    if g is None:  # that output got no gradient
        return maths.zeros(shapes[i], next(x for x in gs if x is not None))
    return unbroadcast(g, shapes[i])


def expand(x, shape, name=None):
    """Paddle's name for broadcast_to (-1 keeps a dimension)."""
    return broadcast_to(x, shape)


def expand_as(x, y, name=None):
    return broadcast_to(x, _arg(y, "expand_as").shape)


def _tensor_list(x, op):
    """concat's and stack's argument: a non-empty list (or tuple) of tensors of one dtype, as
    Paddle takes (a Tensor in its place, an empty list or mixed dtypes are ValueErrors there)."""
    if isinstance(x, Tensor):
        raise OpArgumentError(f"{op}: argument 'x' must be a list of Tensors; got: a Tensor "
                              f"(wrap it in a list)")
    ts = [_arg(t, op) for t in x]
    if not ts:
        raise OpArgumentError(f"{op}: expected: a non-empty list of tensors; got: []")
    dtypes = [str(t._data.dtype) for t in ts]
    if len(set(dtypes)) > 1:
        raise DTypeError(f"{op}: every tensor must have the same dtype (as in Paddle); got: "
                         f"{dtypes}. Cast them with .astype() first")
    return ts


def concat(x, axis=0, name=None):
    """Join tensors along an existing axis."""
    ts = _tensor_list(x, "concat")
    axis = check_axis(axis, ts[0].ndim, "concat")
    try:
        out = np.concatenate([t._data for t in ts], axis=axis)
    except ValueError as e:
        raise ShapeError(f"concat: shapes {[list(t.shape) for t in ts]} do not fit along axis {axis}; "
                         f"expected: equal sizes on every other axis; got: {e}") from None
    bounds = np.cumsum([0] + [t._data.shape[axis] for t in ts]).tolist()
    # each input's gradient is its slice of g along axis
    rule = tuple(functools.partial(_concat_part, axis, lo, hi)
                 for lo, hi in zip(bounds[:-1], bounds[1:]))
    return record("concat", out, tuple(ts), rule)


def _concat_part(axis, lo, hi, g):
    return maths.getitem(g, (slice(None),) * axis + (slice(lo, hi),))


def stack(x, axis=0, name=None):
    """Join tensors of equal shape along a new axis."""
    ts = _tensor_list(x, "stack")
    shapes = {tuple(t._data.shape) for t in ts}
    if len(shapes) > 1:
        raise ShapeError(f"stack: every tensor must have the same shape; got: "
                         f"{[t.shape for t in ts]}")
    axis = check_axis(axis, ts[0].ndim + 1, "stack")
    return concat([unsqueeze(t, axis) for t in ts], axis=axis)


def split(x, num_or_sections, axis=0, name=None):
    """Split x along axis into equal parts (an int) or parts of the given sizes (a list)."""
    x = vector_arg(_arg(x, "split"), "split")
    xd = x._data
    axis = check_axis(axis, xd.ndim, "split")
    n = xd.shape[axis]
    if isinstance(num_or_sections, int):
        if num_or_sections < 1:
            raise OpArgumentError(f"split: argument 'num_or_sections' must be at least 1; "
                                  f"got: {num_or_sections}")
        if n % num_or_sections:
            raise ShapeError(f"split: axis {axis} of size {n} does not divide into "
                             f"{num_or_sections} equal parts")
        sizes = [n // num_or_sections] * num_or_sections
    else:
        sizes = _ints(num_or_sections, "split", "num_or_sections")
        if sizes.count(-1) > 1:
            raise OpArgumentError(f"split: only one section may be -1 (inferred); got: {sizes}")
        if any(s < -1 for s in sizes):
            # Paddle fails later, at allocation (a RuntimeError): both, as a precondition
            raise PreconditionShapeError(f"split: section sizes must not be negative (but one "
                                         f"-1); got: {sizes}")
        if -1 in sizes:
            sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
        if sum(sizes) != n:
            raise ShapeError(f"split: section sizes must add up to {n} (axis {axis}); "
                             f"got: {sizes}")
    bounds = np.cumsum(sizes)[:-1].tolist()
    # copies, as Paddle's split makes (a write into a part never reaches x)
    outs = [o.copy() for o in np.split(xd, bounds, axis=axis)]
    return record("split", outs, (x,), _SPLIT, (axis, [o.shape for o in outs]))


def _split_grad(gs, axis, shapes):
    like = next(g for g in gs if g is not None)
    # an output that got no gradient contributes zeros
    return maths.concat([maths.zeros(shape, like) if g is None else g
                         for g, shape in zip(gs, shapes)], axis)


_SPLIT = (_split_grad,)


def chunk(x, chunks, axis=0, name=None):
    return split(x, chunks, axis)


def unbind(x, axis=0):
    """The slices along axis, that axis dropped; views of x, as in Paddle."""
    x = vector_arg(_arg(x, "unbind"), "unbind")
    axis = check_axis(axis, x.ndim, "unbind")
    lead = (slice(None),) * axis
    return [getitem(x, lead + (i,)) for i in range(x._data.shape[axis])]


def unstack(x, axis=0, num=None):
    """The slices along axis, that axis dropped; copies (Paddle's unbind gives views)."""
    x = _arg(x, "unstack")
    axis = check_axis(axis, x.ndim, "unstack")
    if num is not None and num != x._data.shape[axis]:
        raise OpArgumentError(f"unstack: argument 'num' must be the size of axis {axis}; "
                              f"expected: {x._data.shape[axis]}; got: {num}")
    return [clone(t) for t in unbind(x, axis)]


def flip(x, axis, name=None):
    """Reverse the order of elements along the axes in axis."""
    x = vector_arg(_arg(x, "flip"), "flip")
    axes = tuple(check_axis(a, x.ndim, "flip") for a in _ints(axis, "flip", "axis"))
    if len(set(axes)) != len(axes):
        raise OpArgumentError(f"flip: argument 'axis' repeats an axis; got: {list(axes)}")
    # a copy, as Paddle's flip makes: a write into the result never reaches x
    out = np.flip(x._data, axis=axes).copy()
    return record("flip", out, (x,), _FLIP, (axes,))


_FLIP = (lambda g, axes: maths.flip(g, axes),)


def tile(x, repeat_times, name=None):
    """Repeat x along each axis."""
    x = _arg(x, "tile")
    reps = _ints(repeat_times, "tile", "repeat_times")
    if any(r < 0 for r in reps):
        raise OpArgumentError(f"tile: argument 'repeat_times' must not be negative (as in "
                              f"Paddle); got: {reps}")
    nd = max(len(reps), x.ndim)
    xs = [1] * (nd - x.ndim) + x.shape
    reps = [1] * (nd - len(reps)) + reps
    xr = reshape_exact(x, [v for r, s in zip(reps, xs) for v in (1, s)], "tile")
    big = broadcast_to(xr, [v for r, s in zip(reps, xs) for v in (r, s)])
    return reshape_exact(big, [r * s for r, s in zip(reps, xs)], "tile")


maths.provide(reshape_exact=reshape_exact, transpose=transpose, concat=concat, flip=flip)
