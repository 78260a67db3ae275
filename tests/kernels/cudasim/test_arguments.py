"""Launch arguments follow CuPy's rules, and one that does not fit its parameter is refused by name."""
import numpy
import pytest

from opsdk.errors import KernelArgumentError


def _scalars(cp, probe, *args):
    out = cp.zeros(6, cp.float64)
    probe.get_function("takes_scalars")((1,), (1,), (out, *args))
    return out.get().tolist()


def test_arguments_of_the_right_width_arrive_exactly(cp, probe):
    assert _scalars(cp, probe, numpy.float32(1.5), 2.25, numpy.int32(-7), 2**40, numpy.uint8(200),
                    numpy.bool_(True)) == [1.5, 2.25, -7.0, 2.0**40, 200.0, 1.0]


def test_a_python_float_for_a_float_parameter_is_refused_naming_kernel_and_argument(cp, probe):
    with pytest.raises(KernelArgumentError) as error:
        _scalars(cp, probe, 1.5, 2.25, numpy.int32(1), 1, numpy.uint8(1), True)
    message = str(error.value)
    assert "kernel 'takes_scalars'" in message and "argument 'f' (#1)" in message
    assert "expected: float (4 bytes): numpy.float32" in message
    assert "got: a Python float, passed by CuPy as a double (8 bytes)" in message


def test_a_float32_for_a_double_parameter_is_refused(cp, probe):
    with pytest.raises(KernelArgumentError, match=r"argument 'd' \(#2\)(?s:.)*got: numpy.float32 \(4 bytes\)"):
        _scalars(cp, probe, numpy.float32(1), numpy.float32(2), numpy.int32(1), 1, numpy.uint8(1), True)


def test_a_narrower_integer_for_a_long_long_parameter_is_refused(cp, probe):
    with pytest.raises(KernelArgumentError, match=r"argument 'l' \(#4\)(?s:.)*reads 8 bytes, past the 4 given"):
        _scalars(cp, probe, numpy.float32(1), 2.0, numpy.int32(1), numpy.int32(3), numpy.uint8(1), True)


def test_a_wider_integer_that_fits_is_read_by_its_low_bytes_as_on_a_gpu(cp, probe):
    assert _scalars(cp, probe, numpy.float32(1), 2.0, 5, 3, 9, True)[2:] == [5.0, 3.0, 9.0, 1.0]


def test_a_wider_integer_that_does_not_fit_is_refused(cp, probe):
    with pytest.raises(KernelArgumentError, match="holding 300, which does not fit in 1 bytes"):
        _scalars(cp, probe, numpy.float32(1), 2.0, 5, 3, 300, True)


def test_an_array_of_the_wrong_dtype_for_a_pointer_is_refused(cp, probe):
    x = cp.zeros(4, cp.float64)
    with pytest.raises(KernelArgumentError) as error:
        probe.get_function("copy_unchecked")((1,), (4,), (x, cp.zeros(4, cp.float32)))
    message = str(error.value)
    assert "argument 'x' (#0)" in message and "expected: const float*" in message
    assert "a float64 array (8-byte elements) where the kernel reads 4-byte float" in message


def test_a_scalar_for_a_pointer_and_an_array_for_a_scalar_are_refused(cp, probe):
    y = cp.zeros(4, cp.float32)
    with pytest.raises(KernelArgumentError, match="a scalar where the kernel takes a pointer"):
        probe.get_function("write_at")((1,), (1,), (numpy.int64(0), numpy.int64(0)))
    with pytest.raises(KernelArgumentError, match="a device array where the kernel takes a scalar"):
        probe.get_function("write_at")((1,), (1,), (y, y))


def test_a_numpy_array_is_refused_as_cupy_refuses_it(cp, probe):
    with pytest.raises(KernelArgumentError, match="NumPy .host. array.*cupy.asarray"):
        probe.get_function("copy_unchecked")((1,), (4,), (numpy.zeros(4, numpy.float32), cp.zeros(4, cp.float32)))


def test_the_wrong_number_of_arguments_is_refused(cp, probe):
    with pytest.raises(KernelArgumentError, match=r"expected: 2 \('x' \(#0\), 'y' \(#1\)\)\n  got: 1"):
        probe.get_function("copy_unchecked")((1,), (4,), (cp.zeros(4, cp.float32),))


def test_grid_and_block_must_be_tuples_as_in_cupy(cp, probe):
    y = cp.zeros(4, cp.float32)
    with pytest.raises(TypeError, match="Argument 'grid' has incorrect type"):
        probe.get_function("write_at")([1], (1,), (y, numpy.int64(0)))


def test_too_many_threads_or_too_much_shared_memory_is_an_invalid_configuration(cp, probe):
    y = cp.zeros(4, cp.float32)
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_INVALID_VALUE.*2048 threads"):
        probe.get_function("write_at")((1,), (2048,), (y, numpy.int64(0)))
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="exceeds the 49152 bytes"):
        probe.get_function("write_at")((1,), (1,), (y, numpy.int64(0)), shared_mem=64 * 1024)


def test_arrays_on_another_device_than_the_launch_are_refused(cp, probe):
    from opsdk.kernels import cudasim

    cudasim.install(devices=2)
    try:
        with cp.cuda.Device(1):
            x = cp.zeros(4, cp.float32)
        y = cp.zeros(4, cp.float32)
        with pytest.raises(KernelArgumentError, match="argument 'x' .#0. lives on device 1, but the kernel "
                                                      "launches on device 0"):
            probe.get_function("copy_unchecked")((1,), (4,), (x, y))
    finally:
        cudasim.install(devices=1)
