"""opsdk's CPU CUDA simulator as ``cupy`` for a block of tests, removed after (unless it was on before)."""
from contextlib import contextmanager

from opsdk.kernels import cudasim


@contextmanager
def simulated_cupy():
    """Yield the simulated cupy module; uninstall it afterwards if this call installed it."""
    installed_here = not cudasim.active()
    cudasim.install()
    import cupy

    try:
        yield cupy
    finally:
        if installed_here:
            cudasim.uninstall()
