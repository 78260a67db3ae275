"""The Paddle foreign pack: the planted bug caught with the cause named; the correct op passes."""
import pytest

pytest.importorskip("paddle", reason="paddle is not installed (pip install opsdk[paddle])")
# importing Paddle takes seconds
pytestmark = [pytest.mark.paddle, pytest.mark.slow]

from opsdk.verification.check import plan_cases, run_checks  # noqa: E402

from . import paddle_ops  # noqa: E402


@pytest.mark.parametrize("op, check, words", paddle_ops.BUGS,
                         ids=[b[0].name for b in paddle_ops.BUGS])
def test_planted_bug_fails_its_check_naming_the_cause(op, check, words):
    (result,) = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"],
                                       checks=[check]))
    assert result.status == "fail", result.detail
    assert words in result.detail


def test_correct_op_passes_every_check():
    results = run_checks(plan_cases(paddle_ops.CORRECT))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed]
    assert {"gradcheck", "gradgradcheck", "reference", "isolation"} <= {
        r.check for r in results if r.status == "pass"}
