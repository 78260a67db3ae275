"""The ``cupy`` module the CUDA simulator installs: what opsdk and op packs use of CuPy, on the CPU.

``make_modules()`` builds the module objects (``cupy``, ``cupy.cuda``, ``cupy.testing``,
``cupy.random``, ...); ``cudasim.install()`` puts them in ``sys.modules``. Anything NumPy has
is reachable as ``cupy.<name>``, with device arrays in and out.
"""
import importlib.machinery
import types

import numpy

from . import cuda as _cuda
from . import functions as _functions
from . import random as _random
from . import testing as _testing
from .ndarray import ndarray
from .raw import RawKernel, RawModule

VERSION = "13.0.0+opsdk.sim"
_EXPLICIT = ("asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray", "asnumpy",
             "get_array_module", "from_dlpack", "fromDlpack", "empty", "zeros", "empty_like", "fuse",
             "ElementwiseKernel", "ReductionKernel")


def _numpy_namespace(name, source):
    """A module whose attributes are ``source``'s functions over device arrays."""
    module = types.ModuleType(name, f"{source.__name__} over device arrays (opsdk CUDA simulator)")
    cache = {}

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if attr in cache:
            return cache[attr]
        value = getattr(source, attr)
        if callable(value) and not isinstance(value, type):
            target = value

            def call(*args, **kwargs):
                from .ndarray import _same_device, unwrap, wrap

                _same_device((args, kwargs), attr)
                return wrap(target(*unwrap(args, attr), **unwrap(kwargs, attr)))

            call.__name__ = attr
            value = call
        cache[attr] = value
        return value

    module.__getattr__ = __getattr__
    return module


def make_modules():
    """{module name: module object} of the simulated CuPy."""
    cupy = types.ModuleType("cupy", "CuPy, simulated on the CPU by opsdk (OPSDK_CUDA_SIM)")
    cuda_module = _cuda.namespace()
    cupy.__version__ = VERSION
    cupy.__opsdk_simulator__ = True
    cupy.ndarray = ndarray
    cupy.RawModule = RawModule
    cupy.RawKernel = RawKernel
    cupy.cuda = cuda_module
    cupy.testing = _testing.namespace()
    cupy.random = _random.namespace()
    cupy.linalg = _numpy_namespace("cupy.linalg", numpy.linalg)
    cupy.fft = _numpy_namespace("cupy.fft", numpy.fft)
    cupy.get_default_memory_pool = lambda: _cuda._pool
    cupy.get_default_pinned_memory_pool = lambda: _cuda._pool
    cupy.is_available = lambda: True
    cupy.show_config = lambda: print(f"CuPy {VERSION}: simulated by opsdk on the CPU")
    for name in _EXPLICIT:
        setattr(cupy, name, getattr(_functions, name))
    cache = {}

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(f"module 'cupy' has no attribute {name!r}")
        if name in cache:
            return cache[name]
        value = getattr(numpy, name)  # AttributeError for names NumPy lacks too
        if callable(value) and not isinstance(value, type):
            value = _functions._numpy_function(name)
        cache[name] = value
        return value

    cupy.__getattr__ = __getattr__
    modules = {"cupy": cupy, "cupy.cuda": cuda_module, "cupy.testing": cupy.testing,
               "cupy.random": cupy.random, "cupy.linalg": cupy.linalg, "cupy.fft": cupy.fft}
    for name in ("runtime", "driver", "memory", "compiler"):
        sub = _as_module(f"cupy.cuda.{name}", getattr(_cuda, name))
        setattr(cuda_module, name, sub)
        modules[f"cupy.cuda.{name}"] = sub
    for name, module in modules.items():
        module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    return modules


def _as_module(name, namespace):
    module = types.ModuleType(name)
    module.__dict__.update(vars(namespace))
    return module
