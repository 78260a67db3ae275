"""Bounds checked before SymPy sees a formula: each refused at once, naming what is too large."""
import time

import pytest

from opsdk.errors import FormulaError
from opsdk.scaffold.formula.bounds import MAX_CALLS, MAX_EXPONENT, MAX_LENGTH
from opsdk.scaffold.formula.parse import parse_attr, read_formula


def _balanced(terms):
    """A sum of ``terms`` grouped in pairs: large, yet only log2(len(terms)) deep."""
    while len(terms) > 1:
        terms = [f"({a} + {b})" for a, b in zip(terms[::2], terms[1::2])]
    return terms[0]


@pytest.mark.parametrize("text, says", [
    ("+".join(["x"] * 5000), f"it is 9999 characters long; expected: at most {MAX_LENGTH}"),
    ("+".join(["x"] * 200), "it is nested too deeply; expected: at most 60 levels"),
    (_balanced(["x*x*x"] * 64), "it is too large; expected: at most 300"),
    ("-" * 500 + "x", "it is nested too deeply"),
    ("exp(" * 13 + "x" + ")" * 13, f"its functions are nested too deeply; expected: at most {MAX_CALLS}"),
    ("(" * 300 + "x" + ")" * 300, "too many nested parentheses"),
    ("x*9**9**9", f"the exponent of 9**9**9 is 3.8742e+08; expected: constant exponents of at most {MAX_EXPONENT}"),
    ("x**200", "the exponent of x**200 is 200"),
    ("1.0000001**1e6 * x", "the exponent of 1.0000001**1e6 is 1e+06"),
    ("x*1e400", "the number 1e400 is beyond float64"),
    ("x*" + "9" * 400, "is beyond float64"),
    ("x*1e-400", "the number 1e-400 is below float64's smallest"),
    ("x*(1e300*1e300)", "1e300*1e300 is beyond float64"),
    ("x*1e300*1e300", None),  # folded to 1e600 by SymPy: refused there (test_parse), not here
])
def test_a_formula_past_a_bound_is_refused_before_sympy_at_once(text, says):
    started = time.perf_counter()
    if says is None:
        read_formula(text)
    else:
        with pytest.raises(FormulaError, match="expected:") as caught:
            read_formula(text)
        assert says in str(caught.value)
    assert time.perf_counter() - started < 1  # no exact arithmetic on huge numbers happened


def test_a_long_formula_is_quoted_cut_in_the_middle():
    with pytest.raises(FormulaError) as caught:
        read_formula("+".join(["x"] * 5000))
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("text", ["0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x**3)))",
                                  "x * tanh(log(1 + exp(x)))", "x**-2.5 + 2**x", "x / (1 + exp(-beta * x))"])
def test_the_formulas_people_write_are_within_every_bound(text):
    read_formula(text)


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e400"])
def test_an_attribute_value_that_is_not_finite_is_refused(value):
    with pytest.raises(FormulaError, match=f"--attr 'beta={value}': .* is not a finite number"):
        parse_attr(f"beta={value}")


def test_an_attribute_given_through_the_api_is_checked_too():
    with pytest.raises(FormulaError, match="attribute 'beta': nan is not a finite number"):
        read_formula("x * beta", attrs={"beta": float("nan")})
