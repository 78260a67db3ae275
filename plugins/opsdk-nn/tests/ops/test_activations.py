"""gelu (both forms), silu, softplus, mish: values, first and second derivatives vs float64
references on every CPU backend and dtype, large magnitudes, higher orders, errors."""
import numpy
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError
from opsdk_nn import functional as F

from .. import reference as ref

# (name, functional call, reference, parameters)
CASES = [
    ("gelu", lambda x: F.gelu(x), ref.gelu),
    ("gelu_tanh", lambda x: F.gelu(x, approximate=True), ref.gelu_tanh),
    ("silu", F.silu, ref.silu),
    ("softplus", F.softplus, ref.softplus),
    ("softplus_beta", lambda x: F.softplus(x, beta=2.0, threshold=3.0), lambda x: ref.softplus(x, 2.0, 3.0)),
    ("mish", F.mish, ref.mish),
]
IDS = [c[0] for c in CASES]
# float32 kernels are within a few ulp of the float64 truth; tails use the absolute part
TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-11, atol=1e-13)}


def _points(dtype):
    x = numpy.concatenate([numpy.linspace(-12, 12, 241), [-1e-4, 0.0, 1e-4, 0.5]])
    # softplus with beta=2, threshold=3 jumps at 1.5: no point sits on the jump
    return x[numpy.abs(x - 1.5) > 1e-6].astype(dtype)


def _derivatives(call, xa, order):
    """(f, f', f'') of call at xa through opsdk: create_graph first, then a plain second pass."""
    x = opsdk.to_tensor(xa, stop_gradient=False)
    y = call(x)
    (d1,) = opsdk.grad([y], [x], grad_outputs=[opsdk.ones_like(y)], create_graph=order > 1)
    if order == 1:
        return y.numpy(), d1.numpy(), None
    (d2,) = opsdk.grad([d1], [x], grad_outputs=[opsdk.ones_like(d1)])
    return y.numpy(), d1.numpy(), d2.numpy()


@pytest.mark.parametrize("name, call, reference", CASES, ids=IDS)
def test_value_and_two_derivatives_match_reference(backend, dtype, name, call, reference):
    xa = _points(dtype)
    got = _derivatives(call, xa, order=2)
    want = reference(xa.astype(numpy.float64))
    for g, w in zip(got, want):
        assert g.dtype == numpy.dtype(dtype)
        numpy.testing.assert_allclose(g, w, **TOL[dtype])


@pytest.mark.parametrize("name, call, reference", CASES, ids=IDS)
def test_large_magnitudes_stay_finite_and_exact(backend, dtype, name, call, reference):
    xa = numpy.array([-100.0, -20.0, 20.0, 100.0], dtype)
    y, d1, d2 = _derivatives(call, xa, order=2)
    want = reference(xa.astype(numpy.float64))
    for g, w in zip((y, d1, d2), want):
        assert numpy.isfinite(g).all()
        numpy.testing.assert_allclose(g, w, **TOL[dtype])


def test_gelu_of_plus_minus_twenty(backend, dtype):
    y = F.gelu(opsdk.to_tensor(numpy.array([-20.0, 20.0], dtype))).numpy()
    assert y[1] == 20.0
    assert -1e-80 <= y[0] <= 0.0  # -20 * Phi(-20) = -5.5e-88: 0 in float32


@pytest.mark.parametrize("name, call, reference", CASES, ids=IDS)
def test_third_derivative_matches_differences_of_the_second(backend, name, call, reference):
    xa = numpy.array([-2.3, -0.7, 0.4, 1.9, 3.1])
    x = opsdk.to_tensor(xa, stop_gradient=False)
    (d1,) = opsdk.grad([call(x)], [x], grad_outputs=[opsdk.ones_like(x)], create_graph=True)
    (d2,) = opsdk.grad([d1], [x], grad_outputs=[opsdk.ones_like(x)], create_graph=True)
    (d3,) = opsdk.grad([d2], [x], grad_outputs=[opsdk.ones_like(x)])
    eps = 1e-5
    numeric = (reference(xa + eps)[2] - reference(xa - eps)[2]) / (2 * eps)
    numpy.testing.assert_allclose(d3.numpy(), numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name, call, reference", CASES, ids=IDS)
def test_reference_derivatives_agree_with_central_differences(name, call, reference):
    xa = numpy.linspace(-6, 6, 37)
    xa = xa[numpy.abs(xa - 1.5) > 0.1]
    eps = 1e-6
    f, d1, d2 = reference(xa)
    numpy.testing.assert_allclose(d1, (reference(xa + eps)[0] - reference(xa - eps)[0]) / (2 * eps), atol=1e-8)
    numpy.testing.assert_allclose(d2, (reference(xa + eps)[1] - reference(xa - eps)[1]) / (2 * eps), atol=1e-8)


def test_backward_takes_a_broadcast_gradient(backend, dtype):
    x = opsdk.to_tensor(numpy.linspace(-3, 3, 12, dtype=dtype).reshape(3, 4), stop_gradient=False)
    F.silu(x).sum().backward()
    numpy.testing.assert_allclose(x.grad.numpy(), ref.silu(x.numpy().astype(numpy.float64))[1], **TOL[dtype])


def test_non_contiguous_input_gives_the_contiguous_result(backend):
    base = numpy.linspace(-3, 3, 24).reshape(4, 6)
    got = F.mish(opsdk.to_tensor(base.T)).numpy()
    numpy.testing.assert_allclose(got, ref.mish(base.T)[0], rtol=1e-12)


def test_float16_runs_the_python_kernel_and_stays_float16(backend):
    x = opsdk.to_tensor(numpy.array([-1.0, 0.5, 2.0], numpy.float16), stop_gradient=False)
    y = F.gelu(x)
    y.sum().backward()
    assert y.dtype == numpy.float16 and x.grad.dtype == numpy.float16
    numpy.testing.assert_allclose(y.numpy(), ref.gelu(x.numpy().astype(numpy.float64))[0], rtol=2e-3, atol=1e-3)


def test_integer_input_is_refused_naming_the_op():
    with pytest.raises(DTypeError, match=r"nn.silu: argument 'x' must be a float tensor.*got: int64"):
        F.silu(opsdk.to_tensor([1, 2]))


def test_softplus_refuses_beta_zero():
    with pytest.raises(OpArgumentError, match="nn.softplus: argument 'beta' must be non-zero"):
        F.softplus(opsdk.to_tensor([1.0]), beta=0)


def test_gelu_refuses_an_unknown_approximation():
    with pytest.raises(OpArgumentError, match="nn.gelu: argument 'approximate'"):
        F.gelu(opsdk.to_tensor([1.0]), approximate="erf")


def test_no_graph_is_recorded_without_gradients():
    y = F.gelu(opsdk.to_tensor([1.0, 2.0], stop_gradient=False).detach())
    assert y.stop_gradient
