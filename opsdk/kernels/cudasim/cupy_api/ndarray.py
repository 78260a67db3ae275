"""The simulator's ``cupy.ndarray``: a NumPy array in simulated device memory, CuPy's rules on top.

What NumPy computes on it runs on the host, but the rules are CuPy's: no implicit transfer to
or from NumPy arrays (``numpy.asarray(x)`` raises, as it does for a real CuPy array; use
``x.get()``), reductions and indexing return 0-d device arrays, results are allocated on the
current device and operands must live there, and ``__cuda_array_interface__`` / DLPack say CUDA.
"""
import numpy
from numpy.lib.mixins import NDArrayOperatorsMixin

from ..memory import buffer_of, device_copy, device_empty
from . import cuda

_ndarray = numpy.ndarray
_KDLCUDA = 2


class ndarray(NDArrayOperatorsMixin):
    """A CUDA array, simulated on the CPU (``cupy.ndarray`` while the simulator is on)."""

    __slots__ = ("_a",)
    __array_priority__ = 100
    simulated = True  # says so: a real cupy.ndarray has no such attribute

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
        if memptr is None:
            self._a = device_empty(shape, dtype, cuda.current_device_id(), order=order)
        else:
            base = memptr.mem.bytes_view()
            self._a = _ndarray(shape, dtype, buffer=base, offset=memptr.offset, strides=strides, order=order)

    # -- what the array is ------------------------------------------------------------------
    shape = property(lambda self: self._a.shape)

    @shape.setter
    def shape(self, value):
        self._a.shape = value

    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    nbytes = property(lambda self: self._a.nbytes)
    itemsize = property(lambda self: self._a.itemsize)
    strides = property(lambda self: self._a.strides)
    flags = property(lambda self: _Flags(self._a.flags))
    T = property(lambda self: wrap(self._a.T))
    real = property(lambda self: wrap(self._a.real))
    imag = property(lambda self: wrap(self._a.imag))

    @property
    def device(self):
        return cuda.Device(self._buffer().device)

    @property
    def data(self):
        buf = self._buffer()
        return cuda.MemoryPointer(buf, self._a.__array_interface__["data"][0] - buf.ptr)

    @property
    def base(self):
        return None

    def _buffer(self):
        return buffer_of(self._a)

    @property
    def __cuda_array_interface__(self):
        # NumPy's own interface has the same shape, typestr, descr and strides (None when C
        # contiguous); made once here (generic code asks hasattr(x, "__cuda_array_interface__"))
        a = self._a.__array_interface__
        return {"shape": a["shape"], "typestr": a["typestr"], "descr": a["descr"],
                "data": (a["data"][0], False), "version": 3, "strides": a["strides"],
                "stream": cuda.get_current_stream().ptr or 1}

    def __dlpack_device__(self):
        return (_KDLCUDA, self._buffer().device)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # a NumPy (kDLCPU) capsule over the same memory: only this simulator's from_dlpack reads it
        return self._a.__dlpack__()

    def toDlpack(self):
        return self.__dlpack__()

    # -- no implicit transfers --------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
                        "construct a NumPy array explicitly. (opsdk CUDA simulator, as CuPy)")

    def get(self, stream=None, order="C", out=None, blocking=True):
        """A NumPy copy of the array (device to host)."""
        if out is not None:
            out[...] = self._a
            return out
        return numpy.array(self._a, order=order, copy=True)

    def set(self, arr, stream=None):
        """Copy a NumPy array of the same shape into this one (host to device)."""
        arr = numpy.asarray(arr)
        if arr.shape != self.shape:
            raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
        self._a[...] = arr

    def copy(self, order="C"):
        return wrap_new(numpy.array(self._a, order=order, copy=True))

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        if not copy and numpy.dtype(dtype) == self.dtype:
            return self
        kwargs = {} if casting is None else {"casting": casting}
        return wrap_new(self._a.astype(dtype, order=order, **kwargs))

    def view(self, dtype=None, type=None):
        return wrap(self._a.view() if dtype is None else self._a.view(dtype))

    def item(self, *args):
        return self._a.item(*args)

    def tolist(self):
        return self._a.tolist()

    def fill(self, value):
        self._a.fill(_host_scalar(value))

    # -- NumPy's machinery, CuPy's rules ------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = kwargs.get("out")
        args = [unwrap(x, ufunc.__name__) for x in inputs]
        if out is not None:
            kwargs["out"] = tuple(unwrap(o, ufunc.__name__) for o in out)
        for key in ("where",):
            if key in kwargs:
                kwargs[key] = unwrap(kwargs[key], ufunc.__name__)
        _same_device(inputs, ufunc.__name__)
        result = getattr(ufunc, method)(*args, **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return wrap(result)

    def __array_function__(self, func, types, args, kwargs):
        name = getattr(func, "__name__", "function")
        _same_device(args, name)
        return wrap(func(*unwrap(args, name), **unwrap(kwargs, name)))

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self._a, name)
        if not callable(value):
            return wrap(value)

        def method(*args, **kwargs):
            _same_device((self,), name)
            return wrap(value(*unwrap(args, name), **unwrap(kwargs, name)))

        method.__name__ = name
        return method

    def __getitem__(self, key):
        return wrap(self._a[_index(key)])

    def __setitem__(self, key, value):
        if not isinstance(value, _ndarray):  # a NumPy array is copied in, as CuPy does
            value = unwrap(value, "__setitem__")
        self._a[_index(key)] = value

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (wrap(self._a[i]) for i in range(len(self._a)))

    def __contains__(self, value):
        return bool((self._a == unwrap(value, "__contains__")).any())

    def __bool__(self):
        return bool(self._a)

    def __float__(self):
        return float(self._a)

    def __int__(self):
        return int(self._a)

    def __index__(self):
        return self._a.__index__()

    def __complex__(self):
        return complex(self._a)

    def __repr__(self):
        return repr(self._a)

    def __str__(self):
        return str(self._a)

    def __format__(self, spec):
        return format(self._a, spec) if self.ndim == 0 else format(str(self), spec)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_rebuild, (self.get(), self._buffer().device))

    __hash__ = None


ndarray.__module__ = "cupy"


def _rebuild(host, device):
    with cuda.Device(device):
        return wrap_new(host)


def _host_scalar(value):
    return value._a.item() if isinstance(value, ndarray) else value


def _devices(obj, found):
    if isinstance(obj, ndarray):
        buf = obj._buffer()
        if buf is not None:
            found.add(buf.device)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            _devices(x, found)
    elif isinstance(obj, dict):
        for x in obj.values():
            _devices(x, found)


def _same_device(objs, what):
    """ValueError (CuPy's) when an operand is not on the current device."""
    if cuda.device_count() == 1:
        return  # one device: every array lives on it, and it is the current one
    found = set()
    _devices(objs, found)
    current = cuda.current_device_id()
    for device in found:
        if device != current:
            raise ValueError(f"Array device must be same as the current device: array device = {device} "
                             f"while current = {current} ({what}; opsdk CUDA simulator, as CuPy)")


def _index(key):
    """An index for the NumPy array: device arrays unwrapped; lists and NumPy arrays are taken
    as they are (CuPy copies them to the device)."""
    if isinstance(key, ndarray):
        return key._a
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    return key


def unwrap(obj, what="operation"):
    """NumPy arrays of the device arrays in obj (recursively); host arrays are refused, as in CuPy."""
    if isinstance(obj, ndarray):
        return obj._a
    if type(obj) is _ndarray and obj.ndim > 0:
        raise TypeError(f"Unsupported type {_ndarray} in {what}: a NumPy (host) array mixed with "
                        f"CuPy arrays; move it first with cupy.asarray (opsdk CUDA simulator, as CuPy)")
    if isinstance(obj, tuple):
        return tuple(unwrap(x, what) for x in obj)
    if isinstance(obj, list):
        return [unwrap(x, what) for x in obj]
    if isinstance(obj, dict):
        return {k: unwrap(v, what) for k, v in obj.items()}
    return obj


def wrap(result):
    """Device arrays of NumPy results: views stay views, new arrays and scalars go to the device."""
    if isinstance(result, _ndarray):
        if buffer_of(result) is not None:
            return _adopt(result)
        return wrap_new(result)
    if isinstance(result, numpy.generic):
        return wrap_new(numpy.asarray(result))
    if isinstance(result, tuple):
        return tuple(wrap(x) for x in result)
    if isinstance(result, list):
        return [wrap(x) for x in result]
    return result


def _writable(flags):
    """flags.writeable, without the FutureWarning NumPy prints when it is read on a view from
    broadcast_arrays (writable, with a warning on write: _writeable_no_warn reads it silently)."""
    try:
        return flags._writeable_no_warn
    except AttributeError:  # a NumPy without the silent read
        return flags.writeable


def _adopt(a):
    """A device array object over ``a`` (whose memory is already device memory).

    Device memory is always writable (CuPy has no read-only arrays): a read-only NumPy view,
    such as broadcast_to makes, is re-made writable over the same memory.
    """
    if not _writable(a.flags):
        buf = buffer_of(a)
        a = _ndarray(a.shape, a.dtype, buffer=buf.bytes_view(),
                     offset=a.__array_interface__["data"][0] - buf.ptr, strides=a.strides)
    out = ndarray.__new__(ndarray)
    out._a = a
    return out


class _Flags:
    """CuPy's flags: c_contiguous, f_contiguous, owndata (no writeable: device memory always is)."""

    __slots__ = ("c_contiguous", "f_contiguous", "owndata")

    def __init__(self, flags):
        self.c_contiguous, self.f_contiguous, self.owndata = flags.c_contiguous, flags.f_contiguous, flags.owndata

    def __getitem__(self, key):
        return {"C_CONTIGUOUS": self.c_contiguous, "F_CONTIGUOUS": self.f_contiguous,
                "OWNDATA": self.owndata}[key.upper()]

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}")


def wrap_new(host):
    """A device array holding a copy of ``host``, on the current device."""
    return _adopt(device_copy(host, cuda.current_device_id()))


def empty(shape, dtype=float, order="C", fill="uninitialised"):
    """A fresh device array on the current device (uninitialised: a NaN pattern)."""
    return _adopt(device_empty(shape if not isinstance(shape, (int, numpy.integer)) else (shape,),
                               dtype, cuda.current_device_id(), fill=fill, order=order))
