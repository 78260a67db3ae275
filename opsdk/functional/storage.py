"""A tensor's storage, as Paddle 3.3.1 exposes it: ``x.data`` (the values cut from the graph,
and assignable), ``x.grad_`` (``x.grad``), ``x.resize_`` (a new shape, values kept in order,
zero-padded), ``x.set_`` (x shares another tensor's memory), and the typed constructors
``FloatTensor``, ``LongTensor``, ... (PyTorch's spellings: data -> a tensor of that dtype,
sizes -> zeros of that shape)."""
import numpy as np

from ..autograd.grad_mode import no_grad
from ..dtypes import convert_dtype
from ..errors import ArgumentTypeError, ShapeError
from ..tensor import Tensor, _wrap
from . import shape as _shape
from . import views
from .creation import to_tensor, zeros


def _get_data(self):
    return self.detach()


def _set_data(self, value):
    value = value if isinstance(value, Tensor) else to_tensor(value)
    with no_grad():
        if value._data.shape == self._data.shape and value._data.dtype == self._data.dtype:
            views._copy_into(self._data, value._data)
        else:
            views.take_result(self, _wrap(value._data.copy()), "Tensor.data", graph=False)


data = property(_get_data, _set_data, doc="The values, cut from the graph (stop_gradient=True, "
                                          "sharing memory); assigning writes new values")


def _set_grad(self, value):
    self.grad = value


grad_ = property(lambda self: self.grad, _set_grad, doc="x.grad (Paddle's other name)")


def resized(x, shape, fill_zero=False, name=None):
    """x's values in order, cut or padded with zeros to fill shape (resize_'s result; Paddle
    leaves the padding uninitialized unless fill_zero, opsdk always zeroes it). The gradient
    goes to the values kept (Paddle 3.3.1's has the new shape, which is no derivative)."""
    dims = [int(d) for d in shape]
    if any(d < 0 for d in dims):
        raise ShapeError(f"resize_: the shape must not be negative; got: {dims}")
    n = int(np.prod(dims))
    flat = _shape.reshape(x, [-1])
    have = flat._data.shape[0]
    if n <= have:
        flat = flat[:n]
    else:
        flat = _shape.concat([flat, _wrap(np.zeros(n - have, x._data.dtype))])
    return _shape.reshape(flat, dims)


def set_(x, source=None, shape=None, stride=None, offset=0, name=None):
    """x shares source's memory from now on (shape and stride, in elements, and offset, in
    bytes as Paddle's, pick a strided window of it); no source: x becomes an empty tensor of
    its dtype. No gradient. A window reaching past the source is refused (Paddle reads beyond
    it)."""
    if source is None:
        arr = np.zeros([0], x._data.dtype)
    else:
        if not isinstance(source, Tensor):
            raise ArgumentTypeError(f"set_: source must be a Tensor; got: "
                                    f"{type(source).__name__}")
        arr = source._data
        if shape is not None or offset:
            dims = [int(d) for d in (arr.shape if shape is None else shape)]
            if stride is None:
                stride = [int(np.prod(dims[i + 1:])) for i in range(len(dims))]
            flat = arr.reshape(-1)
            _strided_positions(flat.size, dims, stride, int(offset), flat.itemsize, "set_")
            arr = np.lib.stride_tricks.as_strided(
                flat[int(offset) // flat.itemsize:], dims, [s * flat.itemsize for s in stride])
    return views.take_result(x, _wrap(arr), "set_", graph=False)


def _is_shared_buffer_with(x, other):
    """True when x and other share memory (Paddle's private method, which its set_ docstring
    shows: after ``x.set_(src)`` it is True)."""
    if not isinstance(other, Tensor):
        raise ArgumentTypeError(f"_is_shared_buffer_with: other must be a Tensor; got: "
                                f"{type(other).__name__}")
    a, b = x._data, other._data
    return a.size > 0 and b.size > 0 and bool(np.shares_memory(a, b))


def _strided_positions(numel, shape, stride, offset, itemsize, op):
    """The flat element positions of a strided window (offset in bytes, as Paddle's)."""
    dims = [int(d) for d in shape]
    strides = [int(s) for s in stride]
    if len(dims) != len(strides) or any(d < 0 for d in dims):
        raise ShapeError(f"{op}: shape and stride need one non-negative entry per dimension; "
                         f"got: shape {dims}, stride {strides}")
    if offset % itemsize:
        raise ShapeError(f"{op}: offset is in bytes and must be a multiple of the item size "
                         f"({itemsize}); got: {offset}")
    start = offset // itemsize
    pos = np.full(dims, start, np.int64)
    for axis, (d, s) in enumerate(zip(dims, strides)):
        pos = pos + (np.arange(d) * s).reshape([-1 if a == axis else 1 for a in range(len(dims))])
    if pos.size and (pos.min() < 0 or pos.max() >= numel):
        raise ShapeError(f"{op}: shape {dims}, stride {strides} and offset {offset} reach past "
                         f"the tensor's {numel} elements")
    return pos


def as_strided(x, shape, stride, offset=0, name=None):
    """The window of x's flat elements at offset (in bytes, as Paddle's) + sum(i_k stride_k):
    a copy (Paddle's is a view), with the gradient of a gather: overlapping positions add up
    (Paddle 3.3.1's keeps the last one written, which is not a derivative)."""
    from .manipulation import take
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"as_strided: x must be a Tensor; got: {type(x).__name__}")
    pos = _strided_positions(x._data.size, shape, stride, int(offset), x._data.itemsize,
                             "as_strided")
    return take(x, _wrap(pos))


def typed_factory(name, dtype):
    """Paddle's ``<name>(...)``: () -> an empty tensor; a list -> a tensor of it in dtype; ints
    -> zeros of that shape; an array or tensor -> a copy in its own dtype."""
    dt = convert_dtype(dtype)

    def make(cls, *args, **kwargs):
        if not args:
            return zeros([0], dt)
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return to_tensor(args[0], dtype=dt)
        if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            return zeros(list(args), dt)
        return to_tensor(*args, **kwargs)
    return type(name, (), {"__new__": make, "__doc__": make.__doc__ or typed_factory.__doc__})


TYPED = {"BoolTensor": "bool", "ByteTensor": "uint8", "CharTensor": "int8",
         "ShortTensor": "int16", "IntTensor": "int32", "LongTensor": "int64",
         "HalfTensor": "float16", "FloatTensor": "float32", "DoubleTensor": "float64"}
