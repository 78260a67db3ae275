"""The simulated cupy.ndarray: NumPy semantics on the device, CuPy's rules about the host."""
import re
import warnings

import numpy
import pytest


def test_it_says_it_is_simulated(cp):
    assert cp.ndarray.simulated and cp.__opsdk_simulator__
    assert "opsdk" in cp.__version__ and type(cp.zeros(1)).__module__ == "cupy"
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    assert "simulator" in name


def test_no_implicit_transfer_to_numpy(cp):
    x = cp.arange(3)
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        numpy.asarray(x)
    assert x.get().tolist() == [0, 1, 2] and cp.asnumpy(x).tolist() == [0, 1, 2]


def test_mixing_a_numpy_array_into_device_arithmetic_is_refused(cp):
    with pytest.raises(TypeError, match="NumPy .host. array mixed with CuPy arrays"):
        cp.arange(3) + numpy.arange(3)
    assert (cp.arange(3) + 1).get().tolist() == [1, 2, 3]  # scalars are fine


def test_results_and_indexing_return_device_arrays_even_for_scalars(cp):
    x = cp.asarray(numpy.array([[1.0, 2.0], [3.0, 4.0]]))
    assert isinstance(x.sum(), cp.ndarray) and x.sum().ndim == 0 and float(x.sum()) == 10.0
    assert isinstance(x[0, 1], cp.ndarray) and float(x[0, 1]) == 2.0
    assert isinstance(cp.exp(x), cp.ndarray) and isinstance(numpy.exp(x), cp.ndarray)
    assert isinstance(numpy.concatenate([x, x]), cp.ndarray)


def test_views_share_memory_with_their_base(cp):
    x = cp.zeros((4, 4), cp.float32)
    x[1:3, ::2] = 5
    x.T[0, 0] = 7
    x.reshape(16)[15] = 9
    assert x.get()[1].tolist() == [5, 0, 5, 0] and x.get()[0, 0] == 7 and x.get()[3, 3] == 9
    assert not x[:, ::2].flags.c_contiguous and cp.ascontiguousarray(x[:, ::2]).flags.c_contiguous


def test_empty_memory_is_a_nan_pattern_and_zeros_is_zero(cp):
    assert numpy.isnan(cp.empty(5, cp.float32).get()).all()
    assert numpy.isnan(cp.empty_like(cp.zeros(3, cp.float64)).get()).all()
    assert not cp.zeros(5, cp.float32).get().any()


def test_broadcast_views_are_writable_device_arrays(cp):
    b = cp.broadcast_to(cp.arange(3.0), (2, 3))
    assert isinstance(b, cp.ndarray) and b.shape == (2, 3) and b.strides[0] == 0
    assert cp.from_dlpack(b).shape == (2, 3)


def test_cuda_array_interface_and_dlpack_say_cuda(cp):
    x = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    cai = x.__cuda_array_interface__
    assert cai["shape"] == (2, 3) and cai["typestr"] == "<f4" and cai["data"][0] == x.data.ptr
    assert x.__dlpack_device__() == (2, 0)
    y = cp.from_dlpack(x)
    y[0, 0] = 42
    assert float(x[0, 0]) == 42


def test_opsdk_tensors_on_the_gpu_place_are_device_arrays(cp):
    import opsdk

    t = opsdk.to_tensor([1.0, 2.0, 3.0], place="gpu", stop_gradient=False)
    assert isinstance(t.array, cp.ndarray) and t.place.is_gpu_place()
    (t * t).sum().backward()
    assert t.grad.place.is_gpu_place() and t.grad.numpy().tolist() == [2.0, 4.0, 6.0]
    assert isinstance(opsdk.from_dlpack(t.array).array, cp.ndarray)


def test_operands_must_live_on_the_current_device(cp):
    from opsdk.kernels import cudasim

    cudasim.install(devices=2)
    try:
        with cp.cuda.Device(1):
            x = cp.ones(3)
            assert x.device.id == 1 and float((x + 1).sum()) == 6.0
        with pytest.raises(ValueError, match="Array device must be same as the current device"):
            x + 1
    finally:
        cudasim.install(devices=1)


def test_streams_and_devices_are_context_managers(cp):
    assert cp.cuda.get_current_stream() is cp.cuda.Stream.null
    with cp.cuda.Stream() as s:
        assert cp.cuda.get_current_stream() is s and s.ptr != 0
    assert cp.cuda.get_current_stream() is cp.cuda.Stream.null
    assert cp.cuda.Device().id == 0 and cp.cuda.runtime.getDeviceCount() == 1


def test_testing_and_random_work_on_device_arrays(cp):
    x = cp.random.default_rng(0).standard_normal(1000, dtype=cp.float32)
    assert isinstance(x, cp.ndarray) and x.dtype == cp.float32
    cp.testing.assert_allclose(x, x.copy())


def test_lists_and_numpy_arrays_index_device_arrays_as_in_cupy(cp):
    x = cp.arange(5.0)
    assert x[[0, 3]].get().tolist() == [0.0, 3.0] and x[numpy.array([4, 1])].get().tolist() == [4.0, 1.0]
    x[numpy.array([0, 1])] = 9.0
    assert x[cp.asarray(numpy.array([0, 1, 2]))].get().tolist() == [9.0, 9.0, 2.0]


def test_broadcast_views_are_adopted_without_numpy_s_future_warning(cp):
    # NumPy warns when the writeable flag of a broadcast_arrays view is read; every simulated
    # op broadcasting its inputs printed it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b = cp.broadcast_arrays(cp.ones((3, 1)), cp.arange(4.0).reshape(1, 4))
        assert (a + b).get().tolist() == [[1.0, 2.0, 3.0, 4.0]] * 3


def test_what_the_simulator_does_not_simulate_is_refused_naming_the_way_round(cp, probe):
    from opsdk.errors import UnsupportedError

    for call, says in ((lambda: cp.ElementwiseKernel("T x", "T y", "y = x", "copy"), "write the kernel as a RawKernel"),
                       (lambda: cp.fromDlpack(None), "use cupy.from_dlpack(array)"),
                       (lambda: probe.get_global("n"), "pass the values as kernel arguments")):
        with pytest.raises(UnsupportedError, match=re.escape(says)) as info:
            call()
        assert isinstance(info.value, NotImplementedError)  # as CuPy code that probes for it expects
