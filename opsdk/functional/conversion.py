"""Conversions and small tensor helpers of Paddle 3.3.1 that everyday code reaches for: the
dtype methods (``x.float()``, ``x.long()``, ...), ``Tensor.to``, ``requires_grad``,
``as_tensor`` / ``asarray`` / ``from_numpy``, ``tolist``, ``view`` by shape or dtype,
``broadcast_shape(s)``, ``finfo`` / ``iinfo``, ``repeat``, ``split_with_sizes``,
``fill_diagonal_``, ``reduce_as``.

Conversions that change the dtype are ``cast`` (a graph op: the gradient is cast back); one
that changes nothing returns the tensor itself, as Paddle's do.
"""
import numpy as np

from ..device import Place, parse_place
from ..dtypes import DType, convert_dtype, shown
from ..errors import ArgumentTypeError, DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap
from . import shape as _shape
from .casting import cast
from .creation import to_tensor

# Tensor.<method>() -> the dtype Paddle converts to
DTYPE_METHODS = {
    "bool": "bool", "byte": "uint8", "char": "int8", "short": "int16", "int": "int32",
    "long": "int64", "half": "float16", "float": "float32", "double": "float64",
    "uint8": "uint8", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "float16": "float16", "float32": "float32", "float64": "float64",
}


def dtype_method(name, dtype):
    """``x.<name>()``: x in dtype (x itself when it has it already, as Paddle)."""
    target = convert_dtype(dtype)

    def method(self):
        if self._data.dtype == target:
            return self
        return cast(self, target)
    method.__name__ = name
    method.__doc__ = f"x as {dtype} (``x.astype('{dtype}')``); x itself when it is {dtype}."
    return method


_DEVICE_WORDS = ("cpu", "gpu", "cuda", "xpu", "npu", "dcu")


def _is_device_string(s):
    return s.split(":", 1)[0].lower() in _DEVICE_WORDS


def to(self, *args, **kwargs):
    """x in another dtype and/or on another device: ``to(dtype)``, ``to(device, dtype=None)``,
    ``to(other_tensor)`` (its dtype and place); ``blocking`` is accepted and ignored. x itself
    when nothing changes, as Paddle's Tensor.to.

    Example:
        >>> opsdk.to_tensor([1, 2]).to("float64").dtype
        paddle.float64
    """
    dtype = kwargs.pop("dtype", None)
    device = kwargs.pop("device", None)
    other = kwargs.pop("other", None)
    kwargs.pop("blocking", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("copy", None)
    if kwargs:
        raise ArgumentTypeError(f"Tensor.to: unexpected keyword arguments {sorted(kwargs)} "
                                f"(expected: dtype, device, blocking)")
    for a in args:
        if isinstance(a, Tensor):
            other = a
        elif isinstance(a, bool):  # blocking, positional
            continue
        elif isinstance(a, Place):
            device = a
        elif isinstance(a, str) and _is_device_string(a):
            device = a
        elif isinstance(a, (str, DType, np.dtype, type)):
            try:
                dtype = convert_dtype(a, op="Tensor.to")
            except DTypeError:
                # Paddle reads a string that is no dtype as a device, and refuses it
                raise OpArgumentError(
                    f"Tensor.to: {a!r} is neither a dtype nor a device; expected: a dtype "
                    f"such as 'float32', or a device 'cpu', 'gpu', 'gpu:x'") from None
        else:
            raise OpArgumentError(f"Tensor.to: device value error, must be str or a Place, "
                                  f"but the type of device is {type(a).__name__}")
    if other is not None:
        dtype, device = other._data.dtype, other.place
    out = self
    if device is not None:
        place = parse_place(device)
        if place != self.place:
            out = self.cpu() if place.kind == "cpu" else self.cuda(place.index)
    if dtype is not None and convert_dtype(dtype, op="Tensor.to") != out._data.dtype:
        out = cast(out, dtype)
    return out


def _get_requires_grad(self):
    return not self.stop_gradient


def _set_requires_grad(self, value):
    self.stop_gradient = not bool(value)


requires_grad = property(_get_requires_grad, _set_requires_grad,
                         doc="not stop_gradient (PyTorch's name, as Paddle has it)")


def requires_grad_(self, requires_grad=True):
    """Set ``stop_gradient = not requires_grad``; returns the tensor."""
    self.stop_gradient = not bool(requires_grad)
    return self


def _data_array(data, dtype, op):
    if isinstance(data, Tensor):
        return data
    return to_tensor(data, dtype=dtype)


def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor of data (a copy, as Paddle 3.3.1's on the CPU), in dtype, on device."""
    out = to_tensor(data, dtype=dtype, place=device)
    out.stop_gradient = not requires_grad
    return out


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """As as_tensor (Paddle 3.3.1 makes a new tensor of a tensor too)."""
    return as_tensor(obj, dtype=dtype, device=device, requires_grad=requires_grad)


def from_numpy(ndarray):
    """A tensor of a NumPy array's values and dtype (a copy, as Paddle's on the CPU)."""
    if not isinstance(ndarray, np.ndarray):
        raise ArgumentTypeError(f"from_numpy: the input must be numpy.ndarray, but received "
                                f"{type(ndarray)}; use opsdk.to_tensor for other types")
    return to_tensor(ndarray)


def tolist(x):
    """x's values as nested Python lists (a 0-d tensor: a number)."""
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"tolist: x must be a Tensor; got: {type(x).__name__}")
    return x.tolist()


def view(x, shape_or_dtype, name=None):
    """x with another shape over the same values (``reshape``), or x's bytes read as another
    dtype (the last axis scales by the ratio of the item sizes; no gradient through it)."""
    if isinstance(shape_or_dtype, (list, tuple, Tensor)) or (
            isinstance(shape_or_dtype, (int, np.integer)) and not isinstance(shape_or_dtype, bool)):
        return _shape.reshape(x, shape_or_dtype)
    dt = convert_dtype(shape_or_dtype, op="view", arg="shape_or_dtype")
    src = x._data.dtype
    if x.ndim == 0 and dt.itemsize != src.itemsize:
        raise ShapeError(f"view: a 0-d tensor keeps its item size; expected: a dtype of "
                         f"{src.itemsize} bytes; got: {dt} ({dt.itemsize} bytes)")
    if x.ndim and (x._data.shape[-1] * src.itemsize) % dt.itemsize:
        raise ShapeError(f"view: the last axis of {x.shape[-1]} x {src.itemsize} bytes does "
                         f"not divide into items of {dt} ({dt.itemsize} bytes)")
    return _wrap(np.ascontiguousarray(x._data).view(dt))


def broadcast_shape(x_shape, y_shape):
    """The shape two shapes broadcast to (NumPy's rule, as Paddle's)."""
    return broadcast_shapes(x_shape, y_shape, op="broadcast_shape")


def broadcast_shapes(*shapes, op="broadcast_shapes"):
    """The shape all of shapes broadcast to ([] for none)."""
    out = []
    for s in shapes:
        s = [int(d) for d in (s.tolist() if isinstance(s, Tensor) else s)]
        a, b = out[::-1], s[::-1]
        merged = []
        for i in range(max(len(a), len(b))):
            da = a[i] if i < len(a) else 1
            db = b[i] if i < len(b) else 1
            if da != db and 1 not in (da, db):
                raise ShapeError(f"{op}: shapes {out} and {s} do not broadcast; expected: equal "
                                 f"sizes or 1 at each axis; got: {da} and {db}")
            merged.append(db if da == 1 else da)
        out = merged[::-1]
    return out


def _dtype_of_kind(dtype, op, kinds, what):
    d = convert_dtype(dtype, op=op)
    if d.kind not in kinds:
        raise OpArgumentError(f"{op}: the argument must be {what}; got: {shown(d)}")
    return d


class finfo:
    """Machine limits of a float dtype, as paddle.finfo: min, max, eps, resolution,
    smallest_normal, tiny, bits, dtype (the dtype's name)."""

    def __init__(self, dtype):
        info = np.finfo(_dtype_of_kind(dtype, "finfo", "fc",
                                       "a float dtype (float16, float32, float64)"))
        self.min, self.max, self.eps = float(info.min), float(info.max), float(info.eps)
        self.resolution = 10.0 ** -int(info.precision)
        self.smallest_normal = self.tiny = float(info.smallest_normal)
        self.bits = int(info.bits)
        self.dtype = info.dtype.name

    def __repr__(self):
        return (f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"resolution={self.resolution:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype, as paddle.iinfo: min, max, bits, dtype (its name)."""

    def __init__(self, dtype):
        d = _dtype_of_kind(dtype, "iinfo", "iu",
                           "an integer dtype (int8, int16, int32, int64, uint8)")
        info = np.iinfo(d)
        self.min, self.max, self.bits, self.dtype = int(info.min), int(info.max), \
            int(info.bits), d.name

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


def repeat(input, repeats):
    """input tiled repeats times along each axis (Paddle's Tensor.repeat is ``tile``: fewer
    repeats than axes repeat the last axes)."""
    if isinstance(repeats, Tensor):
        repeats = repeats.tolist()
    if isinstance(repeats, (int, np.integer)):
        repeats = [int(repeats)]
    return _shape.tile(input, list(repeats))


def split_with_sizes(self, split_sizes, dim=0):
    """x split along dim into parts of split_sizes (which must add up to its size there)."""
    sizes = [int(s) for s in split_sizes]
    n = self._data.shape[dim]
    if sum(sizes) != n:
        raise ShapeError(f"split_with_sizes: split sizes add up to {sum(sizes)} but got the "
                         f"tensor's size of {n}")
    return _shape.split(self, sizes, axis=dim)


def _diagonal_mask(shape, offset, wrap, op):
    """Paddle's fill_diagonal_ positions: every (sum of strides)-th element of the flat tensor,
    shifted by offset within its row; without wrap a tall matrix stops after its square top."""
    if len(shape) < 2:
        raise ShapeError(f"{op}: expected: a tensor of 2 or more dimensions; got: {len(shape)}")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ShapeError(f"{op}: every dimension must be of equal length when the tensor has "
                         f"more than 2; got: shape {list(shape)}")
    numel = int(np.prod(shape))
    cols = shape[-1]
    step = sum(int(np.prod(shape[i + 1:])) for i in range(len(shape)))
    size = min(numel, cols * cols) if (not wrap and len(shape) == 2) else numel
    mask = np.zeros(numel, bool)
    i = np.arange(0, size, step) if step else np.arange(0)
    i = i[(i % cols + offset >= 0) & (i % cols + offset < cols)]
    mask[i + offset] = True
    return mask.reshape(shape)


def fill_diagonal(x, value, offset=0, wrap=False, name=None):
    """x with Paddle's fill_diagonal_ positions set to value (no gradient there)."""
    from .logic import where
    mask = _diagonal_mask(tuple(x._data.shape), int(offset), bool(wrap), "fill_diagonal_")
    fill = _wrap(np.asarray(value, dtype=x._data.dtype))
    return where(_wrap(mask), fill, x)


def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """x with its diagonal (offset, dim1, dim2) replaced by y (``diagonal_scatter``)."""
    from .placement import diagonal_scatter
    return diagonal_scatter(x, y, offset, dim1, dim2)


def reduce_as(x, target, name=None):
    """x summed down to target's shape (the axes broadcasting added or stretched)."""
    if not isinstance(target, Tensor) or not isinstance(x, Tensor):
        raise ArgumentTypeError("reduce_as: x and target must be Tensors")
    from .reduction import sum as _sum
    want = list(target._data.shape)
    have = list(x._data.shape)
    if broadcast_shapes(have, want, op="reduce_as") != have:
        raise ShapeError(f"reduce_as: target's shape {want} does not broadcast to x's {have}")
    lead = len(have) - len(want)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(want) if d == 1 and
                                have[lead + i] != 1]
    if not axes:
        return x
    out = _sum(x, axis=axes, keepdim=True)
    return _shape.reshape(out, want) if lead else out


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """How tensors print: digits after the point, the element count above which the middle is
    elided, the items kept at each edge then, scientific notation (True, False, None: as
    fits), the line width. Options left None keep their value."""
    from .. import tensor
    opts = tensor.PRINT_OPTIONS
    for key, value in (("precision", precision), ("threshold", threshold),
                       ("edgeitems", edgeitems), ("max_line_width", linewidth)):
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ArgumentTypeError(f"set_printoptions: {key} must be an int; got: "
                                        f"{type(value).__name__}")
            opts[key] = value
    if sci_mode is not None:
        opts.pop("formatter", None)
        opts.pop("suppress_small", None)
        if sci_mode:
            digits = opts.get("precision", 8)
            opts["formatter"] = {"float_kind": lambda v: f"{v:.{digits}e}"}
        else:
            opts["suppress_small"] = True
