"""``cupy.cuda`` of the simulator: devices, streams, events, memory pointers, runtime and driver.

Work runs synchronously on the CPU, so streams and events only keep CuPy's bookkeeping (which
stream is current, which one a launch went to); the current device and stream are per thread,
as in CuPy.
"""
import threading
import time
import types

from opsdk.errors import KernelBuildError, SimulatedOutOfMemoryError

SIMULATED_NAME = "opsdk CUDA simulator (CPU)"


class _State(threading.local):
    """This thread's current device and stream. The defaults are class attributes: a lookup
    that misses a thread-local instance raises and catches an AttributeError, slower than
    most of what asks (every allocation and launch asks for the device)."""

    device = 0
    stream = None


_state = _State()
_config = {"devices": 1, "multiprocessors": 2}
_stream_ids = iter(range(0x5100, 1 << 62))


class CUDARuntimeError(RuntimeError):
    """What CuPy raises for a failing CUDA runtime call."""

    def __init__(self, status, message=""):
        self.status = status
        super().__init__(message or f"cudaError {status}")


class CUDADriverError(RuntimeError):
    """What CuPy raises for a failing CUDA driver call (a launch, a module load)."""

    def __init__(self, message):
        super().__init__(message)


OutOfMemoryError = SimulatedOutOfMemoryError  # CuPy's name for it


class CompileException(KernelBuildError):
    """A CUDA source did not compile (here: the host C++ compiler rejected it)."""


def configure(devices=None, multiprocessors=None):
    """Set how many simulated devices there are and how many multiprocessors each reports."""
    if devices is not None:
        if devices < 1:
            raise ValueError(f"cudasim: expected: at least one device\n  got: {devices}")
        _config["devices"] = int(devices)
    if multiprocessors is not None:
        _config["multiprocessors"] = max(1, int(multiprocessors))


def device_count():
    return _config["devices"]


def current_device_id():
    """The current device of this thread (0 until changed)."""
    return _state.device


def _check_device(index):
    index = int(index)
    if not 0 <= index < _config["devices"]:
        raise CUDARuntimeError(101, f"cudaErrorInvalidDevice: invalid device ordinal {index} "
                                    f"(the simulator has {_config['devices']} device(s))")
    return index


def attributes():
    """The device attributes an sm_80-class GPU reports (CuPy's names)."""
    return {
        "MultiProcessorCount": _config["multiprocessors"], "MaxThreadsPerBlock": 1024,
        "MaxBlockDimX": 1024, "MaxBlockDimY": 1024, "MaxBlockDimZ": 64,
        "MaxGridDimX": 2**31 - 1, "MaxGridDimY": 65535, "MaxGridDimZ": 65535,
        "MaxSharedMemoryPerBlock": 48 * 1024, "MaxSharedMemoryPerBlockOptin": 163 * 1024,
        "MaxSharedMemoryPerMultiprocessor": 164 * 1024, "WarpSize": 32,
        "MaxThreadsPerMultiProcessor": 2048, "ComputeCapabilityMajor": 8, "ComputeCapabilityMinor": 0,
        "MaxRegistersPerBlock": 65536, "ClockRate": 1410000, "L2CacheSize": 40 * 2**20,
        "TotalConstantMemory": 65536, "UnifiedAddressing": 1,
    }


class Device:
    """A simulated CUDA device; a context manager making it current for the thread."""

    def __init__(self, device=None):
        if isinstance(device, Device):
            device = device.id
        self.id = current_device_id() if device is None else _check_device(device)
        self._previous = []

    @property
    def attributes(self):
        return attributes()

    @property
    def compute_capability(self):
        return "80"

    @property
    def mem_info(self):
        return runtime.memGetInfo()

    @property
    def pci_bus_id(self):
        return f"0000:{self.id:02x}:00.0"

    def use(self):
        _state.device = self.id

    def synchronize(self):
        """Nothing to wait for: simulated work is done when its call returns."""

    def __enter__(self):
        self._previous.append(current_device_id())
        _state.device = self.id
        return self

    def __exit__(self, *exc):
        _state.device = self._previous.pop()

    def __int__(self):
        return self.id

    def __index__(self):
        return self.id

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cudasim-device", self.id))

    def __repr__(self):
        return f"<CUDA Device {self.id} (simulated)>"


class Stream:
    """A simulated stream: a context manager making it current; work is synchronous."""

    null = None  # set below

    def __init__(self, null=False, non_blocking=False, ptr=None):
        self.ptr = 0 if null else (next(_stream_ids) if ptr is None else int(ptr))
        self.device_id = current_device_id()
        self.non_blocking = non_blocking
        self._previous = []

    def __enter__(self):
        self._previous.append(get_current_stream())
        _state.stream = self
        return self

    def __exit__(self, *exc):
        _state.stream = self._previous.pop()

    def use(self):
        _state.stream = self
        return self

    @property
    def done(self):
        return True

    def synchronize(self):
        """Nothing to wait for."""

    def record(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event):
        """Simulated work never overlaps: nothing to wait for."""

    def launch_host_func(self, callback, arg):
        callback(arg)

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(("cudasim-stream", self.ptr))

    def __repr__(self):
        return f"<Stream {self.ptr} (simulated{', null' if self.ptr == 0 else ''})>"


Stream.null = Stream(null=True)


class ExternalStream(Stream):
    def __init__(self, ptr, device_id=-1):
        super().__init__(ptr=ptr)


def get_current_stream(device_id=None):
    """The thread's current stream (the null stream until one is entered)."""
    return _state.stream or Stream.null


class Event:
    """Marks a point in time; ``get_elapsed_time`` measures host time between two."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self.time = None

    def record(self, stream=None):
        self.time = time.perf_counter()

    def synchronize(self):
        """Recorded work is done."""

    @property
    def done(self):
        return True


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    return (end_event.time - start_event.time) * 1e3


class MemoryPointer:
    """A device address: a buffer (kept alive) and an offset into it."""

    def __init__(self, mem, offset=0):
        self.mem = mem
        self.offset = int(offset)

    @property
    def ptr(self):
        return self.mem.ptr + self.offset

    @property
    def device_id(self):
        return self.mem.device

    @property
    def device(self):
        return Device(self.mem.device)

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.mem, self.offset + int(offset))

    def copy_from_device(self, src, size):
        import ctypes

        ctypes.memmove(self.ptr, src.ptr, int(size))

    copy_from_device_async = copy_from_device
    copy_from = copy_from_device

    def copy_from_host(self, mem, size):
        import ctypes

        ctypes.memmove(self.ptr, mem, int(size))

    def copy_to_host(self, mem, size):
        import ctypes

        ctypes.memmove(mem, self.ptr, int(size))

    def memset(self, value, size):
        import ctypes

        ctypes.memset(self.ptr, int(value), int(size))

    memset_async = memset


def alloc(size):
    """A MemoryPointer to ``size`` fresh bytes on the current device."""
    from ..memory import DeviceBuffer

    return MemoryPointer(DeviceBuffer(size, current_device_id()))


class MemoryPool:
    """CuPy's memory pool, reduced to what callers query: simulated memory is not pooled."""

    def used_bytes(self):
        from ..memory import _live

        return sum(ref().nbytes for ref, _, _ in list(_live.values()) if ref() is not None)

    def total_bytes(self):
        return self.used_bytes()

    def free_bytes(self):
        return 0

    def free_all_blocks(self, stream=None):
        """Freed memory is unmapped at once; nothing is held back."""

    def set_limit(self, size=None, fraction=None):
        """Accepted and ignored."""

    def get_limit(self):
        return 0


_pool = MemoryPool()


def _runtime_namespace():
    def getDeviceCount():
        return _config["devices"]

    def getDevice():
        return current_device_id()

    def setDevice(index):
        _state.device = _check_device(index)

    def getDeviceProperties(index):
        _check_device(index)
        a = attributes()
        return {"name": SIMULATED_NAME.encode(), "totalGlobalMem": 16 * 2**30, "sharedMemPerBlock": 48 * 1024,
                "multiProcessorCount": a["MultiProcessorCount"], "maxThreadsPerBlock": 1024, "warpSize": 32,
                "major": 8, "minor": 0, "clockRate": a["ClockRate"], "pciBusID": index,
                "maxThreadsDim": (1024, 1024, 64), "maxGridSize": (2**31 - 1, 65535, 65535),
                "sharedMemPerBlockOptin": 163 * 1024, "regsPerBlock": 65536, "l2CacheSize": a["L2CacheSize"]}

    def memGetInfo():
        return 16 * 2**30 - _pool.used_bytes(), 16 * 2**30

    return types.SimpleNamespace(
        getDeviceCount=getDeviceCount, getDevice=getDevice, setDevice=setDevice,
        getDeviceProperties=getDeviceProperties, runtimeGetVersion=lambda: 12000,
        driverGetVersion=lambda: 12000, deviceSynchronize=lambda: None, memGetInfo=memGetInfo,
        CUDARuntimeError=CUDARuntimeError, is_hip=False,
    )


runtime = _runtime_namespace()
driver = types.SimpleNamespace(CUDADriverError=CUDADriverError, get_build_version=lambda: 12000)
memory = types.SimpleNamespace(MemoryPointer=MemoryPointer, OutOfMemoryError=OutOfMemoryError, alloc=alloc,
                               MemoryPool=MemoryPool)
compiler = types.SimpleNamespace(CompileException=CompileException)


def namespace():
    """The ``cupy.cuda`` module object."""
    module = types.ModuleType("cupy.cuda", "CUDA devices, streams and memory (opsdk CUDA simulator)")
    names = dict(
        Device=Device, Stream=Stream, ExternalStream=ExternalStream, Event=Event,
        get_current_stream=get_current_stream, get_elapsed_time=get_elapsed_time,
        MemoryPointer=MemoryPointer, alloc=alloc, runtime=runtime, driver=driver, memory=memory,
        compiler=compiler, is_available=lambda: True, get_device_id=current_device_id,
        set_allocator=lambda allocator=None: None, set_pinned_memory_allocator=lambda allocator=None: None,
    )
    for name, value in names.items():
        setattr(module, name, value)
    return module
