"""``cupy.RawModule`` and ``cupy.RawKernel`` of the simulator: CUDA C++ compiled for the host.

As in CuPy, nothing compiles until a kernel is first asked for; ``get_function`` returns a
``RawKernel`` whose call takes ``(grid, block, args, shared_mem=0, stream=None)``.
"""
from opsdk.errors import KernelBuildError, UnsupportedError

from .. import launch as _launch
from .. import loader
from .cuda import CUDADriverError, CompileException


def _compiled(code, options, name_expressions):
    try:
        return loader.load(code, options, name_expressions, _display_name(code))
    except KernelBuildError as exc:
        if isinstance(exc, CompileException):
            raise
        raise CompileException(str(exc)) from None


def _display_name(code):
    """The file a ``#line 1 "file"`` first line names, else '<CUDA source>'."""
    first = code.split("\n", 1)[0].strip()
    if first.startswith("#line") and '"' in first:
        return first.split('"', 1)[1].rsplit('"', 1)[0]
    return "<CUDA source>"


class RawModule:
    """CUDA source holding several kernels (compiled on the first ``get_function``)."""

    def __init__(self, *, code=None, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("Exactly one of `code` and `path` keyword arguments must be given.")
        if path is not None:
            raise CompileException(f"RawModule(path={path!r}): the CUDA simulator runs CUDA C++ source, "
                                   "not a compiled cubin or PTX file")
        self.code = code
        self.options = tuple(options)
        self.backend = backend
        self.name_expressions = tuple(name_expressions) if name_expressions is not None else None
        self._module = None

    def _load(self):
        if self._module is None:
            self._module = _compiled(self.code, self.options, self.name_expressions or ())
        return self._module

    def compile(self, log_stream=None):
        self._load()

    def get_function(self, name):
        module = self._load()
        handle = module.kernels.get(name)
        if handle is None:
            raise CUDADriverError(
                f"CUDA_ERROR_NOT_FOUND: named symbol not found (simulator: no kernel {name!r}; the "
                f"source's extern \"C\" kernels and name expressions are {sorted(module.kernels)})")
        return RawKernel._bound(self.code, name, self.options, handle)

    def get_global(self, name):
        raise UnsupportedError("RawModule.get_global is not simulated: pass the values as kernel arguments")


class RawKernel:
    """One CUDA kernel: ``kernel(grid, block, args, shared_mem=0, stream=None)``."""

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        self.code, self.name, self.options = code, name, tuple(options)
        self.__name__ = name
        self._handle = None
        self.max_dynamic_shared_size_bytes = _launch.DEFAULT_SHARED
        self.preferred_shared_memory_carveout = -1

    @classmethod
    def _bound(cls, code, name, options, handle):
        kernel = cls(code, name, options)
        kernel._handle = handle
        return kernel

    @property
    def kernel(self):
        if self._handle is None:
            module = _compiled(self.code, self.options, ())
            self._handle = module.kernels.get(self.name)
            if self._handle is None:
                raise CUDADriverError(f"CUDA_ERROR_NOT_FOUND: named symbol not found ({self.name!r} is "
                                      f"not an extern \"C\" kernel of the source)")
        return self._handle

    def compile(self, log_stream=None):
        return self.kernel

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None, enable_cooperative_groups=False):
        _launch.launch(self.kernel, grid, block, args, shared_mem=shared_mem, stream=stream,
                       max_dynamic_shared=self.max_dynamic_shared_size_bytes)

    @property
    def attributes(self):
        return {"max_threads_per_block": self.max_threads_per_block, "shared_size_bytes": 0,
                "const_size_bytes": 0, "local_size_bytes": 0, "num_regs": 32, "ptx_version": 80,
                "binary_version": 80, "cache_mode_ca": 0,
                "max_dynamic_shared_size_bytes": self.max_dynamic_shared_size_bytes,
                "preferred_shared_memory_carveout": self.preferred_shared_memory_carveout}

    max_threads_per_block = 1024
    shared_size_bytes = 0
    num_regs = 32
