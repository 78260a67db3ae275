"""Stand-ins for a GPU, so the cuda backend of foreign ops runs its data path on the CPU.

- ``DeviceArray`` / ``DEVICE``: a device array (as CuPy's) over NumPy memory, handed out by
  DLPack only (kDLCPU, so a framework's CPU build takes it, without a copy), with no
  ``__array__``; ``DEVICE`` is its module (``from_dlpack``), what ``cupy`` is to the bridges.
- ``on_the_simulator(monkeypatch, framework)``: the whole cuda backend under opsdk's CUDA
  simulator: the samples are simulated CuPy arrays, the framework takes their memory as its
  CPU tensors (the simulator's DLPack capsule read as host memory), and its outputs come back
  as simulated CuPy arrays (views where they alias a sample, copies of the framework's own
  memory otherwise). Only the two crossings a GPU makes by DLPack are stood in for.
"""
import numpy as np

from opsdk.foreign import device


class DeviceArray:
    """A device array over NumPy memory: shape, dtype, strides, flags, copy and DLPack."""

    def __init__(self, host):
        self.host = host

    shape = property(lambda self: self.host.shape)
    dtype = property(lambda self: self.host.dtype)
    strides = property(lambda self: self.host.strides)
    flags = property(lambda self: self.host.flags)
    ndim = property(lambda self: self.host.ndim)

    @property
    def ptr(self):
        """The address of the first element (as CuPy's ``data.ptr``)."""
        return self.host.__array_interface__["data"][0]

    def copy(self):
        return DeviceArray(np.ascontiguousarray(self.host).copy())

    def __dlpack__(self, stream=None, **kwargs):
        return self.host.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.host.__dlpack_device__()

    def __getitem__(self, index):
        return DeviceArray(self.host[index])

    @property
    def T(self):
        return DeviceArray(self.host.T)


class _DeviceModule:
    """What the bridges ask of CuPy: ``from_dlpack``, no copy."""

    refuse = None  # an exception from_dlpack raises (an output on the wrong device)

    def from_dlpack(self, obj):
        if self.refuse is not None:
            raise self.refuse
        return DeviceArray(np.from_dlpack(obj))


DEVICE = _DeviceModule()


def device_arrays(monkeypatch):
    """Make DeviceArray the bridges' device arrays (``cupy``) for the test."""
    monkeypatch.setattr(device, "array_module", lambda: DEVICE)
    monkeypatch.setattr(DEVICE, "refuse", None)
    return DEVICE


class _HostView:
    """A simulated device array's DLPack capsule, declared host memory (which it is)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None, **kwargs):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)


class _SimulatedDevice:
    """``cupy.from_dlpack`` of the framework's CPU tensors on the simulator: a view where the
    memory is a simulated allocation (an output aliasing a sample), else a copy into one."""

    def __init__(self, cupy):
        self.cupy = cupy

    def from_dlpack(self, obj):
        class OnDevice:
            def __dlpack__(self, stream=None, **kwargs):
                return obj.__dlpack__()

            def __dlpack_device__(self):
                return (2, 0)

        try:
            return self.cupy.from_dlpack(OnDevice())
        except RuntimeError:  # the framework's own memory: no simulated allocation
            return self.cupy.asarray(np.from_dlpack(obj))


def on_the_simulator(monkeypatch, cupy, framework):
    """Let ``framework``'s foreign ops run their cuda backend on the simulated ``cupy``; returns
    the calls made to the framework with device arrays (a list that grows)."""
    from opsdk.foreign.bridges import bridge

    the_bridge = bridge(framework)
    taken = []
    own = type(the_bridge).from_device

    def from_device(array):
        taken.append(array)
        tensor = own(the_bridge, _HostView(array))
        try:
            tensor.stand_in_cuda = True  # what an op's GPU-only path may look for (x.is_cuda)
        except AttributeError:  # a JAX array takes no attribute
            pass
        return tensor

    monkeypatch.setattr(the_bridge, "from_device", from_device)
    monkeypatch.setattr(device, "array_module", lambda: _SimulatedDevice(cupy))
    monkeypatch.setattr(device, "_cupy_status", lambda: (True, ""))
    monkeypatch.setitem(device._gpu_status, framework, (True, ""))
    return taken
