"""Tensors to kernel arrays and back without copies; the array module of an array."""

import numpy
import pytest

import opsdk
from opsdk.kernels import array_module, array_of, tensor_of

from .sample import FakeGpuArray


def test_array_of_shares_the_tensors_memory():
    t = opsdk.to_tensor([1.0, 2.0])
    array_of(t)[0] = 5.0
    assert t.numpy()[0] == 5.0


def test_tensor_of_shares_the_arrays_memory():
    a = numpy.zeros(3)
    t = tensor_of(a)
    a[1] = 7.0
    assert t.numpy()[1] == 7.0 and t.shape == [3] and t.stop_gradient


def test_a_numpy_scalar_becomes_a_zero_dimensional_tensor():
    t = tensor_of(numpy.array(2.0) * 3.0)  # NumPy returns a numpy.float64 here, not an array
    assert t.shape == [] and t.item() == 6.0


def test_array_of_refuses_what_is_not_a_tensor():
    with pytest.raises(TypeError, match="opsdk.Tensor"):
        array_of(numpy.ones(2))


def test_tensor_of_a_tensor_says_to_return_it_as_it_is():
    with pytest.raises(TypeError, match="already"):
        tensor_of(opsdk.ones([2]))


def test_array_module_of_numpy_arrays_and_scalars_is_numpy():
    assert array_module(numpy.ones(2)) is numpy and array_module(numpy.float32(1)) is numpy


def test_array_module_of_a_gpu_array_is_cupy(fake_cupy):
    assert array_module(FakeGpuArray(numpy.ones(2))) is fake_cupy
