"""The acceptance of issue 28: planted bugs of real ops are caught through their own framework
at least as often as when the same op is ported to opsdk (seeds 0-2), and neither route raises
a false alarm on the correct versions (table: docs/verifying-foreign-ops.md)."""
import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = [pytest.mark.torch, pytest.mark.slow]

from opsdk.verification.check import plan_cases, run_checks  # noqa: E402

from . import ported_ops  # noqa: E402

SEEDS = (0, 1, 2)


def _failed_checks(op, seed):
    results = run_checks(plan_cases([op], dtypes=["float64"]), seed=seed)
    return {r.check for r in results if r.failed}


@pytest.mark.parametrize("op", ported_ops.CORRECT, ids=[op.name for op in ported_ops.CORRECT])
def test_no_false_alarm_either_way(lltm_built, op):
    assert _failed_checks(op, 0) == set()
    assert _failed_checks(ported_ops.ported(op), 0) == set()


@pytest.mark.parametrize("op, bug", ported_ops.PAIRS, ids=[bug for _, bug in ported_ops.PAIRS])
def test_foreign_route_catches_the_bug_whenever_the_port_does(lltm_built, op, bug):
    for seed in SEEDS:
        ported = _failed_checks(ported_ops.ported(op), seed)
        foreign = _failed_checks(op, seed)
        assert foreign or not ported, f"seed {seed}: the port caught {bug} ({ported}), foreign not"
        # the checks that name the cause in the port name it through torch too (the port's jvp
        # errors on the in-place write its backward makes; the foreign op has no jvp to run)
        assert ported - foreign <= {"jvp"}, f"seed {seed}: only the port: {ported - foreign}"
