"""lgamma, digamma, polygamma, multigammaln, erfinv, i0, gammainc(c), logit: values at known
points, gradients to second order (central differences), and Paddle's values and gradients."""
import math

import numpy as np
import pytest

import opsdk
from helpers.frameworks import paddle_cases
from helpers.gradients import assert_gradients

X = np.array([[0.3, 1.7, 4.2], [7.5, 2.5, -2.5]])
UNIT = np.array([[-0.9, -0.3, 0.1], [0.4, 0.7, 0.95]])


def test_values_at_known_points():
    t = lambda v: opsdk.to_tensor(v, dtype="float64")  # noqa: E731
    assert opsdk.lgamma(t([5.0, 0.5])).numpy() == pytest.approx([math.log(24),
                                                                 math.log(math.pi) / 2])
    euler = 0.5772156649015329
    assert opsdk.digamma(t([1.0, 0.5])).numpy() == pytest.approx(
        [-euler, -euler - 2 * math.log(2)], rel=1e-14)
    assert opsdk.polygamma(t([1.0]), 1).item() == pytest.approx(math.pi ** 2 / 6, rel=1e-14)
    assert opsdk.polygamma(t([1.0]), 2).item() == pytest.approx(-2 * 1.2020569031595942,
                                                                rel=1e-14)
    assert opsdk.erfinv(t([0.5, 0.0, 1.0, 1.5])).numpy()[:3].tolist() == pytest.approx(
        [0.4769362762044699, 0.0, math.inf])
    assert np.isnan(opsdk.erfinv(t([1.5])).item())
    assert opsdk.i0(t([1.0])).item() == pytest.approx(1.2660658777520082, rel=1e-14)
    # Q(1, x) = e^-x, P(1, x) = 1 - e^-x
    assert opsdk.gammaincc(t([1.0]), t([2.0])).item() == pytest.approx(math.exp(-2), rel=1e-13)
    assert opsdk.gammainc(t([1.0]), t([2.0])).item() == pytest.approx(1 - math.exp(-2))
    assert opsdk.logit(t([0.25])).item() == pytest.approx(math.log(1 / 3))
    assert opsdk.multigammaln(t([2.5]), 2).item() == pytest.approx(
        math.log(math.pi) / 2 + math.lgamma(2.5) + math.lgamma(2.0))
    # the poles: -inf at +0 and +inf at -0 (digamma), as in Paddle
    assert opsdk.digamma(t([0.0, -0.0])).numpy().tolist() == [-math.inf, math.inf]


SMOOTH = {
    "lgamma": (opsdk.lgamma, X), "gammaln": (opsdk.gammaln, X), "digamma": (opsdk.digamma, X),
    "polygamma": (lambda x: opsdk.polygamma(x, 2), X), "erfinv": (opsdk.erfinv, UNIT),
    "i0": (opsdk.i0, X * 3), "logit": (opsdk.logit, np.abs(UNIT)),
    "multigammaln": (lambda x: opsdk.multigammaln(x, 3), X + 4),
    "gammaincc": (lambda y: opsdk.gammaincc(opsdk.to_tensor([[2.0], [3.5]],
                                                            dtype="float64"), y), np.abs(X)),
}


@pytest.mark.parametrize("name", SMOOTH)
def test_gradients_hold_to_second_order(name):
    fn, x = SMOOTH[name]
    assert_gradients(fn, [x])


def test_i0_has_its_second_derivative_at_zero():
    x = opsdk.to_tensor([0.0], dtype="float64", stop_gradient=False)
    (g,) = opsdk.grad(opsdk.i0(x), x, create_graph=True)
    (h,) = opsdk.grad(g, x)
    assert g.item() == 0.0 and h.item() == 0.5


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="polygamma: argument 'n' must be >= 0"):
        opsdk.polygamma(opsdk.to_tensor([1.0]), -1)
    with pytest.raises(ValueError, match="gammaincc: argument 'y' must be >= 0"):
        opsdk.gammaincc(opsdk.to_tensor([1.0]), opsdk.to_tensor([-1.0]))


test_values_and_gradients_match_paddle = paddle_cases({
    "lgamma": (lambda P, x: P.lgamma(x), [X]), "gammaln": (lambda P, x: P.gammaln(x), [X]),
    "digamma": (lambda P, x: P.digamma(x), [X]),
    "polygamma": (lambda P, x: P.polygamma(x, 1), [X]),
    "erfinv": (lambda P, x: P.erfinv(x), [UNIT]), "i0": (lambda P, x: P.i0(x), [X * 3]),
    "logit": (lambda P, x: P.logit(x), [np.abs(UNIT)]),
    "logit_eps": (lambda P, x: P.logit(x, 0.2), [np.abs(UNIT)]),
    "multigammaln": (lambda P, x: P.multigammaln(x, 3), [X + 4]),
})


@pytest.mark.paddle
def test_incomplete_gamma_values_and_gradient_match_paddle():
    from helpers.frameworks import assert_same_as_paddle
    a, y = np.abs(X) + 0.5, np.abs(X[::-1])
    for name in ("gammaincc", "gammainc"):
        assert_same_as_paddle(lambda P, a, y, name=name: getattr(P, name)(a, y), [a, y],
                              diff=(1,), rtol=1e-10)


def test_0d_and_empty_tensors_keep_their_shape():
    for fn in (opsdk.lgamma, opsdk.digamma, opsdk.erfinv, opsdk.i0,
               lambda v: opsdk.polygamma(v, 1)):
        assert fn(opsdk.to_tensor(0.25, dtype="float64")).shape == []
        assert fn(opsdk.zeros([2, 0], dtype="float64")).shape == [2, 0]
    assert opsdk.gammaincc(opsdk.to_tensor(1.0), opsdk.to_tensor(2.0)).shape == []


@pytest.mark.parametrize("module", ["opsdk.functional.special", "opsdk.functional.select_fill",
                                    "opsdk.nn.functional.conv", "opsdk.autograd.saved_hooks",
                                    "opsdk.nn.conv"])
def test_docstring_examples_run(module):
    import doctest
    import importlib
    import opsdk.nn.functional as F
    result = doctest.testmod(importlib.import_module(module),
                             extraglobs={"opsdk": opsdk, "F": F}, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
