"""``cupy.testing`` of the simulator: NumPy's assertions on host copies of device arrays."""
import types

import numpy


def _host(a):
    from .functions import asnumpy

    return asnumpy(a)


def _wrapped(check):
    def assertion(actual, desired, *args, **kwargs):
        return check(_host(actual), _host(desired), *args, **kwargs)

    assertion.__name__ = check.__name__
    assertion.__doc__ = check.__doc__
    return assertion


def namespace():
    """The ``cupy.testing`` module object."""
    module = types.ModuleType("cupy.testing", "assertions on device arrays (opsdk CUDA simulator)")
    for name in ("assert_allclose", "assert_array_almost_equal", "assert_array_almost_equal_nulp",
                 "assert_array_max_ulp", "assert_array_equal", "assert_array_less", "assert_equal"):
        setattr(module, name, _wrapped(getattr(numpy.testing, name)))
    return module
