"""example.swish as users call it: values, gradients of first and second order, dtypes, devices.

swish is elementwise, so its Jacobian is diagonal and central differences of whole arrays give
every derivative at once; these are the oracle (float64, h = 1e-6).
"""
import numpy
import pytest

import opsdk
from opsdk.kernels import cuda_status, use_backend
from opsdk_example.swish import swish

BETA = 1.5
H = 1e-6
X = numpy.linspace(-4.0, 4.0, 17)


def _closed_form(x, beta=BETA):
    return x / (1.0 + numpy.exp(-beta * x))


def _leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def _gradient(x, beta=BETA):
    """d swish / dx at each element of x, by backward."""
    t = _leaf(x)
    (g,) = opsdk.grad(swish(t, beta), t)
    return g.numpy()


def _second_derivative(x):
    """d2 swish / dx2 at each element of x, by double backward."""
    t = _leaf(x)
    (g,) = opsdk.grad(swish(t, BETA), t, create_graph=True)
    (gg,) = opsdk.grad(g.sum(), t)
    return gg.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_forward_matches_the_closed_form(cpu_backend, dtype):
    with use_backend(cpu_backend):
        y = swish(opsdk.to_tensor(X, dtype=dtype), BETA)
    assert y.dtype == numpy.dtype(dtype) and y.shape == [X.size]
    numpy.testing.assert_allclose(y.numpy(), _closed_form(X), rtol=10 * numpy.finfo(dtype).eps, atol=1e-7)


def test_beta_defaults_to_one_which_is_silu():
    y = opsdk.ops.example.swish(opsdk.to_tensor(X, dtype="float64"))
    numpy.testing.assert_allclose(y.numpy(), _closed_form(X, beta=1.0), rtol=1e-15)


def test_gradient_matches_central_differences(cpu_backend):
    with use_backend(cpu_backend):
        got = _gradient(X)
    numeric = (_closed_form(X + H) - _closed_form(X - H)) / (2 * H)
    numpy.testing.assert_allclose(got, numeric, rtol=1e-7, atol=1e-8)


def test_second_derivative_matches_central_differences_of_the_gradient(cpu_backend):
    with use_backend(cpu_backend):
        got = _second_derivative(X)
        numeric = (_gradient(X + H) - _gradient(X - H)) / (2 * H)
    numpy.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-7)


def test_gradient_is_differentiable_in_the_incoming_gradient(cpu_backend):
    # d/dv <u, v * swish'(x)> = u * swish'(x): SwishGrad's gradient for dy
    u = numpy.random.default_rng(0).uniform(0.5, 1.5, X.size)
    with use_backend(cpu_backend):
        t, v = _leaf(X), _leaf(numpy.ones(X.size))
        (g,) = opsdk.grad(swish(t, BETA), t, grad_outputs=v, create_graph=True)
        (gv,) = opsdk.grad((g * opsdk.to_tensor(u)).sum(), v)
    numpy.testing.assert_allclose(gv.numpy(), u * _gradient(X), rtol=1e-14)


def test_third_derivative_matches_central_differences_of_the_second():
    t = _leaf(X)
    (g,) = opsdk.grad(swish(t, BETA), t, create_graph=True)
    (gg,) = opsdk.grad(g.sum(), t, create_graph=True)
    (ggg,) = opsdk.grad(gg.sum(), t)
    numeric = (_second_derivative(X + H) - _second_derivative(X - H)) / (2 * H)
    numpy.testing.assert_allclose(ggg.numpy(), numeric, rtol=1e-6, atol=1e-7)


def test_float32_stays_float32_through_backward():
    t = _leaf(X, "float32")
    swish(t, numpy.float64(BETA)).sum().backward()
    assert t.grad.dtype == numpy.float32


def test_tensors_that_need_no_gradient_record_nothing():
    y = swish(opsdk.to_tensor(X), BETA)
    assert y.stop_gradient and y.grad_fn is None


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_status()[0], reason=f"no CUDA device: {cuda_status()[1]}")
def test_gpu_forward_and_backward_match_the_cpu():
    t = opsdk.to_tensor(X, dtype="float64", place="gpu", stop_gradient=False)
    y = swish(t, BETA)
    y.sum().backward()
    assert y.place.is_gpu_place() and t.grad.place.is_gpu_place()
    numpy.testing.assert_allclose(y.numpy(), _closed_form(X), rtol=1e-14)
    numpy.testing.assert_allclose(t.grad.numpy(), _gradient(X), rtol=1e-14)
