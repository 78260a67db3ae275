"""One gradient check from start to report: set up, fast or full mode, the side checks."""
import secrets

import numpy as np

from .analytic import Analytic, CheckAborted
from .checks import check_backward_consistency, first_runs
from .evaluate import Evaluator
from .fast import run_fast
from .full import run_full
from .problem import Problem
from .report import GradcheckReport
from .tolerance import Tolerances


def check_gradients(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, nondet_tol=0.0,
                    fast_mode=False, check_undefined_grad=True, check_grad_dtypes=True,
                    seed=None, order=1, input_names=None, output_names=None):
    """Run a gradient check and return its GradcheckReport (never raises on a wrong gradient).

    Args: as opsdk.autograd.gradcheck; ``order``, ``input_names`` and ``output_names`` only
    change how the report names things.

    Returns:
        GradcheckReport: ``.ok``, ``.failures`` (each with ``.output``, ``.input``, ``.kind``,
        worst elements and hints) and ``str(report)``.
    """
    seed = secrets.randbits(32) if seed is None else int(seed)
    rng = np.random.default_rng(seed)
    report = GradcheckReport(order, "fast" if fast_mode else "full", seed, eps, atol, rtol)
    problem = Problem(func, inputs, input_names, output_names)
    evaluator = Evaluator(problem, eps)
    if evaluator.note:
        report.notes.append(evaluator.note)
    tolerances = Tolerances(problem, atol, rtol, evaluator.precision)
    analytic = Analytic(problem, check_grad_dtypes)
    failures = []
    try:
        if fast_mode:
            report.fast_failures, runs = run_fast(problem, evaluator, analytic, tolerances, rng)
            if report.fast_failures:
                failures, report.kinks_skipped = run_full(problem, evaluator, analytic,
                                                          tolerances, rng, order)
                if not failures:
                    report.notes.append("fast mode flagged " + "; ".join(report.fast_failures)
                                        + ", but the full Jacobian agrees within tolerance")
            failures += check_backward_consistency(problem, analytic, runs, nondet_tol,
                                                   check_undefined_grad)
        else:
            # these backward runs also time backward, for choosing the side computed in full
            side_checks = check_backward_consistency(problem, analytic,
                                                     first_runs(problem, analytic, rng),
                                                     nondet_tol, check_undefined_grad)
            failures, report.kinks_skipped = run_full(problem, evaluator, analytic, tolerances,
                                                      rng, order)
            failures += side_checks
    except CheckAborted:
        pass
    report.failures = analytic.failures + failures
    return report
