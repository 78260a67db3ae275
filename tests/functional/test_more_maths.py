"""logaddexp, heaviside, sgn, signbit, sinc, deg2rad, rad2deg, isneginf, isposinf, isin,
nextafter, frexp, i0e, i1, i1e, positive, the constants and the in-place forms: values, dtypes
and gradients against Paddle where installed, Paddle's choices at 0 and at ties, errors."""
import math

import numpy as np
import pytest

import opsdk
from opsdk.errors import ArgumentTypeError, DTypeError
from helpers.frameworks import assert_same_as_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import positive, signed

EDGES = np.array([-3.0, -1.0, 0.0, 0.5, 2.0, 40.0])
TIES = np.array([1.0, -2.0, 0.5, 3.0])

test_values_and_gradients_match_paddle = paddle_cases({
    "logaddexp": (lambda P, x, y: P.logaddexp(x, y), [TIES, np.array([1.0, 0.5, 0.5, -1.0])]),
    "logaddexp_broadcast": (lambda P, x, y: P.logaddexp(x, y), [signed(2, 3), signed(3)]),
    "heaviside": (lambda P, x, y: P.heaviside(x, y),
                  [np.array([[-1.0, 0.0, 2.0], [0.0, 0.0, -3.0]]), np.array([0.5, 0.7, 0.3])]),
    "sgn": (lambda P, x: P.sgn(x), [EDGES]),
    "sinc": (lambda P, x: P.sinc(x), [EDGES]),
    "deg2rad": (lambda P, x: P.deg2rad(x), [EDGES]),
    "rad2deg": (lambda P, x: x.rad2deg(), [EDGES]),
    "frexp": (lambda P, x: P.frexp(x), [np.array([0.0, 3.0, -5.0, 0.1, 1024.0])]),
    "i0e": (lambda P, x: P.i0e(x), [EDGES]),
    "i1": (lambda P, x: P.i1(x), [EDGES]),
    "i1e": (lambda P, x: x.i1e(), [EDGES]),
    "positive": (lambda P, x: P.positive(x) * 2, [EDGES]),
})

NO_GRAD = {
    "signbit": (lambda P, x: P.signbit(x), [np.array([-0.0, 0.0, -1.0, 2.0, -np.inf])]),
    "isneginf": (lambda P, x: P.isneginf(x), [np.array([-np.inf, np.inf, np.nan, 1.0])]),
    "isposinf": (lambda P, x: x.isposinf(), [np.array([-np.inf, np.inf, np.nan, 1.0])]),
    "isin": (lambda P, x, y: P.isin(x, y), [signed(3, 4), signed(5)[:2]]),
    "isin_invert": (lambda P, x, y: P.isin(x, y, invert=True),
                    [np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([2.0, 4.0, 9.0])]),
    # Paddle's own docstring: with repeats, assume_unique=True gives its sort-based answer
    # (not membership); opsdk gives the same one
    "isin_assume_unique_with_repeats": (
        lambda P, x, y: P.isin(x, y, assume_unique=True),
        [np.tile([0.0, 1.0, 2.0], 20).reshape(20, 3), np.tile([0.0, 1.0], 20)]),
    "isin_assume_unique_invert": (
        lambda P, x, y: P.isin(x, y, assume_unique=True, invert=True),
        [np.arange(12.0).reshape(3, 4), np.arange(5.0, 30.0, 2.0)]),
    "nextafter": (lambda P, x, y: P.nextafter(x, y),
                  [np.array([1.0, 2.0, 0.0]), np.array([2.0, 0.0, -1.0])]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", NO_GRAD)
def test_bool_and_gradientless_results_match_paddle(case):
    fn, arrays = NO_GRAD[case]
    assert_same_as_paddle(fn, arrays, diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["deg2rad", "rad2deg", "i0e", "i1", "i1e", "logaddexp"])
def test_integer_inputs_take_paddles_dtype(name):
    arrays = [np.array([1, 2, 3])] * (2 if name == "logaddexp" else 1)
    fn = (lambda P, x, y: P.logaddexp(x, y)) if name == "logaddexp" else \
        (lambda P, x: getattr(P, name)(x))
    assert_same_as_paddle(fn, arrays, dtypes=["int64"] * len(arrays), diff=())


@pytest.mark.parametrize("name", ["sinc", "i0e", "i1e", "i1", "logaddexp"])
def test_gradients_match_central_differences_to_second_order(name):
    x = signed(2, 3) * 2
    if name == "logaddexp":
        assert_gradients(lambda a, b: opsdk.logaddexp(a, b), [x, positive(2, 3)])
    else:
        assert_gradients(getattr(opsdk, name), [x])


def test_paddles_gradients_at_zero():
    x = opsdk.to_tensor([0.0], dtype="float64", stop_gradient=False)
    got = [opsdk.grad(getattr(opsdk, n)(x).sum(), x)[0].item() for n in ("sinc", "i0e", "i1",
                                                                          "i1e")]
    assert got == [0.0, -1.0, 0.5, 0.5]


def test_scaled_bessel_functions_stay_finite_far_out():
    x = opsdk.to_tensor([800.0, -800.0], dtype="float64")
    big = 800.0
    want = 1 / math.sqrt(2 * math.pi * big)
    np.testing.assert_allclose(opsdk.i0e(x).numpy(), [want, want], rtol=1e-3)
    np.testing.assert_allclose(opsdk.i1e(x).numpy(), [want, -want], rtol=1e-3)


def test_constants_are_pythons():
    assert (opsdk.e, opsdk.pi) == (math.e, math.pi)
    assert opsdk.inf == math.inf and math.isnan(opsdk.nan) and opsdk.newaxis is None


def test_in_place_forms_write_into_the_tensor():
    x = opsdk.to_tensor([0.5, 0.25])
    assert x.sinc_() is x
    np.testing.assert_allclose(x.numpy(), np.sinc([0.5, 0.25]), rtol=1e-6)
    y = opsdk.to_tensor([0.5, -0.25])
    opsdk.erf_(y)
    np.testing.assert_allclose(y.numpy(), [math.erf(0.5), math.erf(-0.25)], rtol=1e-6)
    y.erfinv_()
    np.testing.assert_allclose(y.numpy(), [0.5, -0.25], rtol=1e-5)
    opsdk.expm1_(y)
    np.testing.assert_allclose(y.numpy(), np.expm1([0.5, -0.25]), rtol=1e-5)
    y.lerp_(opsdk.to_tensor([1.0, 1.0]), 0.5)
    np.testing.assert_allclose(y.numpy(), (np.expm1([0.5, -0.25]) + 1) / 2, rtol=1e-5)
    z = opsdk.to_tensor([1.0, 3.0])
    assert opsdk.less_(z, opsdk.to_tensor([2.0, 2.0])).tolist() == [True, False]


def test_in_place_sinc_keeps_the_graph():
    a = opsdk.to_tensor([0.5, 1.5], dtype="float64", stop_gradient=False)
    b = a * 1.0
    b.sinc_()
    (g,) = opsdk.grad(b.sum(), a)
    x = np.array([0.5, 1.5])
    want = (np.cos(np.pi * x) * np.pi * x - np.sin(np.pi * x)) / (np.pi * x ** 2)
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-9)


@pytest.mark.parametrize("call", [
    lambda: opsdk.sinc(opsdk.to_tensor([1, 2])),
    lambda: opsdk.sgn(opsdk.to_tensor([1, 2])),
    lambda: opsdk.frexp(opsdk.to_tensor([1, 2])),
    lambda: opsdk.signbit(opsdk.to_tensor([True])),
    lambda: opsdk.positive(opsdk.to_tensor([True])),
    lambda: opsdk.nextafter(opsdk.to_tensor([1, 2]), opsdk.to_tensor([1, 2])),
    lambda: opsdk.isin(opsdk.to_tensor([1], dtype="int16"), opsdk.to_tensor([1])),
])
def test_dtypes_paddle_refuses_are_type_errors(call):
    with pytest.raises(DTypeError):
        call()


def test_non_tensors_are_type_errors():
    with pytest.raises(ArgumentTypeError, match="sinc: x must be tensor type"):
        opsdk.sinc([1.0])
    with pytest.raises(ArgumentTypeError, match="isin: test_x"):
        opsdk.isin(opsdk.to_tensor([1.0]), [1.0])


def test_docstring_examples_run():
    import doctest
    from opsdk.functional import more_maths
    result = doctest.testmod(more_maths, extraglobs={"opsdk": opsdk}, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", ["signbit", "isneginf", "isposinf", "sinc", "i0e", "i1e", "sgn",
                                  "frexp", "deg2rad"])
def test_zero_d_inputs_give_zero_d_results(name):
    out = getattr(opsdk, name)(opsdk.to_tensor(-2.5))
    for t in out if isinstance(out, tuple) else (out,):
        assert t.shape == [] and np.ndim(t.numpy()) == 0
    two = opsdk.to_tensor(1.0, "float64"), opsdk.to_tensor(2.0, "float64")
    assert opsdk.nextafter(*two).item() == np.nextafter(1.0, 2.0)
    assert opsdk.heaviside(*two).shape == [] and opsdk.isin(*two).shape == []
