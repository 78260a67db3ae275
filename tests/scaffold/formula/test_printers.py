"""The printers: Python and scalar-C-body text that computes what the SymPy expression says.

Expressions come from hypothesis (sums, products, quotients, small and large rational powers,
every function formulas may call); the Python text runs on NumPy, the C body text runs as Python
after mapping its functions (its operators and parentheses mean the same there), and both are
compared with SymPy's own evaluation where it is finite.
"""
import math
import os
import re

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sympy = pytest.importorskip("sympy")

from opsdk.kernels.elementwise import maths_of  # noqa: E402
from opsdk.scaffold.formula.parse import unusable_part  # noqa: E402
from opsdk.kernels.elementwise.bodies import VOCABULARY  # noqa: E402
from opsdk.scaffold.formula.printers import body_code, numeric, python_code  # noqa: E402
from opsdk.scaffold.formula.stable import special_functions  # noqa: E402

X, Y = sympy.symbols("x y", real=True)
POINTS = numpy.random.default_rng(3).uniform(-2.5, 2.5, (2, 64))
_SPECIAL = special_functions()
_LOG1P = sympy.Function("log1p_oracle")
FUNCTIONS = [sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.tanh, sympy.atan, sympy.asinh, sympy.erf,
             sympy.sqrt, sympy.cbrt, _SPECIAL["sigmoid"], _SPECIAL["softplus"], _SPECIAL["log1p"]]
EXPONENTS = [-3, -2, -1, 2, 3, 5, sympy.Rational(1, 2), sympy.Rational(-1, 2), sympy.Rational(3, 2),
             sympy.Rational(-3, 2), sympy.Rational(5, 2), sympy.Rational(1, 3), sympy.Rational(-2, 3),
             sympy.Rational(4, 3), sympy.Rational(7, 5)]


def expressions():
    leaves = st.sampled_from([X, Y, sympy.Integer(2), sympy.Rational(1, 3), sympy.Integer(-1), sympy.pi])

    def extend(inner):
        return st.one_of(
            st.tuples(inner, inner).map(lambda ab: ab[0] + ab[1]),
            st.tuples(inner, inner).map(lambda ab: ab[0] - ab[1]),
            st.tuples(inner, inner).map(lambda ab: ab[0] * ab[1]),
            st.tuples(inner, inner).map(lambda ab: ab[0] / (ab[1] + 3)),
            st.tuples(inner, st.sampled_from(EXPONENTS)).map(lambda be: (be[0] + 1) ** be[1]),
            st.tuples(st.sampled_from(FUNCTIONS), inner).map(lambda fa: fa[0](fa[1])),
        )

    # 1/0, (-1)**(1/3) and the like are refused by parse_formula before any printing
    return st.recursive(leaves, extend, max_leaves=8).filter(lambda e: unusable_part(e) is None)


def _exact(expr):
    """SymPy's NumPy printer's float64 values of ``expr`` on POINTS: an oracle independent of ours."""
    rewritten = expr.replace(lambda e: isinstance(e, _SPECIAL["sigmoid"]), lambda e: 1 / (1 + sympy.exp(-e.args[0])))
    rewritten = rewritten.replace(lambda e: isinstance(e, _SPECIAL["softplus"]),
                                  lambda e: sympy.log(1 + sympy.exp(e.args[0])))
    # log1p as an opaque function NumPy evaluates: as log(1 + u), SymPy would fold exp(log(1 + u))
    # into 1 + u, defined where the formula (and every printed kernel) is not (u < -1)
    rewritten = rewritten.replace(lambda e: isinstance(e, _SPECIAL["log1p"]), lambda e: _LOG1P(e.args[0]))
    # SymPy's x**(1/3) is the principal (complex) root; the printers write the real cube root
    rewritten = rewritten.replace(lambda e: e.is_Pow and e.exp.is_Rational and e.exp.q == 3,
                                  lambda e: sympy.real_root(e.base, 3) ** e.exp.p)
    function = sympy.lambdify([X, Y], rewritten, [{"erf": numpy.vectorize(math.erf),
                                                   "log1p_oracle": numpy.log1p}, "numpy"])
    with numpy.errstate(all="ignore"):
        return numpy.broadcast_to(numpy.asarray(function(*POINTS), dtype=float), POINTS[0].shape)


def _run_python(text):
    with numpy.errstate(all="ignore"):
        return numpy.broadcast_to(eval(text, {"m": maths_of(POINTS[0])}, {"x": POINTS[0], "y": POINTS[1]}),
                                  POINTS[0].shape)


class _CNames:
    """The C body's function names, as NumPy functions."""

    def __init__(self):
        self.m = maths_of(POINTS[0])

    def __getitem__(self, name):
        if name == "pow":
            return numpy.power
        return getattr(self.m, name)


def _as_python(c_text):
    """A C body's expression as Python: exp(u) becomes m.exp(u)."""
    return re.sub(r"\b([a-z][a-z0-9_]*)\(", r"f['\1'](", c_text)


def _run_c(text):
    with numpy.errstate(all="ignore"):
        return numpy.broadcast_to(eval(_as_python(text), {"f": _CNames()}, {"x": POINTS[0], "y": POINTS[1]}),
                                  POINTS[0].shape)


def _assert_same(got, want, text):
    usable = numpy.isfinite(want) & (numpy.abs(want) < 1e6)
    numpy.testing.assert_allclose(got[usable], want[usable], rtol=1e-8, atol=1e-9, err_msg=text)


# the same examples every run (CI stays stable), new ones with OPSDK_FUZZ set, as the fuzz suite
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=not os.environ.get("OPSDK_FUZZ"))
@given(expressions())
def test_printed_python_and_c_bodies_compute_the_expression(expr):
    want = _exact(expr)
    expr = numeric(expr)  # as the generator prints: constants as floats
    _assert_same(_run_python(python_code(expr)), want, python_code(expr))
    _assert_same(_run_c(body_code(expr)), want, body_code(expr))
    called = set(re.findall(r"\b([a-z][a-z0-9_]*)\(", body_code(expr)))
    assert called <= set(VOCABULARY), called - set(VOCABULARY)


@pytest.mark.parametrize("expr, python", [
    (1 / (1 + X * X), "(1/(x**2 + 1))"),              # was 1/x**2 + 1
    ((X + 1) ** sympy.Rational(3, 2), "((x + 1)*m.sqrt(x + 1))"),   # was x + 1*m.sqrt(x + 1)
    (X ** sympy.Rational(-2, 3), "(1/(m.cbrt(x)*m.cbrt(x)))"),
])
def test_a_lone_quotient_or_power_of_a_sum_keeps_its_parentheses(expr, python):
    assert python_code(expr) == python


def test_c_bodies_call_the_vocabulary_and_write_plain_literals():
    # c_bodies makes a decimal literal the kernel's float type: no f suffix to print here
    assert body_code(1 / (1 + X * X)) == "(1.0/((x*x) + 1.0))"
    assert body_code(sympy.sin(X) ** sympy.Rational(1, 3)) == "cbrt(sin(x))"
