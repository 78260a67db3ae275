"""CuPy's top-level functions in the simulator: creation, transfers, DLPack, and NumPy's maths.

Every NumPy function is reachable as ``cupy.<name>``: its device-array arguments are handed to
NumPy and its results come back as device arrays (a NumPy array argument is refused, as CuPy
does). Creation and transfer functions are written out, since they decide where memory lives.
"""
import functools

import numpy

from opsdk.errors import UnsupportedError

from ..memory import buffer_of
from . import cuda
from .ndarray import _adopt, _same_device, empty as _empty, ndarray, unwrap, wrap, wrap_new

_LIKE = ("empty_like", "zeros_like", "ones_like", "full_like")


def asarray(a, dtype=None, order=None, *, blocking=False):
    """``a`` as a device array on the current device: no copy when it already is one there."""
    if isinstance(a, ndarray):
        if a._buffer().device != cuda.current_device_id():
            return wrap_new(numpy.asarray(a._a, dtype=dtype, order=order))
        return a if dtype is None or numpy.dtype(dtype) == a.dtype else a.astype(dtype)
    host = numpy.asarray(a, dtype=dtype, order=order)
    return wrap_new(host)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    """A device array copy of ``obj`` (a device array, NumPy array or nested sequence)."""
    if isinstance(obj, ndarray):
        host = numpy.array(obj._a, dtype=dtype, copy=True, order=order, ndmin=ndmin)
        if not copy and host.dtype == obj.dtype and host.shape == obj.shape:
            return obj
        return wrap_new(host)
    return wrap_new(numpy.array(obj, dtype=dtype, order=order, ndmin=ndmin))


def asanyarray(a, dtype=None, order=None):
    return asarray(a, dtype, order)


def ascontiguousarray(a, dtype=None):
    a = asarray(a, dtype)
    return a if a.flags.c_contiguous else wrap_new(numpy.ascontiguousarray(a._a))


def asfortranarray(a, dtype=None):
    a = asarray(a, dtype)
    return a if a.flags.f_contiguous else wrap_new(numpy.asfortranarray(a._a))


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """A NumPy array of ``a`` (copied from the device; NumPy arrays pass through)."""
    if isinstance(a, ndarray):
        return a.get(order=order, out=out)
    host = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = host
        return out
    return host


def get_array_module(*args):
    """The simulated ``cupy`` module if any argument is a device array, else ``numpy``."""
    import sys

    return sys.modules["cupy"] if any(isinstance(a, ndarray) for a in args) else numpy


def from_dlpack(obj, *, device=None, copy=None):
    """A device array sharing memory with a DLPack-capable object on a simulated device."""
    if isinstance(obj, ndarray):
        return _adopt(obj._a.view())
    kind, device_id = obj.__dlpack_device__()
    if kind != 2:
        raise RuntimeError(f"CuPy takes CUDA arrays through DLPack; got device type {kind} "
                           "(a host array: use cupy.asarray) (opsdk CUDA simulator)")
    host = numpy.from_dlpack(_HostCapsule(obj.__dlpack__()))
    return _adopt(_into_buffer(host))


class _HostCapsule:
    """Hands NumPy the capsule of a simulated device array (its memory is host memory)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def _into_buffer(view):
    """``view`` re-based on the DeviceBuffer that owns its memory (so it stays a device array)."""
    from ..memory import owner

    if buffer_of(view) is not None:
        return view
    ptr = view.__array_interface__["data"][0]
    found = owner(ptr)
    if found is None:
        raise RuntimeError("from_dlpack: the capsule's memory is no simulated device allocation")
    buf = found[0]
    return numpy.ndarray(view.shape, view.dtype, buffer=buf.bytes_view(), offset=ptr - buf.ptr,
                         strides=view.strides)


def fromDlpack(capsule):
    raise UnsupportedError("cupy.fromDlpack(capsule) is not simulated; use cupy.from_dlpack(array)")


def empty(shape, dtype=float, order="C"):
    return _empty(shape, dtype, order)


def zeros(shape, dtype=float, order="C"):
    return _empty(shape, dtype, order, fill="zeros")


def empty_like(prototype, dtype=None, order="K", subok=None, shape=None):
    proto = prototype._a if isinstance(prototype, ndarray) else numpy.asarray(prototype)
    return _empty(proto.shape if shape is None else shape, proto.dtype if dtype is None else dtype,
                  "C" if order in ("K", "A") else order)


def _numpy_function(name):
    """``cupy.<name>`` for a NumPy function or ufunc."""
    target = getattr(numpy, name)
    like = name in _LIKE

    @functools.wraps(target)
    def call(*args, **kwargs):
        if like and args and type(args[0]) is numpy.ndarray:
            args = (args[0].view(),) + args[1:]
            return wrap_new(target(*args, **kwargs))
        _same_device((args, kwargs), name)
        return wrap(target(*unwrap(args, name), **unwrap(kwargs, name)))

    return call


def fuse(*args, **kwargs):
    """``cupy.fuse``: the function runs unfused."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


class _Unsupported:
    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise UnsupportedError(f"cupy.{self.name} is not simulated by the opsdk CUDA simulator: "
                               "write the kernel as a RawKernel / RawModule")


ElementwiseKernel = _Unsupported("ElementwiseKernel")
ReductionKernel = _Unsupported("ReductionKernel")
