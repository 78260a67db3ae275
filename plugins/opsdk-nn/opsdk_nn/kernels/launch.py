"""Adapter helpers shared by the pack's kernels: C function lookup, CUDA launch shapes."""
import numpy

from opsdk.kernels import c_pointer

SUFFIX = {numpy.dtype("float32"): "f32", numpy.dtype("float64"): "f64"}
WARP = 32


class CFunctions:
    """``lib`` functions by (stem, dtype), looked up once: ``fns(lib, "nn_gelu_fwd", x.dtype)``."""

    def __init__(self):
        self._found = {}

    def __call__(self, lib, stem, dtype):
        key = (id(lib), stem, dtype)
        fn = self._found.get(key)
        if fn is None:
            fn = self._found[key] = getattr(lib, f"{stem}_{SUFFIX[dtype]}")
        return fn


def ptr(ffi, array):
    """Read-only pointer to a C-contiguous array."""
    return c_pointer(ffi, array)


def out_ptr(ffi, array):
    """Writable pointer to a C-contiguous array."""
    return c_pointer(ffi, array, writable=True)


def cuda_function(module, stem, dtype):
    """The ``extern "C"`` kernel ``<stem>_<f32|f64>`` of a CuPy module."""
    return module.get_function(f"{stem}_{SUFFIX[dtype]}")


def row_launch(n, rows, device_blocks):
    """(mode, grid, block) for a per-row reduction kernel.

    Rows up to 1024 wide get one warp each (8 rows per 256-thread block, reductions by warp
    shuffles alone); wider rows get a whole block, reduced by warp shuffles then shared memory.
    """
    if n <= 1024:
        block = 256
        grid = max(1, min((rows + block // WARP - 1) // (block // WARP), device_blocks))
        return "rows", grid, block
    block = 1024 if n >= 8192 else 256
    return "block", max(1, min(rows, device_blocks)), block


_blocks = {}  # device id -> blocks that fill it


def device_blocks():
    """Blocks that fill the current GPU (32 per multiprocessor), looked up once per device."""
    import cupy

    device = cupy.cuda.Device()
    blocks = _blocks.get(device.id)
    if blocks is None:
        blocks = _blocks[device.id] = 32 * device.attributes["MultiProcessorCount"]
    return blocks
