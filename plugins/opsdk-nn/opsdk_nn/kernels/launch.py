"""Adapter helpers shared by the pack's kernels: pointers and CUDA launch shapes.

The function of a dtype comes from the SDK: ``c_function(lib, "nn_softmax_fwd", x.dtype)`` and
``cuda_function(module, stem, dtype)`` (``opsdk.kernels``).
"""
from opsdk.kernels import c_pointer

WARP = 32


def ptr(ffi, array):
    """Read-only pointer to a C-contiguous array."""
    return c_pointer(ffi, array)


def out_ptr(ffi, array):
    """Writable pointer to a C-contiguous array."""
    return c_pointer(ffi, array, writable=True)


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
