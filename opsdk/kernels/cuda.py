"""Running CUDA kernels through CuPy: availability, lazy modules, 1-D launch configuration."""

from opsdk.errors import BackendUnavailableError

_status = None  # (available, reason), probed once per process
_modules = {}  # id(CudaSource) -> (source, cupy.RawModule)
_max_grid = {}  # device id -> grid size that fills the device


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
    """The CuPy RawModule of a CudaSource (compiled by CuPy on first use, memoised per process)."""
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

    templated = tuple(n for n in source.names if "<" in n)
    # NVRTC then reports errors against the user's file and line, not "kernel.cu"
    code = f"{source.line_directive()}\n{source.read(kernel)}"
    module = cupy.RawModule(code=code, options=source.options, name_expressions=templated or None)
    _modules[id(source)] = (source, module)
    return module


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
