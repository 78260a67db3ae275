"""Running CUDA kernels through CuPy: availability, lazy modules, 1-D launch configuration."""
import os
import sys
import warnings

from opsdk.errors import BackendUnavailableError, OpsdkWarning

_status = None  # (available, reason), probed once per process
_modules = {}  # id(CudaSource) -> (source, cupy.RawModule)
_max_grid = {}  # device id -> grid size that fills the device
_refused = set()  # prebuilt entries already warned about, per process


def cuda_status():
    """(True, '') if CuPy imports and sees a CUDA device, else (False, why)."""
    global _status
    if _status is None:
        try:
            import cupy

            count = cupy.cuda.runtime.getDeviceCount()
            _status = (True, "") if count > 0 else (False, "CuPy finds no CUDA device")
        except ImportError:
            _status = (False, "CuPy is not installed (pip install 'opsdk[cuda]')")
        except Exception as exc:  # CuPy raises its own CUDARuntimeError when no driver is present
            _status = (False, f"CuPy finds no usable CUDA device: {exc}")
    return _status


def load_module(source, kernel=None):
    """The CuPy RawModule of a CudaSource, memoised per process: the PTX or cubin the installed
    package ships for this GPU (``prebuilt_cuda``), else compiled by CuPy (NVRTC) on first use."""
    found = _modules.get(id(source))
    if found is not None and found[0] is source:
        return found[1]
    available, why = cuda_status()
    if not available:
        raise BackendUnavailableError(
            f"kernel {kernel or source.display_name!r}: backend 'cuda' cannot run\n"
            f"  expected: CuPy and a CUDA device\n  got: {why}"
        )
    import cupy

    code = source.read(kernel)
    module = None
    if not simulated(cupy):  # the simulator runs CUDA C++ sources, never PTX or cubins
        module = _shipped_module(cupy, source, code, kernel or source.display_name)
    if module is None:
        templated = tuple(n for n in source.names if "<" in n)
        # NVRTC then reports errors against the user's file and line, not "kernel.cu"
        module = cupy.RawModule(code=f"{source.line_directive()}\n{code}", options=source.options,
                                name_expressions=templated or None)
    _modules[id(source)] = (source, module)
    return module


def simulated(cupy):
    """Whether ``cupy`` is the CPU CUDA simulator's stand-in (OPSDK_CUDA_SIM)."""
    return bool(getattr(cupy, "__opsdk_simulator__", False))


def device_capability(cupy):
    """The current GPU's compute capability as a number: 90 for 9.0."""
    return int(cupy.cuda.Device().compute_capability)


def _shipped_module(cupy, source, code, name):
    """The RawModule of the PTX or cubin the installed package ships for source and this GPU,
    when it matches the sources and is trusted; else None (a warning when one was refused or
    does not load: the source is compiled instead)."""
    from opsdk.kernels import prebuilt, prebuilt_cuda

    if not os.path.isdir(prebuilt.folder_of(source)):
        return None  # the common case of a source install: nothing to hash
    try:
        capability = device_capability(cupy)
    except Exception:  # noqa: BLE001 - CuPy's runtime errors: no file can be chosen, CuPy compiles
        return None
    found = prebuilt_cuda.lookup(source, code, capability)
    if found.kind == "refused" and found.entry not in _refused:
        _refused.add(found.entry)
        warnings.warn(f"kernel {name!r}: the prebuilt CUDA build was not used, the kernel is compiled "
                      f"from its source: {found.why}", OpsdkWarning, stacklevel=4)
    if found.build is None:
        return None
    try:
        module = cupy.RawModule(path=found.build.path)
        for kernel in source.names:  # loads the file now: one this driver cannot load falls back here
            module.get_function(kernel)
    except Exception as exc:  # noqa: BLE001 - CuPy's CUDADriverError and its kin share no base of ours
        prebuilt.failed(found.entry, exc)
        warnings.warn(f"kernel {name!r}: the prebuilt CUDA build {found.build.path} does not load, the "
                      f"kernel is compiled from its source: {exc}", OpsdkWarning, stacklevel=4)
        return None
    return module


def cuda_origin(source):
    """Where a CudaSource's module comes from here, found without compiling or loading anything:
    an ``Origin`` (``cbuild``) of kind ``"cubin"`` or ``"ptx"`` (the package's build for this GPU),
    ``"prebuilt"`` (the package ships a build of these sources; no GPU here to choose a file),
    ``"compile"`` (CuPy compiles the source on first call) or ``"simulator"``; ``why`` says why."""
    from opsdk.errors import KernelBuildError
    from opsdk.kernels import prebuilt_cuda
    from opsdk.kernels.cbuild import Origin

    available, why = cuda_status()
    if available and simulated(sys.modules.get("cupy")):
        return Origin("simulator", "run from the source on the CPU CUDA simulator (OPSDK_CUDA_SIM)")
    try:
        capability = device_capability(sys.modules["cupy"]) if available else None
        found = prebuilt_cuda.lookup(source, source.read(), capability)
    except (OSError, KernelBuildError) as exc:
        return Origin("compile", (str(exc).splitlines() or [type(exc).__name__])[-1].strip())
    build = found.build
    if build is not None and build.chosen is not None:
        return Origin(build.format, f"prebuilt {build.format} {build.chosen} in the package: {build.path}")
    if build is not None:
        return Origin("prebuilt", f"prebuilt in the package: {found.entry} ({', '.join(build.files)}; "
                                  f"no GPU here to choose one: {why})")
    return Origin("compile", f"compiled from the source by CuPy (NVRTC) on first call ({found.why})",
                  found.kind in ("stale", "refused"))


def launch_config_1d(n, block=256, max_grid=None):
    """(grid, block) covering n elements; grid capped at max_grid (kernels then loop grid-stride).

    Args:
        n: number of elements.
        block: threads per block.
        max_grid: most blocks to launch (None: no cap).

    Returns:
        ``(grid, block)``; grid is 0 when n is 0 (nothing to launch).

    Example:
        >>> launch_config_1d(1000, block=256)
        (4, 256)
    """
    if block <= 0:
        raise ValueError(f"launch_config_1d: expected: block > 0\n  got: block={block}")
    grid = (int(n) + block - 1) // block
    if max_grid is not None:
        grid = min(grid, max_grid)
    return grid, block


def _device_max_grid():
    """Blocks that fill the current device: 32 per multiprocessor (more only queue)."""
    import cupy

    device = cupy.cuda.Device()
    grid = _max_grid.get(device.id)
    if grid is None:
        grid = _max_grid[device.id] = 32 * device.attributes["MultiProcessorCount"]
    return grid


def launch_1d(kernel, n, args, block=256, *, shared_mem=0, stream=None):
    """Launch a CuPy RawKernel over n elements; write the kernel as a grid-stride loop.

    Args:
        kernel: ``module.get_function(name)``.
        n: number of elements (nothing is launched for 0).
        args: the kernel's arguments (CuPy arrays, NumPy scalars of the right C type).
        block: threads per block.
        shared_mem: dynamic shared memory in bytes.
        stream: a CuPy stream (default: the current one).

    Returns:
        The ``(grid, block)`` launched.

    Example:
        >>> launch_1d(module.get_function("scale_f32"), x.size,
        ...           (x, y, numpy.int64(x.size), numpy.float32(2.0)))  # doctest: +SKIP
    """
    grid, block = launch_config_1d(n, block, _device_max_grid())
    if not grid:
        return grid, block
    if stream is None:  # RawKernel launches on the current stream of the current device
        kernel((grid,), (block,), tuple(args), shared_mem=shared_mem)
    else:  # RawKernel's call takes the stream to launch on
        kernel((grid,), (block,), tuple(args), shared_mem=shared_mem, stream=stream)
    return grid, block
