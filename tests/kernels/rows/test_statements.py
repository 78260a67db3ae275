"""The statements of one row: read, checked before any compile (errors name the op, the
statement, what was expected and what was found), and rewritten to C."""
import re

import pytest

from opsdk.errors import OpArgumentError
from opsdk.kernels.rows.statements import Program, check_names, reserved_in_rows

ARRAYS = {"x": "element", "weight": "feature", "rstd": "row", "dy": "element", "label": "row"}
OUTPUTS = {"dx": "element", "dweight": "feature"}


def program(body, outputs=OUTPUTS):
    return Program("tests.rows", "backward", body, ARRAYS, ("eps",), outputs)


def test_each_kind_of_statement_is_read_in_order():
    p = program("sum dot = dy * weight * x; T c = dot / K\neach g = dy * weight  # a comment\n"
                "dx = rstd * (g - x * c)\ndweight = dy * x * rstd")
    assert [(s.what, s.how, s.name) for s in p.steps] == [
        ("reduce", "sum", "dot"), ("scalar", None, "c"), ("each", None, "g"),
        ("output", "element", "dx"), ("output", "feature", "dweight")]


def test_the_rewrite_indexes_arrays_by_kind_and_types_decimal_literals():
    p = program("sum dot = dy * x\nT c = 0.5 * dot / K\neach g = dy * weight\ndx = rstd * g - c\ndweight = dy")
    assert p.rewrite("rstd * g - c + 0.5") == "rstd[r] * (dy[o + j] * weight[j]) - opsdk_v_c + ((T)0.5)"
    assert p.rewrite("sqrt(eps) * 2") == "sqrt(eps) * 2"


def test_an_element_read_at_an_index_and_the_element_index_j():
    p = program("T picked = label >= 0 && label < K ? x[label] : 0\n"
                "dx = dy - (j == label ? picked : 0)\ndweight = dy")
    assert p.rewrite(p.steps[0].expr) == "label[r] >= 0 && label[r] < K ? x[o + (label[r])] : 0"
    assert p.rewrite(p.steps[1].expr) == "dy[o + j] - (j == label[r] ? opsdk_v_picked : 0)"
    assert p.steps[1].needs == {"picked"}


def test_an_indexed_update_of_an_element_output():
    p = program("T s = rstd * 2\ndx = dy\ndx[label] -= s\ndweight = dy")
    update = p.steps[2]
    assert (update.what, update.how, update.name, update.index, update.expr) == ("update", "-=", "dx", "label", "s")
    assert update.needs == {"s"} and p.rewrite(update.index) == "label[r]"


def test_a_shorthand_passes_on_the_row_scalars_it_reads():
    p = program("sum s = x\neach g = x * s\ndx = g\ndweight = dy")
    assert p.steps[2].reads >= {"g", "x", "s"} and p.steps[2].needs == {"s"}


@pytest.mark.parametrize("body, says", [
    ("T c = j\ndx = x\ndweight = dy", "j (the element's index) in a per-element expression only"),
    ("T c = weight[label]\ndx = x\ndweight = dy", "an index only after an element array read"),
    ("T c = x[label\ndx = x\ndweight = dy", "an index only after an element array read"),
    ("T c = x[j]\ndx = x\ndweight = dy", "j (the element's index) in a per-element expression only"),
    ("T c = x[dy]\ndx = x\ndweight = dy", "per-element 'dy' read"),
    ("dx[label] = 1\ndx = x\ndweight = dy", "an indexed update of a per-element output written before"),
    ("dx = x\ndweight = dy\nweight[label] += 1", "an indexed update of a per-element output written before"),
    ("dx = x\ndx[label] += x\ndweight = dy", "per-element 'x' read"),
    ("dx = x\ndx[label] += 1\ndweight = dx", "no read of 'dx' after its indexed update"),
    ("dx = x\ndx[label] == 1\ndweight = dy", "'NAME[INDEX] (=|+=|-=|*=) EXPR'"),
    ("sum s = sigmod(x)\ndx = x\ndweight = dy", "expected: one of the functions"),
    ("sum s = x * alfa\ndx = x\ndweight = dy", "'alfa' read"),
    ("T c = x * 2\ndx = x\ndweight = dy", "a row scalar statement reading row scalars"),
    ("sum s = x\ndx = x\ndweight = dy * s", "it reads row scalar(s) s"),
    ("sum s = x\neach g = x * s\ndx = g\ndweight = dy * g", "it reads row scalar(s) s"),
    ("dx = x\ndx = x\ndweight = dy", "'dx' assigned twice"),
    ("dx = x", "none for dweight"),
    ("y = x\ndx = x\ndweight = dy", "'y' assigned"),
    ("sum x = dy\ndx = x\ndweight = dy", "'x' already names"),
    ("dx = x\ndweight = dy\nT z = dweight", "no read of a per-feature output"),
    ("dx == x", "a statement of another form"),
    ("T c = dx\ndx = x\ndweight = dy", "'dx' read"),
])
def test_a_wrong_statement_is_refused_by_name(body, says):
    with pytest.raises(OpArgumentError, match=re.escape(says)) as info:
        program(body)
    assert str(info.value).startswith("tests.rows: backward statements: expected: ")


def test_statements_must_be_a_string():
    with pytest.raises(OpArgumentError, match="must be a string; expected: lines like"):
        program(["dx = x"])


@pytest.mark.parametrize("name, why", [
    ("K", "a name the written kernels use themselves"), ("opsdk_x", "a name the written kernels use"),
    ("sqrt", "a maths function"), ("int", "a keyword of C"), ("class", "a keyword of Python"),
    ("threadIdx", "a built-in variable of CUDA"), ("2x", "not a C identifier")])
def test_reserved_names_say_why(name, why):
    assert why in reserved_in_rows(name)
    with pytest.raises(OpArgumentError, match=re.escape(f"tests.rows: input name {name!r} cannot be used")):
        check_names("tests.rows", "input", [name])


def test_a_local_with_a_reserved_name_is_refused():
    with pytest.raises(OpArgumentError, match="local name 'j' cannot be used"):
        program("sum j = x\ndx = x\ndweight = dy")
