"""softmax and log_softmax: every axis, large magnitudes, gradients, errors."""
import numpy
import pytest

import opsdk
from opsdk.errors import DTypeError, InplaceModifiedError, OpArgumentError
from opsdk_nn import functional as F

from .. import reference as ref

TOL = {"float32": dict(rtol=2e-6, atol=1e-6), "float64": dict(rtol=1e-13, atol=1e-14)}
GRAD_TOL = {"float32": dict(rtol=1e-5, atol=1e-6), "float64": dict(rtol=1e-7, atol=1e-9)}
FUNCS = [(F.softmax, ref.softmax), (F.log_softmax, ref.log_softmax)]
IDS = ["softmax", "log_softmax"]


@pytest.mark.parametrize("op, reference", FUNCS, ids=IDS)
@pytest.mark.parametrize("shape, axis", [((4, 7), -1), ((4, 7), 0), ((2, 3, 5), 1), ((6,), 0)])
def test_forward_matches_reference_on_every_axis(backend, dtype, op, reference, shape, axis):
    xa = numpy.random.default_rng(0).normal(0, 3, shape).astype(dtype)
    got = op(opsdk.to_tensor(xa), axis=axis).numpy()
    assert got.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(got, reference(xa.astype(numpy.float64), axis), **TOL[dtype])


@pytest.mark.parametrize("op, reference", FUNCS, ids=IDS)
@pytest.mark.parametrize("axis", [-1, 0])
def test_gradient_matches_numeric_gradient(backend, dtype, op, reference, axis):
    rng = numpy.random.default_rng(1)
    xa, v = rng.normal(0, 2, (3, 5)), rng.normal(0, 1, (3, 5))
    x = opsdk.to_tensor(xa.astype(dtype), stop_gradient=False)
    (g,) = opsdk.grad([op(x, axis=axis)], [x], grad_outputs=[opsdk.to_tensor(v.astype(dtype))])
    (want,) = ref.numeric_vjp(lambda a: reference(a, axis), [xa], v)
    numpy.testing.assert_allclose(g.numpy(), want, **GRAD_TOL[dtype])


def test_softmax_of_plus_minus_1e4_is_exact(backend, dtype):
    xa = numpy.array([[1e4, -1e4, 0.0, 1e4 - 1.0], [-1e4, -1e4, -1e4, -1e4]], dtype)
    x = opsdk.to_tensor(xa, stop_gradient=False)
    y = F.softmax(x)
    numpy.testing.assert_allclose(y.numpy(), ref.softmax(xa.astype(numpy.float64)), **TOL[dtype])
    (y * opsdk.to_tensor(numpy.arange(8.0).reshape(2, 4).astype(dtype))).sum().backward()
    assert numpy.isfinite(x.grad.numpy()).all()


def test_log_softmax_does_not_underflow_to_minus_infinity(backend, dtype):
    xa = numpy.array([0.0, -1e4, -200.0], dtype)
    x = opsdk.to_tensor(xa, stop_gradient=False)
    y = F.log_softmax(x)
    numpy.testing.assert_allclose(y.numpy(), [0.0, -1e4, -200.0], rtol=1e-7, atol=1e-30)
    y.sum().backward()
    numpy.testing.assert_allclose(x.grad.numpy(), [-2.0, 1.0, 1.0], rtol=1e-6)


def test_log_softmax_of_large_equal_logits_keeps_the_small_part(backend, dtype):
    y = F.log_softmax(opsdk.to_tensor(numpy.array([1e4, 1e4, 1e4 - 3.0], dtype))).numpy()
    numpy.testing.assert_allclose(y, ref.log_softmax(numpy.array([0.0, 0.0, -3.0])), rtol=1e-6)


def test_second_order_through_softmax_matches_numeric(backend):
    xa = numpy.array([[0.3, -1.2, 2.0, 0.1]])
    x = opsdk.to_tensor(xa, stop_gradient=False)
    w = opsdk.to_tensor([[1.0, 2.0, -1.0, 0.5]])
    (g,) = opsdk.grad([(F.softmax(x) * w).sum()], [x], create_graph=True)
    (gg,) = opsdk.grad([(g * g).sum()], [x])

    def first(a):
        p = ref.softmax(a)
        return p * (w.numpy() - (w.numpy() * p).sum(axis=-1, keepdims=True))

    (want,) = ref.numeric_vjp(lambda a: first(a) ** 2, [xa], numpy.ones_like(xa))
    numpy.testing.assert_allclose(gg.numpy(), want, rtol=1e-6, atol=1e-8)


def test_changing_the_output_in_place_is_caught_at_backward(backend):
    x = opsdk.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = F.softmax(x)
    loss = y.sum()  # sum saves nothing: only softmax's own check can fire
    with opsdk.no_grad():
        y *= 2.0  # in place (in grad mode `y *= 2` would rebind y, as in Paddle)
    with pytest.raises(InplaceModifiedError, match="nn.softmax"):
        loss.backward()


def test_dtype_argument_casts_first(backend):
    y = F.softmax(opsdk.to_tensor([1.0, 2.0]), dtype="float64")
    assert y.dtype == numpy.float64


def test_empty_input_gives_empty_output(backend):
    assert F.softmax(opsdk.to_tensor(numpy.zeros((0, 3), numpy.float32))).shape == [0, 3]


def test_axis_out_of_range_is_refused():
    with pytest.raises(OpArgumentError, match=r"nn.softmax: argument 'axis' is out of range.*got: 2"):
        F.softmax(opsdk.to_tensor([[1.0, 2.0]]), axis=2)


def test_integer_input_is_refused():
    with pytest.raises(DTypeError, match="nn.log_softmax: argument 'x' must be a float tensor"):
        F.log_softmax(opsdk.to_tensor([1, 2]))
