"""Simulated device memory: each allocation its own mapping, flush against a guard region.

A read or write past an allocation's end lands on an inaccessible page (or, in instrumented
builds, is caught by the runtime's bounds check at the first byte); the slack between the
16-byte-aligned data and the pages around it is filled with canaries checked after every
launch. ``empty`` fills fresh memory with a NaN pattern, so a kernel that leaves elements
unwritten is seen.
"""
import ctypes
import weakref

import numpy

from opsdk.errors import SimulatedOutOfMemoryError

from . import loader

ALIGN = 16  # CUDA's widest vector loads (float4, double2) need it; CuPy gives 256

# 32-bit words the simulator fills memory with; each is a quiet NaN as float32, and twice
# over as float64 and four times as float16, so any float read of them is NaN
UNINITIALISED = 0x7FF57FF5  # cupy.empty and friends
SHARED_POISON = 0x7FF37FF3  # shared memory at the start of every block
SHUFFLE_POISON = 0x7FF17FF1  # what a shuffle returns from a lane that does not take part
CANARY = 0x7FF97FF9  # the slack around an allocation

_live = {}  # data pointer -> (weakref to DeviceBuffer, reserve_lo, reserve_hi)
# opsdk_sim_alloc's out-parameters, made once (an allocation is the simulated CuPy's commonest call)
_LO, _HI = ctypes.c_uint64(), ctypes.c_uint64()
_LO_REF, _HI_REF = ctypes.byref(_LO), ctypes.byref(_HI)


class DeviceBuffer:
    """One device allocation (``nbytes`` at ``ptr`` on simulated device ``device``)."""

    __slots__ = ("ptr", "nbytes", "device", "__weakref__")

    def __init__(self, nbytes, device, fill="uninitialised"):
        nbytes = int(nbytes)
        lib = loader._runtime or loader.runtime()
        with loader.LOCK:  # the out-parameters are shared: read them under the lock
            ptr = lib.opsdk_sim_alloc(nbytes, ALIGN, _LO_REF, _HI_REF)
            if not ptr:
                raise SimulatedOutOfMemoryError(nbytes, 0)
            _live[ptr] = (weakref.ref(self), _LO.value, _HI.value)
        self.ptr, self.nbytes, self.device = ptr, nbytes, device
        if fill == "uninitialised":
            lib.opsdk_sim_fill_uninitialised(ptr, nbytes)
        elif fill == "zeros":
            ctypes.memset(ptr, 0, nbytes)

    @property
    def __array_interface__(self):
        return {"data": (self.ptr, False), "shape": (self.nbytes,), "typestr": "|u1", "version": 3}

    def bytes_view(self):
        """The whole buffer as a uint8 NumPy array (its base is this buffer)."""
        return numpy.asarray(self)

    def canary_damage(self):
        """Offset (from the data) of the first byte written outside the allocation, or None."""
        with loader.LOCK:
            at = loader.runtime().opsdk_sim_check_canaries(self.ptr)
        return None if at < 0 else int(at)

    def __del__(self, _live=_live, _loader=loader):
        # what it needs is bound at definition: at interpreter exit the modules' globals may be
        # gone (None) before the last buffers are collected
        try:
            ptr = self.ptr
        except AttributeError:  # the allocation failed
            return
        _live.pop(ptr, None)
        lib, lock = getattr(_loader, "_runtime", None), getattr(_loader, "LOCK", None)
        if lib is not None and lock is not None:
            with lock:
                lib.opsdk_sim_free(ptr)


def buffer_of(array):
    """The DeviceBuffer a NumPy array's memory belongs to (through its base chain), or None."""
    base = array.base
    while isinstance(base, numpy.ndarray):
        base = base.base
    return base if isinstance(base, DeviceBuffer) else None


def owner(address):
    """(DeviceBuffer, reserve_lo, reserve_hi) of the live allocation whose mapping holds address, or None."""
    for ref, lo, hi in list(_live.values()):
        buf = ref()
        if buf is not None and lo <= address < hi:
            return buf, lo, hi
    return None


def device_copy(host, device):
    """A NumPy array in a fresh DeviceBuffer holding a copy of ``host`` (C order)."""
    host = numpy.asarray(host)
    buf = DeviceBuffer(host.nbytes, device, fill=None)
    out = numpy.ndarray(host.shape, host.dtype, buffer=buf.bytes_view())
    out[...] = host
    return out


def device_empty(shape, dtype, device, fill="uninitialised", order="C"):
    """A NumPy array in a fresh DeviceBuffer: uninitialised (NaN pattern), zeros, or as is."""
    dtype = numpy.dtype(dtype)
    shape = tuple(int(s) for s in shape)
    count = 1
    for s in shape:
        count *= s
    buf = DeviceBuffer(count * dtype.itemsize, device, fill=fill)
    return numpy.ndarray(shape, dtype, buffer=buf.bytes_view(), order=order)
