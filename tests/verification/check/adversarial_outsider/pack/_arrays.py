"""Tensors to arrays and back without copies."""
import numpy

import opsdk


def array_of(tensor):
    # Tensor.numpy() returns a copy (as Paddle's); DLPack hands over the memory itself
    return numpy.from_dlpack(tensor)


def tensor_of(array):
    return opsdk.from_dlpack(array)
