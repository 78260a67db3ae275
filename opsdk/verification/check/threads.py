"""At least two OpenMP threads while compiled kernels run at derived sizes.

A kernel's parallel branch (a chunk per thread, an offset per thread) is only exercised with
more than one thread. ``OMP_NUM_THREADS=1`` is common in CI and is set by some frameworks on
import (PaddlePaddle does), and it would make every such bug invisible: while the sizes
check runs, the OpenMP runtimes loaded in the process are asked for two threads when they
would use one (``omp_set_num_threads``, the calling thread's setting), and put back after.
"""
import contextlib
import ctypes
import os

# GCC's, LLVM's and Intel's OpenMP runtimes
_RUNTIMES = ("libgomp.so.1", "libomp.so", "libomp.so.5", "libiomp5.so", "libgomp.1.dylib",
             "libomp.dylib")
THREADS = 2


def loaded_runtimes():
    """The OpenMP runtimes the process has loaded (never loads one)."""
    mode = getattr(os, "RTLD_NOLOAD", None)
    if mode is None:
        return []
    found = []
    for name in _RUNTIMES:
        try:
            lib = ctypes.CDLL(name, mode=mode | getattr(os, "RTLD_LAZY", 1))
        except OSError:
            continue
        if hasattr(lib, "omp_get_max_threads") and hasattr(lib, "omp_set_num_threads"):
            found.append(lib)
    return found


@contextlib.contextmanager
def parallel_threads(kernels=()):
    """Within the block, OpenMP regions of the calling thread use at least THREADS threads.

    ``kernels`` are built first (their C libraries load the runtime they link against)."""
    for kernel in kernels:
        build = getattr(kernel, "build_c", None)
        if build is not None and "c" in getattr(kernel, "backends", ()):
            try:
                build()
            except Exception:  # a build error is the check's to report
                pass
    changed = []
    for lib in loaded_runtimes():
        before = int(lib.omp_get_max_threads())
        if before < THREADS:
            lib.omp_set_num_threads(THREADS)
            changed.append((lib, before))
    try:
        yield
    finally:
        for lib, before in changed:
            lib.omp_set_num_threads(before)
