"""Real torch.autograd.Functions (ported from public projects) verified through torch by a few
lines of declaration each: no false alarm, every check that applies run."""
import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

from opsdk.verification.check import plan_cases, run_checks  # noqa: E402

from . import real_torch_ops  # noqa: E402

IDS = [op.name for op in real_torch_ops.OPS]


@pytest.mark.parametrize("op", real_torch_ops.OPS, ids=IDS)
def test_gradients_and_second_order_agree_with_numeric_ones(op):
    # second order: right where claimed, refused naming the op where not (real.sort)
    results = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"], checks=[
        "gradcheck", "gradgradcheck", "double_backward_error"]))
    assert [r.status for r in results] == ["pass", "pass"], [r.detail for r in results]


@pytest.mark.slow
@pytest.mark.parametrize("op", real_torch_ops.OPS, ids=IDS)
def test_every_check_passes_in_every_dtype(op):
    results = run_checks(plan_cases([op]))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed]
    assert {"isolation", "layout", "special_points"} <= {
        r.check for r in results if r.status == "pass"}


@pytest.mark.parametrize("op, check, words", real_torch_ops.BUGS,
                         ids=[b[0].name for b in real_torch_ops.BUGS])
def test_planted_bug_fails_its_check_naming_the_cause(op, check, words):
    (result,) = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"],
                                       checks=[check]))
    assert result.status == "fail", result.detail
    assert words in result.detail
