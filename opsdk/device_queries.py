"""paddle.device's questions about the machine, answered for opsdk: arrays live in NumPy on the
CPU, or in CuPy on an NVIDIA GPU where CuPy finds one. opsdk is built with no XPU, IPU, ROCm,
CINN, custom-device or distributed support, so those answers are False or empty."""
from .device import cupy_module
from .errors import NoDeviceError


def device_count():
    """The number of GPUs CuPy finds (0 without CuPy or a GPU)."""
    try:
        return int(cupy_module().cuda.runtime.getDeviceCount())
    except Exception:  # no CuPy, no driver, no GPU: all mean none
        return 0


def is_compiled_with_cuda():
    """True where CuPy finds a GPU (opsdk's CUDA support is CuPy)."""
    return device_count() > 0


def is_available():
    """True where a GPU can be used (device_count() >= 1)."""
    return device_count() >= 1


def _never(*args, **kwargs):
    return False


is_compiled_with_xpu = is_compiled_with_ipu = is_compiled_with_rocm = _never
is_compiled_with_cinn = is_compiled_with_distribute = is_current_stream_capturing = _never


def is_compiled_with_custom_device(device_type):
    """False: opsdk has no custom devices."""
    return False


def is_bf16_supported(including_emulation=True):
    """False: opsdk has no bfloat16 arrays."""
    return False


def get_all_device_type():
    """['gpu'] where CuPy finds a GPU, else [] (the CPU is not listed, as in Paddle)."""
    return ["gpu"] if is_compiled_with_cuda() else []


def get_available_device():
    """'gpu:0', 'gpu:1', ... for each GPU CuPy finds ([] on the CPU)."""
    return [f"gpu:{i}" for i in range(device_count())]


def get_all_custom_device_type():
    """[]: opsdk has no custom devices."""
    return []


get_available_custom_device = get_all_custom_device_type


def get_cudnn_version():
    """None: opsdk calls no cuDNN."""
    return None


def _gpu_index(device, op):
    from .device import Place, parse_place

    if device is None:
        index = 0
    elif isinstance(device, int):
        index = device
    else:
        place = device if isinstance(device, Place) else parse_place(device)
        if not place.is_gpu_place():
            raise NoDeviceError(f"{op}: device: expected: a GPU; got: {place}")
        index = place.index
    if not 0 <= index < device_count():
        raise NoDeviceError(f"{op}: device: expected: a GPU index below the {device_count()} "
                            f"GPUs CuPy finds; got: {index}")
    return index


def get_device_properties(device=None):
    """CuPy's properties dict of a GPU (name, totalGlobalMem, major, minor, ...)."""
    index = _gpu_index(device, "get_device_properties")
    return cupy_module().cuda.runtime.getDeviceProperties(index)


def get_device_name(device=None):
    """A GPU's name (as CUDA reports it)."""
    name = get_device_properties(device)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def get_device_capability(device=None):
    """A GPU's compute capability, (major, minor)."""
    props = get_device_properties(device)
    return int(props["major"]), int(props["minor"])
