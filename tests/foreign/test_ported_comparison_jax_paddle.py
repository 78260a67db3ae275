"""Issue 28's acceptance for one JAX custom_vjp and one Paddle PyLayer: their planted bugs are
caught through their own framework at least as often as when the same op is ported to opsdk
(seeds 0-2), and neither route raises a false alarm on the correct op (table:
docs/verifying-foreign-ops.md)."""
import importlib

import pytest

from opsdk.check import plan_cases, run_checks

from . import ported_jax_paddle_ops

# importing JAX or Paddle and running every check three times take seconds
pytestmark = pytest.mark.slow
SEEDS = (0, 1, 2)
FRAMEWORKS = [pytest.param("jax", marks=pytest.mark.jax),
              pytest.param("paddle", marks=pytest.mark.paddle)]


def _pack(framework):
    """tests/foreign/<framework>_ops, skipped with the reason where the framework is absent."""
    pytest.importorskip(framework, reason=f"{framework} is not installed "
                                          f"(pip install opsdk[{framework}])")
    return importlib.import_module(f".{framework}_ops", __package__)


def _failed_checks(op, seed):
    results = run_checks(plan_cases([op], dtypes=["float64"]), seed=seed)
    return {r.check for r in results if r.failed}


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_no_false_alarm_either_way(framework):
    for op in _pack(framework).CORRECT:
        assert _failed_checks(op, 0) == set(), op.qualname
        assert _failed_checks(ported_jax_paddle_ops.ported(op), 0) == set(), op.qualname


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_foreign_route_catches_the_bug_whenever_the_port_does(framework):
    for op, check, _ in _pack(framework).BUGS:
        for seed in SEEDS:
            ported = _failed_checks(ported_jax_paddle_ops.ported(op), seed)
            foreign = _failed_checks(op, seed)
            assert foreign or not ported, f"seed {seed}: the port caught {op.qualname}, not foreign"
            assert ported <= foreign, f"seed {seed}: {op.qualname} only the port: {ported - foreign}"
            assert check in foreign, f"seed {seed}: {op.qualname}: {check} did not fail"
