"""The torch foreign pack: every planted bug caught by its check with the cause named; the
correct ops pass every check."""
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

from opsdk.verification.check import plan_cases, run_checks  # noqa: E402

from . import torch_ops  # noqa: E402


# whole Jacobians on nine derived samples take about a second: these run in the slow job
SLOW = {"swish_dropped_term", "swish_saved_intermediate", "max_with_index_wrong_place",
        "row_softmax", "max_with_index", "sincos", "mul_add"}


def _params(items, op_of):
    return [pytest.param(*item if isinstance(item, tuple) else (item,), id=op_of(item).name,
                         marks=[pytest.mark.slow] if op_of(item).name in SLOW else [])
            for item in items]


def _run(op, checks=(), dtypes=("float64",)):
    return run_checks(plan_cases([op], backends=["python"], dtypes=dtypes, checks=checks))


@pytest.mark.parametrize("op, check, words", _params(torch_ops.BUGS, lambda b: b[0]))
def test_planted_bug_fails_its_check_naming_the_cause(op, check, words):
    (result,) = _run(op, [check])
    assert result.status == "fail", result.detail
    assert words in result.detail


@pytest.mark.parametrize("op", _params(torch_ops.CORRECT, lambda op: op))
def test_correct_op_passes_the_checks_that_catch_the_bugs(op):
    checks = sorted({check for _, check, _ in torch_ops.BUGS} & set(
        c.check for c in plan_cases([op], dtypes=["float64"])))
    results = _run(op, checks)
    assert results and not any(r.failed for r in results), [r.detail for r in results if r.failed]


@pytest.mark.slow
def test_correct_ops_pass_every_check_in_every_dtype():
    results = run_checks(plan_cases(torch_ops.CORRECT))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed][:3]
    assert {r.check for r in results if r.status == "pass"} >= {
        "forward", "gradcheck", "gradgradcheck", "reference", "isolation", "layout",
        "special_points", "needs_input_grad", "materialize_grads", "protocol"}
