"""Backends of an op: which can run here, and running an op's forward and backward on one of them."""
from contextlib import contextmanager

from ...errors import BackendUnavailableError, KernelBuildError

REFERENCE = "python"
# where a backend's arrays live
DEVICE = {"python": "cpu", "c": "cpu", "cuda": "gpu"}


def device_of(backend):
    """'cpu' or 'gpu': where samples live when ``backend`` is checked."""
    return DEVICE.get(backend, "cpu")


def place_of(backend):
    """The opsdk place samples take for ``backend`` (None: the CPU)."""
    return "gpu" if device_of(backend) == "gpu" else None


def _implementing(op, backend):
    return [k for k in op.kernels if backend in k.backends]


def availability(op, backend):
    """``(True, '')`` when ``op`` can run on ``backend`` here, else ``(False, why)``.

    The python backend needs every kernel of the op to have a python implementation (a
    kernel-free op always runs on it); c and cuda need every kernel that implements them to be
    runnable here (a compiler or a cached build; CuPy and a GPU). Builds the op's C kernels, so
    a compile error surfaces here as KernelBuildError rather than inside a check. An op that
    runs without kernels (a foreign op: its framework) answers for itself.
    """
    own = getattr(op, "backend_availability", None)
    if own is not None:
        return own(backend)
    device = device_of(backend)
    if backend == REFERENCE:
        missing = [k.name for k in op.kernels if REFERENCE not in k.backends]
        if missing:
            return False, f"kernel(s) {', '.join(missing)} have no python implementation"
        return True, ""
    kernels = _implementing(op, backend)
    if not kernels:
        return False, f"no kernel of the op implements {backend}"
    if backend == "cuda":
        from ...kernels import cuda_status

        ok, why = cuda_status()
        if not ok:
            return False, why
    for kernel in kernels:
        if backend not in kernel.available_backends(device):
            return False, f"kernel {kernel.name}: {backend} cannot run here{_reason(kernel, backend)}"
        if backend == "c":
            kernel.build_c()  # a compile error is a failure of the op, not a skip: let it propagate
    return True, ""


def _reason(kernel, backend):
    """Why ``kernel`` cannot run ``backend`` (the last line of the error it raises), or ''."""
    if backend != "c":
        return ""
    try:
        kernel.build_c()
    except (BackendUnavailableError, KernelBuildError) as error:
        return f" ({str(error).splitlines()[-1].strip()})"
    return ""


def forced_backend(op, backend):
    """The backend to force while checking ``op`` on ``backend``, or None for dispatch's own choice.

    Every kernel is forced when all implement ``backend``; otherwise dispatch picks per kernel
    (c or cuda where a kernel has it, python for the others), which is the op as users run it.
    """
    if backend == REFERENCE or all(backend in k.backends for k in op.kernels):
        return backend
    return None


@contextmanager
def backend_scope(op, backend):
    """Run the op's forward and backward on ``backend`` inside the block (thread-local)."""
    from ...kernels import use_backend

    with use_backend(forced_backend(op, backend)):
        yield


def dtype_availability(op, backend, dtype):
    """``(True, '')`` when every kernel of ``op`` on ``backend`` accepts ``dtype``, else ``(False, why)``."""
    if backend == REFERENCE:
        return True, ""
    refusing = [k.name for k in _implementing(op, backend) if dtype not in k.dtypes]
    if refusing:
        return False, f"kernel(s) {', '.join(refusing)} take no {dtype} on {backend}"
    return True, ""
