"""Loading the simulator's runtime (once per process) and its kernel modules."""
import ctypes
import threading

from opsdk.errors import KernelBuildError

from . import abi
from .build import build_module, build_runtime

# one lock for everything that touches the runtime's state: launches, allocations, frees
LOCK = threading.RLock()
_runtime = None
_modules = {}  # path -> LoadedModule
_failed = {}  # (code, options, names) -> the KernelBuildError of its build: a retry fails alike


def runtime():
    """The runtime library (ctypes), built and loaded on first use."""
    global _runtime
    if _runtime is None:
        with LOCK:
            if _runtime is None:
                # RTLD_GLOBAL: kernel modules resolve threadIdx, the hooks and the collectives here
                lib = abi.declare_runtime(ctypes.CDLL(build_runtime(), mode=ctypes.RTLD_GLOBAL))
                if lib.opsdk_sim_abi() != abi.ABI:
                    raise KernelBuildError("CUDA simulator: the cached runtime has another ABI; "
                                           "run `opsdk cache clear`")
                _runtime = lib
    return _runtime


class KernelHandle:
    """One kernel of a loaded module: its entry point and parameter descriptions."""

    def __init__(self, module, name, table_row, meta):
        self.module = module
        self.name = name
        self.entry = table_row.entry
        self.params = [table_row.params[i] for i in range(table_row.nparams)]
        self.names = [p[1] for p in meta["params"]]
        self.spellings = [p[0] for p in meta["params"]]
        self.file, self.line = meta["file"], meta["line"]

    @property
    def where(self):
        """``file:line`` of the kernel's definition."""
        return f"{self.file}:{self.line}"


class LoadedModule:
    """A compiled CUDA source in this process: its kernels by name."""

    def __init__(self, built):
        runtime()
        self.lib = ctypes.CDLL(built.path)
        self.build = built
        self.lib.opsdk_sim_module_abi.restype = ctypes.c_int
        if self.lib.opsdk_sim_module_abi() != abi.ABI:
            raise KernelBuildError(f"CUDA simulator: module {built.path} has another ABI; run `opsdk cache clear`")
        table = self.lib.opsdk_sim_kernels
        table.argtypes = [ctypes.POINTER(ctypes.c_int)]
        table.restype = ctypes.POINTER(abi.SimKernel)
        count = ctypes.c_int()
        rows = table(ctypes.byref(count))
        self.kernels = {}
        for i in range(count.value):
            row = rows[i]
            name = row.name.decode()
            self.kernels[name] = KernelHandle(self, name, row, built.kernels[name])


def load(code, options=(), name_expressions=(), display_name="<CUDA source>"):
    """The LoadedModule of a CUDA source (compiled on first use, memoised per process)."""
    key = (code, tuple(options), tuple(name_expressions or ()))
    if key in _failed:
        raise _failed[key]
    try:
        built = build_module(code, tuple(options), tuple(name_expressions or ()), display_name)
    except KernelBuildError as exc:
        _failed[key] = exc
        raise
    with LOCK:
        module = _modules.get(built.path)
        if module is None:
            module = _modules[built.path] = LoadedModule(built)
        return module
