"""opsdk.erf: its kernel (python, C, CUDA), erf_array, the Erf Function and its registration."""
import math
import shutil

import numpy
import pytest

import opsdk
from helpers.gradients import assert_first_order, assert_second_order
from opsdk.packs.builtin.erf import Erf, erf, erf_array, erf_kernel
from opsdk.errors import DTypeError
from opsdk.verification.gradcheck import gradcheck, gradgradcheck
from opsdk.kernels import cuda_status, use_backend

_X = numpy.array([-3.5, -1.0, -0.3, 0.0, 0.2, 0.46875, 0.9, 2.5, 4.5])


def _reference(x):
    x = numpy.asarray(x, dtype=numpy.float64)
    return numpy.array([math.erf(v) for v in x.ravel()]).reshape(x.shape)


def test_kernel_implements_python_c_and_cuda():
    assert erf_kernel.backends == ("python", "c", "cuda")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_kernel_agrees_with_python_kernel(dtype):
    x = numpy.random.default_rng(0).uniform(-5.0, 5.0, size=1000).astype(dtype)
    python, c = erf_kernel.run("python", x), erf_kernel.run("c", x)
    assert c.dtype == python.dtype == numpy.dtype(dtype)
    ulp = numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(c, python, rtol=4 * ulp, atol=4 * ulp)


def test_c_kernel_matches_math_erf_in_float64():
    numpy.testing.assert_allclose(erf_kernel.run("c", _X), _reference(_X), rtol=1e-15, atol=0)


def test_c_kernel_handles_empty_and_zero_dimensional_arrays():
    assert erf_kernel.run("c", numpy.zeros(0)).shape == (0,)
    assert erf_kernel.run("c", numpy.array(0.5)) == pytest.approx(math.erf(0.5), rel=1e-15)


def test_erf_array_reads_non_contiguous_arrays():
    x = numpy.linspace(-2.0, 2.0, 20).reshape(4, 5)[:, ::2]
    numpy.testing.assert_allclose(erf_array(x), _reference(x), rtol=1e-15)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_erf_array_keeps_the_dtype(dtype):
    x = numpy.array([0.1, 1.2], dtype=dtype)
    got = erf_array(x)
    assert got.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(got, _reference(x), rtol=numpy.finfo(dtype).eps * 2)


def test_erf_array_takes_lists_and_numpy_scalars():
    numpy.testing.assert_allclose(erf_array([0.5, 1.0]), _reference([0.5, 1.0]), rtol=1e-15)
    assert erf_array(numpy.float32(0.5)).dtype == numpy.float32


def test_erf_array_refuses_integer_arrays_naming_op_and_dtype():
    expected = r"opsdk\.erf: argument 'x'.*\n.*expected: float16, float32 or float64\n.*got: int64"
    with pytest.raises(DTypeError, match=expected):
        erf_array(numpy.arange(3))


def test_forced_python_backend_gives_the_same_values():
    x = opsdk.to_tensor(_X, dtype="float64")
    with use_backend("python"):
        python = erf(x).numpy()
    numpy.testing.assert_allclose(python, erf(x).numpy(), rtol=1e-15)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_erf_keeps_dtype_and_shape(dtype):
    x = opsdk.to_tensor(_X.reshape(3, 3), dtype=dtype)
    y = erf(x)
    assert y.dtype == numpy.dtype(dtype) and y.shape == [3, 3]


def test_erf_takes_python_lists():
    numpy.testing.assert_allclose(erf([0.5, -2.0]).numpy(), _reference([0.5, -2.0]), rtol=1e-6)


def test_erf_records_nothing_under_no_grad():
    x = opsdk.to_tensor([0.5], stop_gradient=False)
    with opsdk.no_grad():
        y = erf(x)
    assert y.stop_gradient and y.grad_fn is None


def test_erf_records_a_node_for_a_tensor_that_needs_a_gradient():
    y = erf(opsdk.to_tensor([0.5], stop_gradient=False))
    assert not y.stop_gradient and y.grad_fn is not None


def test_gradient_matches_central_differences():
    assert_first_order(erf, [numpy.linspace(-2.5, 2.5, 11)])


def test_second_order_gradient_matches_central_differences():
    assert_second_order(erf, [numpy.linspace(-2.5, 2.5, 11)])


@pytest.mark.parametrize("backend", ["python", "c"])
def test_passes_gradcheck_on_each_cpu_backend(backend):
    x = opsdk.to_tensor(numpy.linspace(-2.5, 2.5, 7), dtype="float64", stop_gradient=False)
    with use_backend(backend):
        assert gradcheck(erf, (x,))


@pytest.mark.parametrize("backend", ["python", "c"])
def test_passes_gradgradcheck_on_each_cpu_backend(backend):
    x = opsdk.to_tensor(numpy.linspace(-2.5, 2.5, 7), dtype="float64", stop_gradient=False)
    with use_backend(backend):
        assert gradgradcheck(erf, (x,))


def test_passes_gradcheck_through_the_public_opsdk_autograd_name():
    x = opsdk.to_tensor(numpy.linspace(-2.5, 2.5, 7), dtype="float64", stop_gradient=False)
    assert opsdk.autograd.gradcheck(erf, (x,))


def test_gradient_keeps_float32():
    x = opsdk.to_tensor([0.5, -1.0], dtype="float32", stop_gradient=False)
    erf(x).sum().backward()
    assert x.grad.dtype == numpy.float32
    want = 2 / math.sqrt(math.pi) * numpy.exp(-x.numpy() ** 2)
    numpy.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6)


def test_is_registered_as_opsdk_erf_with_double_backward_and_its_kernel():
    op = opsdk.ops.get("opsdk.erf")
    assert (op.pack, op.function, op.double_backward) == ("opsdk", Erf, True)
    assert op.kernels == (erf_kernel,)
    assert op.backends == ("python", "c", "cuda")


def test_registered_op_calls_erf():
    x = opsdk.to_tensor([0.5], dtype="float64")
    assert opsdk.ops.opsdk.erf(x).item() == pytest.approx(math.erf(0.5), rel=1e-15)


@pytest.mark.skipif(shutil.which("nvcc") is None,
                    reason="nvcc is not on PATH: the CUDA source cannot be compile-checked")
def test_cuda_source_passes_the_nvcc_compile_check():
    assert erf_kernel.check_cuda().checked


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_status()[0], reason=f"no CUDA device: {cuda_status()[1]}")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cuda_kernel_agrees_with_python_kernel_on_gpu(dtype):
    import cupy

    x = cupy.asarray(numpy.random.default_rng(0).uniform(-5.0, 5.0, size=1000).astype(dtype))
    cuda, python = erf_kernel.run("cuda", x), erf_kernel.run("python", x)
    assert isinstance(cuda, cupy.ndarray) and cuda.dtype == numpy.dtype(dtype)
    ulp = numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(cuda.get(), python.get(), rtol=4 * ulp, atol=4 * ulp)


def test_float64_grad_outputs_for_a_float32_input_are_accepted_like_every_op():
    x = opsdk.to_tensor([0.5, -1.0], dtype="float32", stop_gradient=False)
    seed = opsdk.to_tensor([1.0, 2.0], dtype="float64")
    (g,) = opsdk.grad([erf(x)], [x], grad_outputs=[seed], create_graph=True)
    (e,) = opsdk.grad([opsdk.exp(x)], [x], grad_outputs=[seed])
    assert g.dtype == e.dtype == numpy.float32
    want = 2 / math.sqrt(math.pi) * numpy.exp(-x.numpy().astype(numpy.float64) ** 2) * [1.0, 2.0]
    numpy.testing.assert_allclose(g.numpy(), want, rtol=1e-6)
    (g2,) = opsdk.grad([g], [x], grad_outputs=[seed])  # and differentiable again
    assert g2.dtype == numpy.float32
