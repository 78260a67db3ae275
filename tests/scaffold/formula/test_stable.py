"""Stable forms: known overflow and cancellation patterns rewritten into functions that avoid them."""

import pytest

sympy = pytest.importorskip("sympy")

from opsdk.scaffold.formula import parse_formula  # noqa: E402
from opsdk.scaffold.formula.stable import special_functions, stabilize  # noqa: E402


@pytest.mark.parametrize("text, stable", [
    ("log(1 + exp(x))", "softplus(x)"),
    ("log(exp(-x) + 1)", "softplus(-x)"),
    ("x * tanh(log(1 + exp(x)))", "x*tanh_softplus(x)"),
    ("1 / (1 + exp(-x))", "sigmoid(x)"),
    ("exp(x) / (1 + exp(x))", "sigmoid(x)"),
    ("1 - 1 / (1 + exp(-x))", "sigmoid(-x)"),
    ("log(1 / (1 + exp(-x)))", "-softplus(-x)"),
    ("0.5 * x * (1 + tanh(x))", "x*sigmoid(2*x)"),
    ("1 - tanh(x)", "2*sigmoid(-2*x)"),
    ("log(1 + x * x)", "log1p(x**2)"),
    ("exp(2 * x) - 1", "expm1(2*x)"),
    ("x + exp(x) - 1", "x + expm1(x)"),
])
def test_patterns_are_rewritten(text, stable):
    assert sympy.sstr(stabilize(parse_formula(text).expr)) == stable


@pytest.mark.parametrize("text", ["log(x) + exp(x)", "tanh(x) * x", "1 / (2 + exp(x))", "log(2 + x)"])
def test_other_expressions_are_left_alone(text):
    expr = parse_formula(text).expr
    assert stabilize(expr) == expr


def test_1_minus_tanh_softplus_squared_is_its_own_function():
    special = special_functions()
    x = sympy.Symbol("x", real=True)
    assert stabilize(1 - special["tanh_softplus"](x) ** 2) == special["sech2_softplus"](x)


@pytest.mark.parametrize("name", ["sigmoid", "softplus", "tanh_softplus", "sech2_softplus"])
def test_the_stable_functions_derivatives_are_right(name):
    x = sympy.Symbol("x", real=True)
    special = special_functions()
    naive = {"sigmoid": 1 / (1 + sympy.exp(-x)), "softplus": sympy.log(1 + sympy.exp(x)),
             "tanh_softplus": sympy.tanh(sympy.log(1 + sympy.exp(x))),
             "sech2_softplus": 1 - sympy.tanh(sympy.log(1 + sympy.exp(x))) ** 2}[name]
    derivative = sympy.diff(special[name](x), x)
    as_exp = derivative.replace(special["sech2_softplus"], lambda u: 1 - sympy.tanh(sympy.log(1 + sympy.exp(u))) ** 2)
    as_exp = as_exp.replace(special["tanh_softplus"], lambda u: sympy.tanh(sympy.log(1 + sympy.exp(u))))
    as_exp = as_exp.replace(special["sigmoid"], lambda u: 1 / (1 + sympy.exp(-u)))
    for point in (-2.5, 0.0, 0.7, 3.0):
        assert abs(float(as_exp.subs(x, point)) - float(sympy.diff(naive, x).subs(x, point))) < 1e-12


@pytest.mark.parametrize("name, at_two", [("sigmoid", 0.8807970779778824), ("softplus", 2.1269280110429727),
                                          ("tanh_softplus", 0.9719794797669972),
                                          ("sech2_softplus", 0.05525589091187737)])
def test_the_stable_functions_of_a_number_are_numbers(name, at_two):
    """x * softplus(2) in a formula: the constant is printed as one float."""
    assert abs(float(special_functions()[name](sympy.Integer(2)).evalf(20)) - at_two) < 1e-15
