"""torch tensors to kernel arrays and back by DLPack, without copies: NumPy on the CPU, CuPy
on a GPU. A non-contiguous tensor is made contiguous once (the kernels take flat buffers); an
output that shares memory with an input (or an earlier output) is copied, because torch ops
must return fresh tensors."""
import numpy as np
import torch

from ..errors import InteropError
from .arrays import fresh  # noqa: F401 (re-exported for the torch adapter)


def to_array(t, op, arg):
    """The tensor's memory as a NumPy (CPU) or CuPy (CUDA) array."""
    if t.is_cpu and t.is_contiguous():
        try:
            return t.numpy(force=True)  # a view: for a CPU tensor, force only detaches
        except TypeError:
            pass  # a dtype NumPy lacks: the error below
    if t.requires_grad:
        t = t.detach()
    if not t.is_contiguous():
        t = t.contiguous()
    if t.device.type == "cpu":
        try:
            return t.numpy()
        except TypeError:
            raise InteropError(f"{op}: argument '{arg}' has dtype {t.dtype}, which NumPy (and so "
                               "opsdk's kernels) cannot hold; expected: a float16/32/64, int or "
                               f"bool tensor; got: {t.dtype}") from None
    if t.device.type == "cuda":
        import cupy  # only reached for CUDA tensors

        return cupy.from_dlpack(t)
    raise InteropError(f"{op}: argument '{arg}' lives on device '{t.device}'; expected: cpu or "
                       f"cuda (opsdk runs C/python kernels on NumPy, CUDA kernels on CuPy)")


def to_torch(array):
    """A torch tensor over the array's memory."""
    if type(array) is np.ndarray:
        return torch.from_numpy(array)
    return torch.from_dlpack(array)
