"""Output arrays of kernels: NumPy ones recycled when large, CuPy ones from CuPy's own pool.

Adapters allocate what a kernel writes here (``empty``, ``empty_like``), so every output comes
from one place: the verifier can fill it with NaN first, and large NumPy outputs are recycled.

glibc serves allocations above 32 MiB with a fresh ``mmap`` every time, so a kernel writing a
40 MB output first takes ~10,000 page faults and has the OS zero 40 MB: as long as the kernel
itself. Large outputs therefore come from a small pool of buffers that are handed out again
once nothing references them any more (CPython reference counts say so exactly: a buffer whose
only owner is the pool cannot be reached by anyone else, views and DLPack exports included).

``OPSDK_POOL_MB`` caps the memory the pool keeps (default 256; 0 turns it off; the older
``OPSDK_NN_POOL_MB`` is read when it is not set).
"""
import sys
import threading
from collections import OrderedDict

import numpy

from opsdk.env import setting
from opsdk.exclusive import lend
from opsdk.kernels import unwritten
from opsdk.kernels.arrays import is_gpu_array

_MIN_BYTES = 4 << 20  # below this glibc reuses freed memory by itself
_lock = threading.Lock()
_pool = OrderedDict()  # serial number -> uint8 buffer, least recently handed out first
_serial = 0


def _measure_free_refs():
    """The reference count of a buffer that only a dict holds, as ``_is_free`` measures it."""
    holder = {0: numpy.empty(1, numpy.uint8)}
    return sys.getrefcount(holder[0])


_FREE_REFS = _measure_free_refs()


def _is_free(key):
    """True when nothing but the pool references buffer ``key`` (no array, view or export)."""
    return sys.getrefcount(_pool[key]) <= _FREE_REFS


def _limit_bytes():
    """The pool's cap in bytes; 0 when disabled (or off CPython, where refcounts are not exact)."""
    if sys.implementation.name != "cpython":
        return 0
    megabytes = setting("OPSDK_POOL_MB")
    return (setting("OPSDK_NN_POOL_MB") if megabytes is None else megabytes) << 20


def empty(shape, dtype=float, like=None):
    """An uninitialised C-contiguous output array (recycled memory when large and the pool allows).

    In check mode (``opsdk check``) it is filled with a marked NaN, so elements a kernel never
    writes are found (``unwritten``).

    Args:
        shape: the array's shape.
        dtype: its dtype.
        like: an array whose device the output goes to (a CuPy array: a CuPy output).

    Returns:
        numpy.ndarray, or a cupy.ndarray when ``like`` is one.

    Example:
        >>> empty((2, 3), numpy.float32).shape
        (2, 3)
    """
    if like is not None and type(like) is not numpy.ndarray and is_gpu_array(like):
        out = sys.modules["cupy"].empty(shape, dtype)
    else:
        out = _pooled(shape, numpy.dtype(dtype))
    return unwritten.fill(out) if unwritten._active else out


def _pooled(shape, dtype):
    """A NumPy array from the pool when large, else from NumPy."""
    global _serial
    nbytes = int(numpy.prod(shape, dtype=numpy.int64)) * dtype.itemsize
    if nbytes < _MIN_BYTES:
        return numpy.empty(shape, dtype)
    limit = _limit_bytes()
    if nbytes > limit:
        return numpy.empty(shape, dtype)
    with _lock:
        for key in list(_pool):
            if _pool[key].nbytes == nbytes and _is_free(key):
                _pool.move_to_end(key)
                return lend(_pool[key].view(dtype).reshape(shape))
        _serial += 1
        _pool[_serial] = numpy.empty(nbytes, numpy.uint8)
        _evict(limit)
        return lend(_pool[_serial].view(dtype).reshape(shape))


def empty_like(array, dtype=None):
    """``empty(array.shape, dtype or array.dtype)`` on the array's device, C-contiguous.

    Example:
        >>> empty_like(numpy.ones(3)).shape
        (3,)
    """
    if type(array) is numpy.ndarray and array.nbytes < _MIN_BYTES and not unwritten._active:
        return numpy.empty(array.shape, array.dtype if dtype is None else dtype)  # the common case, fast
    return empty(array.shape, array.dtype if dtype is None else dtype, like=array)


def _evict(limit):
    """Drop the least recently used free buffers while the pool holds more than ``limit`` bytes."""
    total = sum(b.nbytes for b in _pool.values())
    for key in list(_pool):
        if total <= limit:
            return
        if _is_free(key):
            total -= _pool.pop(key).nbytes


def pooled_bytes():
    """Bytes the pool holds now (in use or free)."""
    with _lock:
        return sum(b.nbytes for b in _pool.values())
