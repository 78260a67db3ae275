"""paddle.device's waiting and memory calls for opsdk: on the CPU there is nothing to wait for
or free (synchronize and empty_cache do nothing) and no device memory to count (the statistics
refuse, as Paddle's CPU build does); on a GPU they use CuPy's default memory pool. CuPy keeps
no peak, so the max_* values are the highest these calls have seen since the last reset."""
from .device import cupy_module
from .device_queries import _gpu_index, is_compiled_with_cuda
from .errors import NoDeviceError

_PEAK = {"allocated": {}, "reserved": {}}


def synchronize(device=None):
    """Wait for the GPU's work to finish (nothing to wait for on the CPU)."""
    if is_compiled_with_cuda():
        cupy_module().cuda.Device(_gpu_index(device, "synchronize")).synchronize()


def empty_cache():
    """Give CuPy's cached, unused GPU blocks back (nothing to give on the CPU)."""
    if is_compiled_with_cuda():
        cupy_module().get_default_memory_pool().free_all_blocks()


def _current(kind, device, op):
    if not is_compiled_with_cuda():
        raise NoDeviceError(f"{op}: expected: a GPU (opsdk counts GPU memory through CuPy); "
                            f"got: none, opsdk runs on the CPU here")
    index = _gpu_index(device, op)
    with cupy_module().cuda.Device(index):
        pool = cupy_module().get_default_memory_pool()
        value = int(pool.used_bytes() if kind == "allocated" else pool.total_bytes())
    peaks = _PEAK[kind]
    peaks[index] = max(peaks.get(index, 0), value)
    return index, value


def memory_allocated(device=None):
    """Bytes of GPU memory in use by tensors."""
    return _current("allocated", device, "memory_allocated")[1]


def memory_reserved(device=None):
    """Bytes of GPU memory held by CuPy's pool."""
    return _current("reserved", device, "memory_reserved")[1]


def max_memory_allocated(device=None):
    """The highest memory_allocated seen since the last reset."""
    index, _ = _current("allocated", device, "max_memory_allocated")
    return _PEAK["allocated"][index]


def max_memory_reserved(device=None):
    """The highest memory_reserved seen since the last reset."""
    index, _ = _current("reserved", device, "max_memory_reserved")
    return _PEAK["reserved"][index]


def reset_max_memory_allocated(device=None):
    """Start max_memory_allocated again from the current value."""
    index, value = _current("allocated", device, "reset_max_memory_allocated")
    _PEAK["allocated"][index] = value


def reset_max_memory_reserved(device=None):
    """Start max_memory_reserved again from the current value."""
    index, value = _current("reserved", device, "reset_max_memory_reserved")
    _PEAK["reserved"][index] = value


def reset_peak_memory_stats(device=None):
    """Start both peaks again from the current values."""
    reset_max_memory_allocated(device)
    reset_max_memory_reserved(device)
