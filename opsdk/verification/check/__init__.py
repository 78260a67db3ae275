"""Verification of registered ops: every op x backend x dtype x sample x check (``opsdk check``;
public as ``opsdk.check``).

Checks: forward and backward agreement with python in float64 (units of the dtype's epsilon),
gradcheck and gradgradcheck with tolerances derived from the numerics (or the clear error an op
without double backward must raise), the op's reference=, isolation (in-place writes, shared
memory, state kept between calls), layouts, derived sizes for compiled backends, special points
of the domain, the PyLayer protocol, and the engine's behaviour around the op (accumulation,
stop_gradient, no_grad, retain_graph, hooks). Samples: the op's own and derived ones (every
broadcast axis, perturbed attributes, layouts, sizes, special points); every case runs from the
op's fresh state with kernel outputs NaN-filled (check mode). See docs/verifying.md.

Example::

    from opsdk.check import plan_cases, run_checks, select_ops
    ops, failures = select_ops(packs=["mypack"])
    results = run_checks(plan_cases(ops), failures)
    [r.case_id for r in results if r.failed]
"""
from .checks import CHECKS, SUMMARIES, checks_for
from .plan import Case, plan_cases
from .result import BLOCKED, ERROR, FAIL, NA, PASS, SKIP, CheckResult, summarize
from .runner import clear_caches, run_case, run_checks
from .selection import select_ops

__all__ = ["CHECKS", "SUMMARIES", "checks_for", "Case", "plan_cases", "CheckResult", "summarize",
           "run_case", "run_checks", "select_ops", "clear_caches",
           "PASS", "FAIL", "ERROR", "BLOCKED", "SKIP", "NA"]
