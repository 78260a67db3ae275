"""The CUDA simulator: the ``cuda`` backend on the CPU, for CI and authors without a GPU.

``OPSDK_CUDA_SIM=1`` (or ``install()``, ``opsdk check --simulate``, ``pytest --opsdk-cuda-sim``)
puts a simulated ``cupy`` in ``sys.modules``: device arrays are NumPy arrays in guarded memory,
and ``RawModule`` / ``RawKernel`` compile CUDA C++ with the host C++ compiler against headers
modelling CUDA's built-ins, then run each block's threads as cooperative fibers. A launch that
would fault, hang or corrupt a GPU raises ``CudaSimulatorError`` naming the kernel, the thread
and the cause; mismatched argument types raise ``KernelArgumentError``. See docs/kernels.md for
what it checks, what it cannot see, and why it is not a benchmark.

Importing this package compiles nothing: the runtime is built on the first launch.
"""
import sys
from contextlib import contextmanager

from opsdk.env import setting

ENV = "OPSDK_CUDA_SIM"


def requested():
    """What the environment asks for: ``"on"`` (``OPSDK_CUDA_SIM=1``), ``"auto"`` (the simulator
    unless CuPy finds a GPU) or None."""
    return setting(ENV)


def install_unless_a_gpu():
    """The simulator, unless a real CuPy finds a CUDA device (``auto``). Returns whether it is on."""
    if active():
        return True
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return False
    except Exception:  # no CuPy, no driver, no device: all mean simulate
        pass
    for name in [n for n in sys.modules if n == "cupy" or n.startswith("cupy.")]:
        del sys.modules[name]  # a CuPy that sees no GPU steps aside
    install()
    return True


def active():
    """True when the simulated ``cupy`` is the one ``import cupy`` finds."""
    module = sys.modules.get("cupy")
    return module is not None and getattr(module, "__opsdk_simulator__", False)


def install(devices=None, multiprocessors=None):
    """Make ``import cupy`` find the simulator (idempotent); forget plans made without it.

    Args:
        devices: how many simulated GPUs (default ``$OPSDK_CUDA_SIM_DEVICES`` or 1).
        multiprocessors: multiprocessors each reports (default ``$OPSDK_CUDA_SIM_SMS`` or 2;
            ``launch_1d`` caps grids at 32 blocks per multiprocessor, so few keep grid-stride
            loops looping).

    Raises:
        RuntimeError: a real CuPy is already imported in this process.

    Example:
        >>> from opsdk.kernels import cudasim
        >>> cudasim.install()
        >>> import cupy
        >>> cupy.ndarray.simulated
        True
    """
    from .cupy_api import cuda as cuda_api

    cuda_api.configure(devices or setting("OPSDK_CUDA_SIM_DEVICES"),
                       multiprocessors or setting("OPSDK_CUDA_SIM_SMS"))
    if active():
        return
    existing = sys.modules.get("cupy")
    if existing is not None:
        raise RuntimeError("OPSDK_CUDA_SIM: a real CuPy is already imported in this process; enable "
                           "the simulator before anything imports cupy (set OPSDK_CUDA_SIM=1 or "
                           "call opsdk.kernels.cudasim.install() first)")
    from .cupy_api import make_modules

    sys.modules.update(make_modules())
    _forget_cuda_state()


def uninstall():
    """Remove the simulated ``cupy`` from ``sys.modules`` (tests that switch it on and off)."""
    if not active():
        return
    for name in [n for n in sys.modules if n == "cupy" or n.startswith("cupy.")]:
        del sys.modules[name]
    _forget_cuda_state()


def _forget_cuda_state():
    """What was probed or planned before the switch: CUDA status, modules, kernel plans."""
    from .. import cuda, kernel

    cuda._status = None
    cuda._modules.clear()
    cuda._max_grid.clear()
    for k in kernel.all_kernels():
        k._plans = {}
        k._warned = False
    import opsdk.device

    opsdk.device._cupy = None


@contextmanager
def recording():
    """Collect a LaunchRecord (kernel, grid, block, shared_mem, device, stream) of every launch.

    Example:
        >>> with recording() as launches:
        ...     kernel(x)                 # doctest: +SKIP
        >>> launches[0].device            # doctest: +SKIP
        0
    """
    from . import launch

    found = []
    launch._records.append(found)
    try:
        yield found
    finally:
        launch._records.remove(found)


def status():
    """One line saying what the simulator is, for ``opsdk doctor`` (compiles nothing)."""
    from .toolchain import find_cxx

    cxx = find_cxx()
    state = "on" if active() else (f"requested ({requested()})" if requested() else "off")
    if cxx is None:
        return state, "no C++ compiler (g++ / clang++ / $CXX): the simulator cannot compile kernels"
    return state, f"CUDA kernels compile with {cxx[0]}, run on the CPU"
