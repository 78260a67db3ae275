"""The maths namespaces: the same functions on NumPy arrays and on Tensors, stable, differentiable to any order."""

import numpy
import pytest

import opsdk
from opsdk.autograd import gradcheck, gradgradcheck
from opsdk.kernels.elementwise import FUNCTIONS, maths_of

# where each function is defined (and smooth)
DOMAIN = {"log": (0.2, 3.0), "log1p": (-0.8, 3.0), "sqrt": (0.2, 3.0), "cbrt": (0.2, 3.0),
          "asin": (-0.9, 0.9), "acos": (-0.9, 0.9), "acosh": (1.2, 3.0), "atanh": (-0.9, 0.9),
          "tan": (-1.2, 1.2), "abs": (0.2, 3.0)}


def points(name, n=9):
    low, high = DOMAIN.get(name, (-3.0, 3.0))
    return numpy.linspace(low, high, n)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_tensors_and_arrays_agree(name):
    x = points(name)
    on_arrays = getattr(maths_of(x), name)(x)
    on_tensors = getattr(maths_of(opsdk.to_tensor(x)), name)(opsdk.to_tensor(x))
    numpy.testing.assert_allclose(on_tensors.numpy(), on_arrays, rtol=1e-12)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_tensor_functions_have_right_first_and_second_derivatives(name):
    x = opsdk.to_tensor(points(name, 5), stop_gradient=False)
    f = getattr(maths_of(x), name)
    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))


@pytest.mark.parametrize("name", ["softplus", "tanh_softplus", "sigmoid", "erf"])
def test_third_derivatives_are_differentiable_too(name):
    x = opsdk.to_tensor(points(name, 5), stop_gradient=False)
    f = getattr(maths_of(x), name)
    (d1,) = opsdk.grad(f(x).sum(), [x], create_graph=True)
    assert gradgradcheck(lambda t: opsdk.grad(f(t).sum(), [t], create_graph=True)[0], (x,))
    assert d1.shape == x.shape


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_stable_functions_never_overflow(dtype):
    m = maths_of(numpy.ones(1))
    x = numpy.array([-1e4, -100.0, 0.0, 100.0, 1e4], dtype)
    with numpy.errstate(over="raise", invalid="raise"):
        for name in ("sigmoid", "softplus", "tanh_softplus", "sech2_softplus"):
            y = getattr(m, name)(x)
            assert y.dtype == numpy.dtype(dtype) and numpy.isfinite(y).all(), name
    numpy.testing.assert_allclose(m.softplus(x)[-1], 1e4)
    numpy.testing.assert_allclose(m.sigmoid(x)[[0, -1]], [0.0, 1.0])
    numpy.testing.assert_allclose(m.tanh_softplus(x)[-1], 1.0)


def test_sech2_softplus_keeps_its_precision_where_tanh_nears_one():
    x = numpy.array([5.0, 10.0, 15.0])
    exact = 1 / numpy.cosh(numpy.logaddexp(0, x)) ** 2
    numpy.testing.assert_allclose(maths_of(x).sech2_softplus(x), exact, rtol=1e-12)
