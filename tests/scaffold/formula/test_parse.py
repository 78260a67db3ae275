"""Reading formulas: inputs, attributes, and refusals that name the token."""
import re

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


@pytest.mark.parametrize("text, inputs, message", [
    ("lambda * x", ("x",), "'lambda' at column 1 is a keyword of Python"),
    ("lambda * 2", ("lambda",), "'lambda' at column 1 is a keyword of Python"),
    ("α * x", ("x",), "attribute 'α' is not an ASCII name (it names C and CUDA parameters too); expected: "
                      "letters a-z, A-Z, digits and _, e.g. 'alpha'"),
    ("linux * 2", ("linux",), "input 'linux' is a macro of the C compiler or headers"),
    ("new * this", ("new", "this"), "input 'new' is a keyword of C++ (CUDA sources are C++)"),
    ("blockDim * 2", ("blockDim",), "input 'blockDim' is a built-in variable of CUDA"),
    ("expf * x", ("x",), "attribute 'expf' is a maths function of the C and CUDA libraries"),
    ("int64_t * x", ("x",), "attribute 'int64_t' is a C type name"),
    ("NAN * x", ("x",), "attribute 'NAN' is a macro"),
    ("OPSDK_SIMD * x", ("x",), "attribute 'OPSDK_SIMD' is reserved"),
    ("x * pow", ("x", "pow"), "input 'pow' is a function of formulas"),
    ("x * E", ("x", "E"), "input 'E' is a constant of formulas"),
])
def test_names_c_cuda_or_python_take_for_themselves_are_refused_with_the_reason(text, inputs, message):
    with pytest.raises(FormulaError) as caught:
        parse_formula(text, inputs=inputs)
    assert message in str(caught.value) and "expected:" in str(caught.value)


def test_e_is_eulers_number_and_a_lowercase_e_an_attribute_with_a_note():
    import sympy

    formula = parse_formula("E**x + e")
    assert formula.expr == sympy.exp(formula.symbols["x"]) + formula.symbols["e"]
    assert "(Euler's number is E)" in formula.notes[0]


@pytest.mark.parametrize("text, part", [
    ("sqrt(x*x)", "Abs(x), which uses Abs, a function opsdk writes no kernels for"),
    ("x + 1/0", "zoo, which is infinite or undefined"),
    ("x * log(0)", "zoo, which is infinite or undefined"),
    ("sqrt(-2) * x", "sqrt(2)*I, which is not a real number"),
    ("x * (-1)**(1/3)", "(-1)**(1/3), which is not a real number"),
    ("x * 1e300 * 1e300", "1.0000E+600, which is beyond float64"),
])
def test_what_sympy_makes_of_a_formula_is_refused_where_no_kernel_can_compute_it(text, part):
    with pytest.raises(FormulaError, match="SymPy makes part of it") as caught:
        parse_formula(text)
    assert part in str(caught.value)


def test_functions_written_with_the_others():
    import sympy

    x, y = sympy.symbols("x y", real=True)
    assert parse_formula("log10(x)").expr == sympy.log(x) / sympy.log(10)
    assert parse_formula("hypot(x, y)", inputs=("x", "y")).expr == sympy.sqrt(x ** 2 + y ** 2)
    assert parse_formula("sech(x) * coth(x)").expr == sympy.cosh(x) / (sympy.cosh(x) * sympy.sinh(x))
    with pytest.raises(FormulaError, match="'hypot' takes 2 argument"):
        parse_formula("hypot(x)")


@pytest.mark.parametrize("text, char", [("x * 2  # */ done", "#"), ("x + \\\n 1", "\\")])
def test_comments_and_line_continuations_are_refused_by_column(text, char):
    with pytest.raises(FormulaError, match=re.escape(f"{char!r} at column")):
        parse_formula(text)


def test_a_formula_over_several_lines_is_one_line_for_the_comments():
    assert parse_formula("(x +\n    1) * 2").text == "(x + 1) * 2"
