"""Creating tensors: to_tensor, zeros/ones/full, arange, random tensors, seed."""
import numpy as np

from .. import device as _device
from ..dtypes import convert_dtype, default_float
from ..errors import (ArgumentTypeError, NoneArgumentError, OpArgumentError,
                      PinMemoryError)
from ..tensor import Tensor, _wrap, to_array

_rng = np.random.default_rng()


class Generator:
    """A random generator, as ``paddle.seed`` and ``paddle.manual_seed`` return Paddle's.

    ``manual_seed(s)`` re-seeds it (and returns it), ``initial_seed()`` is the last seed,
    ``get_state()`` / ``set_state(state)`` save and restore the stream. opsdk's random ops
    draw from the default one (``opsdk.seed`` re-seeds it); ``Generator()`` makes another,
    whose stream is its own."""

    def __init__(self, device=None):
        self._seed = 0
        self._rng = np.random.default_rng()

    def manual_seed(self, s):
        global _rng
        self._seed = int(s)
        self._rng = np.random.default_rng(self._seed)
        if self is _generator:
            _rng = self._rng
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        """Re-seed from the operating system's entropy; returns the new seed."""
        return self.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63))).initial_seed()

    def random(self):
        """A random 64-bit integer from the stream (Paddle's Generator.random)."""
        return int(self._rng.integers(0, 2 ** 63))

    def get_state(self):
        return self._rng.bit_generator.state

    def set_state(self, state):
        self._rng.bit_generator.state = state
        return self


_generator = Generator()
_generator._rng = _rng


def seed(seed):
    """Seed every random op of opsdk; returns the Generator (``manual_seed``), as Paddle
    (whose parameter is named seed: ``paddle.seed(seed=1)``)."""
    return _generator.manual_seed(seed)


def get_rng():
    """The generator random ops draw from (re-created by ``seed``)."""
    return _rng


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """Make a Tensor from a number, nested list, NumPy/CuPy array or Tensor (always a copy).

    Python floats become float32 (the default dtype), ints int64, as in Paddle.

    Example:
        >>> x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    """
    t = _wrap(to_array(data, dtype, place))
    t.stop_gradient = stop_gradient
    return t


def _shape_list(shape, op):
    if shape is None:
        return []  # Paddle: a 0-d tensor
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    try:
        if any(isinstance(s, (float, np.floating)) for s in shape):
            raise TypeError  # Paddle: "must be list of int, but got float"
        shape = [int(s.item()) if isinstance(s, Tensor) else int(s) for s in shape]
    except TypeError:
        raise ArgumentTypeError(f"{op}: argument 'shape' must be a list of ints; "
                                f"got: {shape!r}") from None
    if any(s < 0 for s in shape):
        raise OpArgumentError(f"{op}: argument 'shape' must not be negative; got: {shape}")
    return shape


def _make(arr, place, stop_gradient):
    if place is not None:
        arr = _device.move_to(arr, _device.parse_place(place))
    t = _wrap(arr)
    if not stop_gradient:
        t.stop_gradient = False
    return t


def _float_dtype(dtype, op):
    return convert_dtype(dtype, op=op) if dtype is not None else default_float()


def zeros(shape, dtype=None, place=None, stop_gradient=True, name=None):
    return _make(np.zeros(_shape_list(shape, "zeros"), _float_dtype(dtype, "zeros")), place,
                 stop_gradient)


def ones(shape, dtype=None, place=None, stop_gradient=True, name=None):
    return _make(np.ones(_shape_list(shape, "ones"), _float_dtype(dtype, "ones")), place,
                 stop_gradient)


def empty(shape, dtype=None, name=None):
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None, place=None, stop_gradient=True, name=None):
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if dtype is None:
        # Paddle 3.3.1: a bool fill makes a bool tensor, any other number the default float
        # (paddle.full([2], 7) is float32)
        dtype = "bool" if isinstance(fill_value, bool) else default_float()
    return _make(np.full(_shape_list(shape, "full"), fill_value, convert_dtype(dtype, op="full")),
                 place, stop_gradient)


def _like(x, op):
    if x is None:
        # Paddle: "'NoneType' object has no attribute 'dtype'", an AttributeError
        raise NoneArgumentError(f"{op}: argument 'x' is required; expected: a Tensor; got: None")
    return x if isinstance(x, Tensor) else to_tensor(x)


def zeros_like(x, dtype=None, name=None):
    x = _like(x, "zeros_like")
    return _wrap(np.zeros_like(x._data, dtype=convert_dtype(dtype)))


def ones_like(x, dtype=None, name=None):
    x = _like(x, "ones_like")
    return _wrap(np.ones_like(x._data, dtype=convert_dtype(dtype)))


def full_like(x, fill_value, dtype=None, name=None):
    x = _like(x, "full_like")
    return _wrap(np.full_like(x._data, fill_value, dtype=convert_dtype(dtype)))


def empty_like(x, dtype=None, name=None):
    return zeros_like(x, dtype)


def arange(start=0, end=None, step=1, dtype=None, name=None):
    """Values from start (inclusive) to end (exclusive) in steps; ints give int64."""
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if vals[2] == 0:
        raise OpArgumentError("arange: argument 'step' must not be 0 (as in Paddle); got: "
                              f"{vals[2]!r}")
    if dtype is None:
        dtype = "int64" if all(isinstance(v, (int, np.integer)) for v in vals) else default_float()
    return _wrap(np.arange(*vals, dtype=convert_dtype(dtype, op="arange")))


def linspace(start, stop, num, dtype=None, name=None):
    if isinstance(num, (int, np.integer)) and num < 0:
        raise OpArgumentError(f"linspace: argument 'num' must not be negative; got: {num}")
    return _wrap(np.linspace(start, stop, int(num), dtype=_float_dtype(dtype, "linspace")))


def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """base ** linspace(start, stop, num): num points spaced evenly on a log scale."""
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, stop, num, base)]
    dtype = _float_dtype(dtype, "logspace")
    powers = np.power(float(vals[3]), np.linspace(vals[0], vals[1], int(vals[2])))
    return _wrap(powers.astype(dtype))


def eye(num_rows, num_columns=None, dtype=None, name=None):
    for arg, n in (("num_rows", num_rows), ("num_columns", num_columns)):
        if n is not None and (isinstance(n, (float, np.floating, bool)) or n < 0):
            # Paddle: "num_rows should be a non-negative int", a TypeError
            raise ArgumentTypeError(f"eye: argument '{arg}' must be a non-negative int; got: "
                                    f"{n!r}")
    return _wrap(np.eye(num_rows, num_columns, dtype=_float_dtype(dtype, "eye")))


def rand(shape, dtype=None, name=None):
    """Uniform samples in [0, 1)."""
    return _wrap(_rng.random(_shape_list(shape, "rand")).astype(_float_dtype(dtype, "rand")))


def randn(shape, dtype=None, name=None):
    """Standard normal samples."""
    return _wrap(_rng.standard_normal(_shape_list(shape, "randn")).astype(
        _float_dtype(dtype, "randn")))


def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None):
    return _wrap(_rng.uniform(min, max, _shape_list(shape, "uniform")).astype(
        _float_dtype(dtype, "uniform")))


def normal(mean=0.0, std=1.0, shape=None, name=None):
    return _wrap(_rng.normal(mean, std, _shape_list(shape or [1], "normal")).astype(
        default_float()))


def randint(low=0, high=None, shape=(1,), dtype=None, name=None):
    if high is None:
        low, high = 0, low
    return _wrap(_rng.integers(low, high, _shape_list(shape, "randint")).astype(
        convert_dtype(dtype or "int64")))


def randperm(n, dtype="int64", name=None):
    return _wrap(_rng.permutation(int(n)).astype(convert_dtype(dtype)))


def from_dlpack(obj):
    """A Tensor sharing memory with a DLPack-capable array (PyTorch, JAX, CuPy, NumPy)."""
    if hasattr(obj, "__dlpack_device__") and obj.__dlpack_device__()[0] != 1:
        arr = _device.cupy_module().from_dlpack(obj)
    else:
        arr = np.from_dlpack(obj)
    return _wrap(arr)


def to_dlpack(x):
    return x._data.__dlpack__()


def placed(t, device, requires_grad, pin_memory, op):
    """t on device, needing a gradient when asked (Paddle: requires_grad=True is
    stop_gradient=False, integer tensors too)."""
    if pin_memory:
        raise PinMemoryError(f"{op}: pin_memory=True: opsdk has no pinned host memory (Paddle's "
                             f"CPU build: 'Pinning memory is not supported for Place(cpu)')")
    if device is not None:
        place = _device.parse_place(device)
        if _device.place_of(t._data) != place:
            t = _wrap(_device.move_to(t._data, place))
    if requires_grad:
        t.stop_gradient = False
    return t
