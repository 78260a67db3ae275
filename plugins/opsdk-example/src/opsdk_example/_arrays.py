"""Tensors to kernel arrays and back, without copies: NumPy arrays on the CPU, CuPy arrays on a GPU."""
import numpy

import opsdk


def array_of(tensor):
    """The tensor's values as the array a kernel takes (shares its memory)."""
    if tensor.place.is_gpu_place():
        import cupy  # only ever needed for tensors that already live on a GPU

        return cupy.from_dlpack(tensor)
    # DLPack, not numpy(): Tensor.numpy() returns a copy (as Paddle's does)
    return numpy.from_dlpack(tensor)


def tensor_of(array):
    """A Tensor around a kernel's output array (shares its memory)."""
    return opsdk.from_dlpack(array)


def array_module(array):
    """numpy for a NumPy array, cupy for a CuPy array: what a python kernel calls."""
    if type(array).__module__.startswith("cupy"):
        import cupy

        return cupy
    return numpy
