"""torch tensors to kernel arrays and back by DLPack, without copies: NumPy on the CPU, CuPy
on a GPU. A non-contiguous tensor is made contiguous once (the kernels take flat buffers); an
output that shares memory with an input (or an earlier output) is copied, because torch ops
must return fresh tensors."""
import numpy as np
import torch

from ..errors import InteropError


def to_array(t, op, arg):
    """The tensor's memory as a NumPy (CPU) or CuPy (CUDA) array."""
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


def _xp(array):
    if type(array) is np.ndarray:
        return np
    import cupy

    return cupy


def fresh(arrays, inputs):
    """The arrays, each copied where it shares memory with an input or an earlier one, made
    C-contiguous and writable (what torch.from_numpy and fake tensors expect)."""
    out = []
    for a in arrays:
        xp = _xp(a)
        a = xp.asarray(a)
        if any(b is not None and xp.may_share_memory(a, b) for b in (*inputs, *out)):
            a = a.copy()
        elif xp is np and not (a.flags.c_contiguous and a.flags.writeable):
            a = np.ascontiguousarray(a) if a.flags.writeable else a.copy()
        elif xp is not np and not a.flags.c_contiguous:
            a = xp.ascontiguousarray(a)
        out.append(a)
    return out


def to_torch(array):
    """A torch tensor over the array's memory."""
    if type(array) is np.ndarray:
        return torch.from_numpy(array)
    return torch.from_dlpack(array)
