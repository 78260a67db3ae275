"""What formula_context writes: names that never clash, lines a reader can follow, a complete test namespace."""
import pytest

pytest.importorskip("sympy")

from opsdk.scaffold.formula import formula_context  # noqa: E402

LONG = " + ".join(f"tanh({k}*x + {k}*y)*sin(x/{k})" for k in range(1, 9))


def _all_lines(context):
    python = [line for lines in context["python"].values() for line in lines]
    return python, context["c_bodies_py"].splitlines()


@pytest.mark.slow
def test_generated_lines_fit_in_99_columns_with_their_indentation():
    context = formula_context("big", LONG, inputs=("x", "y"), backends=("python", "c", "cuda"))
    python, c = _all_lines(context)
    assert max(4 + len(line) for line in python) <= 99
    assert max(len(line) for line in c) <= 99  # c_bodies' arguments, indented as written
    assert max(4 + len(line) for line in context["derivation"]) <= 99
    assert len(context["summary"]) <= 48 and context["summary"].endswith(" ...")


def test_wrapped_python_is_the_same_code():
    context = formula_context("big", LONG, inputs=("x", "y"))
    namespace = {}
    body = "\n".join("    " + line for line in context["python"]["value"])
    exec(f"def value(m, x, y):\n{body}\n", namespace)
    import numpy

    from opsdk.kernels.elementwise import maths_of

    x, y = numpy.linspace(-1, 1, 5), numpy.linspace(0, 2, 5)
    want = sum(numpy.tanh(k * x + k * y) * numpy.sin(x / k) for k in range(1, 9))
    numpy.testing.assert_allclose(namespace["value"](maths_of(x), x, y), want, rtol=1e-13)


@pytest.mark.slow
def test_named_results_never_take_an_inputs_name():
    text = " + ".join(f"exp(r0*r1/{k}) * sin(r0 - {k}*r1)" for k in range(1, 6))
    context = formula_context("names", text, inputs=("r0", "r1"))
    assigned = [line.split(" = ")[0].strip() for line in context["python"]["grad2"] if " = " in line]
    assert "r0" not in assigned and "r1" not in assigned


@pytest.mark.parametrize("text, needed", [
    ("asinh(x)", {"asinh", "sqrt"}),     # its third derivative has (x**2 + 1)**(3/2): a sqrt
    ("x**(1/3)", {"cbrt"}),
])
def test_the_tests_naive_namespace_has_every_function_the_reference_calls(text, needed):
    context = formula_context("f", text)
    assert needed <= {name for name, _ in context["naive_functions"]}
