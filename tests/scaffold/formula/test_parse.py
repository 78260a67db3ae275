"""Reading formulas: inputs, attributes, and refusals that name the token."""

import pytest

from opsdk.errors import FormulaError
from opsdk.scaffold.formula import parse_attr, parse_formula

pytest.importorskip("sympy")


def test_symbols_other_than_inputs_are_attributes_in_order_of_appearance():
    formula = parse_formula("x * exp(-alpha * y * y) + beta", inputs=("x", "y"), attrs={"alpha": 0.5})
    assert formula.inputs == ("x", "y")
    assert formula.attrs == {"alpha": 0.5, "beta": 1.0}
    assert formula.notes == ["'beta' is an attribute with default 1.0 (set another with --attr beta=VALUE)"]


def test_decimals_stay_exact_for_sympy():
    import sympy

    formula = parse_formula("0.044715 * x ** 3")
    assert formula.expr == sympy.Rational(44715, 10**6) * formula.symbols["x"] ** 3


def test_caret_is_a_power_and_pi_a_constant():
    import sympy

    x = parse_formula("x^2 * pi").symbols["x"]
    assert parse_formula("x^2 * pi").expr == sympy.pi * x ** 2


@pytest.mark.parametrize("text, token", [
    ("x * foo(x)", "unsupported function 'foo' at column 5"),
    ("x + abs(x)", "function 'abs' is not differentiable everywhere"),
    ("max(x, 0)", "function 'max' is not differentiable everywhere"),
    ("x if x > 0 else 0", "unsupported syntax (IfExp)"),
    ("x > 0", "unsupported syntax (Compare)"),
    ("exp(x, base=2)", "keyword argument in 'exp(...)'"),
    ("log(x, 2)", "'log' takes 1 argument, got 2"),
    ("x + 'a'", "unsupported constant 'a'"),
    ("x[0]", "unsupported syntax (Subscript)"),
    ("x % 2", "unsupported operator Mod"),
    ("exp * x", "function 'exp' used without arguments"),
    ("math.exp(x)", "unsupported call"),
])
def test_unsupported_pieces_are_refused_by_name(text, token):
    with pytest.raises(FormulaError) as caught:
        parse_formula(text)
    assert token in str(caught.value) and "expected:" in str(caught.value)


def test_a_syntax_error_names_the_offending_token():
    with pytest.raises(FormulaError, match=r"cannot parse formula 'x \* \* 2'.*got: '\*'"):
        parse_formula("x * * 2")
    with pytest.raises(FormulaError, match="got: 'the end of the formula'"):
        parse_formula("x *")


def test_an_input_missing_from_the_formula_is_refused():
    with pytest.raises(FormulaError, match="does not use input 'y'"):
        parse_formula("x * 2", inputs=("x", "y"))


def test_an_attribute_missing_from_the_formula_is_refused():
    with pytest.raises(FormulaError, match="does not use attribute 'beta'"):
        parse_formula("x * 2", attrs={"beta": 1.0})


@pytest.mark.parametrize("name", ["n", "grad_out", "m", "for", "double", "exp", "_x", "gg_x", "dy"])
def test_names_the_generated_code_uses_are_refused(name):
    with pytest.raises(FormulaError, match=f"'{name}'"):
        parse_formula(f"x * {name}" if name not in ("for",) else "x", inputs=("x", name) if name != "exp" else ("x",),
                      attrs={name: 1.0} if name == "exp" else None)


def test_an_input_that_is_also_an_attribute_is_refused():
    with pytest.raises(FormulaError, match="both an input and an attribute"):
        parse_formula("x * y", inputs=("x", "y"), attrs={"y": 2.0})


def test_an_empty_formula_is_refused():
    with pytest.raises(FormulaError, match="empty"):
        parse_formula("   ")


def test_attr_options_are_name_equals_number():
    assert parse_attr("beta=1.5") == ("beta", 1.5)
    for bad in ("beta", "beta=", "=1", "beta=fast"):
        with pytest.raises(FormulaError, match="NAME=VALUE"):
            parse_attr(bad)
