"""``cupy.random`` of the simulator: NumPy's generators, results on the current device."""
import types

import numpy

from .ndarray import wrap


class Generator:
    """``cupy.random.Generator``: NumPy's, drawing into device arrays."""

    def __init__(self, bit_generator):
        self._rng = numpy.random.Generator(numpy.random.PCG64(bit_generator))

    def __getattr__(self, name):
        method = getattr(self._rng, name)
        return lambda *args, **kwargs: wrap(method(*args, **kwargs))


def default_rng(seed=None):
    return Generator(seed)


_legacy = numpy.random.RandomState()


def _legacy_function(name):
    method = getattr(_legacy, name)

    def draw(*args, dtype=None, **kwargs):
        out = method(*args, **kwargs)
        return wrap(out if dtype is None else numpy.asarray(out).astype(dtype))

    draw.__name__ = name
    return draw


def namespace():
    """The ``cupy.random`` module object."""
    module = types.ModuleType("cupy.random", "random numbers on device arrays (opsdk CUDA simulator)")
    module.default_rng = default_rng
    module.Generator = Generator
    module.seed = _legacy.seed
    for name in ("rand", "randn", "random", "random_sample", "uniform", "normal", "standard_normal",
                 "randint", "choice", "permutation", "shuffle", "exponential", "binomial", "poisson"):
        setattr(module, name, _legacy_function(name))
    return module
