"""The JAX foreign pack: the planted bug caught with the cause named; the correct op passes."""
import pytest

pytest.importorskip("jax", reason="jax is not installed (pip install opsdk[jax])")
# importing JAX and compiling each level take seconds
pytestmark = [pytest.mark.jax, pytest.mark.slow]

from opsdk.verification.check import plan_cases, run_checks  # noqa: E402

from . import jax_ops  # noqa: E402


@pytest.mark.parametrize("op, check, words", jax_ops.BUGS, ids=[b[0].name for b in jax_ops.BUGS])
def test_planted_bug_fails_its_check_naming_the_cause(op, check, words):
    (result,) = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"],
                                       checks=[check]))
    assert result.status == "fail", result.detail
    assert words in result.detail


def test_correct_op_passes_every_check_and_layout_is_not_applicable():
    results = run_checks(plan_cases(jax_ops.CORRECT, dtypes=["float64"]))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed]
    (layout,) = [r for r in results if r.check == "layout" and r.backend == "python"]
    assert layout.status == "n/a" and "JAX arrays have no memory layout" in layout.detail
