"""A foreign op's second backend: its framework on the GPU, fed CuPy arrays by DLPack.

A foreign op has two backends: ``python``, its framework on the CPU (the reference the other is
held to), and ``cuda``, its framework on the GPU. On ``cuda`` the verifier's samples are CuPy
arrays; the bridge hands them to the framework with its ``from_dlpack`` (no copy), the framework
computes values and gradients on the device, and they come back as CuPy arrays over the
framework's memory (``cupy.from_dlpack``), so the agreement checks compare the GPU with the CPU.

``cuda`` runs where real CuPy sees a GPU and the framework has a CUDA build and a device. It
never runs on opsdk's CUDA simulator: the simulator's arrays are host memory that only its own
``from_dlpack`` reads, and no framework takes them as CUDA tensors.
"""
import numpy as np

from ..errors import OpArgumentError, RegistrationError

CPU, CUDA = "cpu", "cuda"
DEVICES = (CPU, CUDA)
# the backend that runs the op's framework on each device
BACKENDS = {CPU: "python", CUDA: "cuda"}
_gpu_status = {}  # framework -> (ok, why): a framework's build and devices do not change in a run


def devices_of(devices, name):
    """The declared ``devices=`` as a tuple in DEVICES order; RegistrationError when invalid."""
    chosen = (devices,) if isinstance(devices, str) else devices
    try:
        chosen = tuple(chosen)
    except TypeError:
        chosen = None
    if not chosen or any(d not in DEVICES for d in chosen):
        raise RegistrationError(f"foreign op '{name}': devices must be a tuple of "
                                f"{', '.join(repr(d) for d in DEVICES)}; got: {devices!r}")
    if CPU not in chosen:
        raise RegistrationError(f"foreign op '{name}': devices must include 'cpu': the framework "
                                f"on the CPU is the reference its GPU results are compared with; "
                                f"got: {devices!r}")
    return tuple(d for d in DEVICES if d in chosen)


def array_module():
    """CuPy: the module of the device arrays the cuda backend's samples are."""
    from ..device import cupy_module

    return cupy_module()


def is_device_array(value):
    """Whether ``value`` is a device array (CuPy's): an array that is not NumPy's and speaks
    DLPack."""
    return (not isinstance(value, np.ndarray) and hasattr(value, "__dlpack__")
            and hasattr(value, "strides"))


def on_device(arrays):
    """Whether the arrays of a call are device arrays (its outputs then go back as such)."""
    return any(is_device_array(a) for a in arrays)


def holdable(array):
    """``array``, or a copy of it where it has negative strides, which no framework's tensor can
    have (the layout check says the reversed layout is not verified)."""
    if any(s < 0 for s in array.strides):
        return array.copy()
    return array


def arriving(array):
    """A cotangent as the bridge takes it: a device array as it is, anything else as NumPy."""
    return array if is_device_array(array) else np.asarray(array)


def device_array(tensor, index, framework):
    """A device array over the memory of the framework's output ``tensor`` (no copy).

    OpArgumentError naming the output when it cannot be one (the op returned a tensor of the
    host, or of another device, for inputs on the GPU).
    """
    xp = array_module()
    try:
        return xp.from_dlpack(tensor)
    except Exception as error:  # noqa: BLE001 - CuPy's refusal (device, dtype): the op's finding
        where = getattr(tensor, "device", None) or getattr(tensor, "place", None)
        raise OpArgumentError(
            f"{framework} output {index} is on {where}, which cannot be a CuPy array; expected: "
            f"outputs on the GPU the inputs are on; got: "
            f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}") from None


def _cupy_status():
    """``(True, '')`` when real CuPy sees a GPU here, else ``(False, why)``."""
    from ..kernels import cuda_status
    from ..kernels.cuda import simulated

    ok, why = cuda_status()
    if not ok:
        return False, why
    xp = array_module()
    if simulated(xp):
        return False, ("the CUDA simulator (OPSDK_CUDA_SIM) stands in for CuPy here, and no "
                       "framework takes its arrays (host memory) as CUDA tensors")
    return warmed("CuPy", lambda: xp.zeros(1))


def warmed(who, allocate):
    """``(True, '')`` once ``allocate()`` made ``who``'s CUDA context, else ``(False, why)``.

    A context reserves much address space: it is made when availability is decided, before a
    check lowers the address-space limit to what is used plus the sample's budget (memory.py),
    rather than by the first sample inside that limit.
    """
    try:
        allocate()
    except Exception as error:  # noqa: BLE001 - the driver's or the framework's refusal
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return False, f"{who} cannot allocate on its CUDA device: {first}"
    return True, ""


def framework_gpu_status(bridge):
    """``(True, '')`` when the bridge's framework has a CUDA build and a device, else
    ``(False, why)``."""
    if bridge.framework not in _gpu_status:
        _gpu_status[bridge.framework] = bridge.gpu_status()
    return _gpu_status[bridge.framework]


def availability(bridge):
    """``(True, '')`` when a foreign op of the bridge's framework can run on the GPU here, else
    ``(False, why)`` naming everything missing: the framework's CUDA build or device, and CuPy
    (real CuPy and a GPU; never the simulator)."""
    reasons = [why for ok, why in (framework_gpu_status(bridge), _cupy_status()) if not ok]
    return (False, "; ".join(reasons)) if reasons else (True, "")


def clear_cache():
    """Forget the frameworks' GPU status (tests that fake a framework's GPU)."""
    _gpu_status.clear()
