"""Where a formula is verified: away from poles, on the side where it is defined."""
import pytest

pytest.importorskip("sympy")

from opsdk.errors import FormulaError  # noqa: E402
from opsdk.scaffold.formula import formula_context  # noqa: E402


@pytest.mark.parametrize("text, domain", [
    ("tan(x)", ["-0.9", "0.9"]),        # poles at +-pi/2 lie between the coarse grid's points
    ("1/(x - 1)", ["-0.9", "0.9"]),     # a pole inside [0.1, 3]
    ("log(-x)", ["-3.0", "-0.1"]),      # defined for negative x only
    ("1/(1 + x*x)", ["-3.0", "3.0"]),
])
def test_the_domain_holds_no_pole_and_lies_where_the_formula_is_defined(text, domain):
    assert formula_context("f", text)["domain"] == domain


def test_no_domain_found_names_the_attributes_that_may_be_the_cause():
    with pytest.raises(FormulaError, match=r"finite with attributes beta=0.0 .*\(or other --attr values\)"):
        formula_context("f", "log(1 + exp(beta*x))/beta", attrs={"beta": 0.0})
