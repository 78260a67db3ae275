"""Kernels: array-level implementations in Python, C (cffi) and CUDA (CuPy), and their dispatch.

Importing this package compiles nothing and imports neither cffi's compiler machinery nor CuPy:
C sources are built (or loaded from the on-disk cache) on a kernel's first call.
"""

from opsdk.kernels import outputs
from opsdk.kernels.arrays import c_pointer, device_of
from opsdk.kernels.cache import CACHE_FIX, CacheInfo, cache_dir, cache_info, cache_problem, clear_cache
from opsdk.kernels.cbuild import build_c
from opsdk.kernels.outputs import empty, empty_like
from opsdk.kernels.compiler import CompilerInfo, compiler_info
from opsdk.kernels.cuda import cuda_status, launch_1d, launch_config_1d
from opsdk.kernels.dispatch import BACKENDS, current_backend, use_backend
from opsdk.kernels.functions import c_function, cuda_function, dtype_suffix
from opsdk.kernels.kernel import Kernel, all_kernels
from opsdk.kernels.nvcc import CudaCheck, check_cuda_source, find_nvcc
from opsdk.kernels.sources import CSource, CudaSource
from opsdk.kernels.tensors import array_module, array_of, tensor_of

__all__ = [
    "BACKENDS",
    "CACHE_FIX",
    "CSource",
    "CacheInfo",
    "CompilerInfo",
    "CudaCheck",
    "CudaSource",
    "Kernel",
    "all_kernels",
    "array_module",
    "array_of",
    "build_c",
    "c_function",
    "c_pointer",
    "cache_dir",
    "cache_info",
    "cache_problem",
    "check_cuda_source",
    "clear_cache",
    "compiler_info",
    "cuda_function",
    "cuda_status",
    "current_backend",
    "device_of",
    "dtype_suffix",
    "empty",
    "empty_like",
    "find_nvcc",
    "launch_1d",
    "launch_config_1d",
    "outputs",
    "tensor_of",
    "use_backend",
]
