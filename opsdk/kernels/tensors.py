"""Tensors to kernel arrays and back without copies, and the array module (NumPy or CuPy) of an array."""

import sys

import numpy

from opsdk.kernels.arrays import is_gpu_array
from opsdk.tensor import Tensor, _wrap

_ndarray = numpy.ndarray


def array_of(tensor):
    """The array behind a Tensor, as kernels take it: NumPy on the CPU, CuPy on a GPU (no copy).

    Args:
        tensor: an ``opsdk.Tensor``.

    Returns:
        The Tensor's own array: writing into it changes the Tensor.

    Example:
        >>> array_of(opsdk.to_tensor([1.0, 2.0]))
        array([1., 2.], dtype=float32)
    """
    try:
        return tensor.array
    except AttributeError:
        raise TypeError(f"array_of: expected: an opsdk.Tensor\n  got: {type(tensor).__name__}") from None


def tensor_of(array):
    """A Tensor around a kernel's output array, sharing its memory.

    NumPy scalars (what NumPy returns for 0-d arithmetic) become 0-d Tensors.

    Args:
        array: a NumPy or CuPy array.

    Returns:
        An ``opsdk.Tensor`` on the array's device, with ``stop_gradient=True`` (a Function's
        outputs get their gradient links from the engine).

    Example:
        >>> tensor_of(numpy.ones(2)).shape
        paddle.Size([2])
    """
    if type(array) is _ndarray or is_gpu_array(array):
        return _wrap(array)
    if isinstance(array, Tensor):
        raise TypeError("tensor_of: expected: a NumPy or CuPy array\n  got: an opsdk.Tensor "
                        "(it is a Tensor already: return it as it is)")
    return _wrap(numpy.asarray(array))


def array_module(array):
    """``numpy`` for NumPy arrays (and scalars), ``cupy`` for CuPy arrays: what a python kernel calls.

    Example:
        >>> array_module(numpy.ones(2)) is numpy
        True
    """
    if type(array) is _ndarray or not is_gpu_array(array):
        return numpy
    return sys.modules["cupy"]  # a CuPy array exists, so CuPy is imported

