"""One gradient check from start to report: set up, fast or full mode, the side checks."""
import secrets

import numpy as np

from .analytic import Analytic, CheckAborted
from .checks import check_backward_consistency, first_runs
from .evaluate import Evaluator, InPlaceWrite
from .fast import run_fast
from .full import TooCostly, run_full
from .problem import Problem
from .report import Failure, GradcheckReport
from .tolerance import Tolerances


def _written(problem, j, changed, size, when):
    name = problem.input_labels[j]
    return Failure("inplace", None, problem.diff_pos[j],
                   f"func wrote into its input {name} in place {when} ({changed} of {size} "
                   "elements changed): the numeric derivatives of a function that changes its "
                   "inputs say nothing about its gradient, so nothing was compared; expected: "
                   "inputs left as they came (work on a copy)")


def check_gradients(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, nondet_tol=0.0,
                    fast_mode=False, check_undefined_grad=True, check_grad_dtypes=True,
                    seed=None, order=1, input_names=None, output_names=None, derived=False,
                    max_jacobian=None, max_calls=None):
    """Run a gradient check and return its GradcheckReport (never raises on a wrong gradient).

    Args: as opsdk.autograd.gradcheck; ``order``, ``input_names`` and ``output_names`` only
    change how the report names things. ``derived=True`` derives the tolerances from error
    estimates of both sides (see tolerance.py); ``atol``/``rtol`` then only loosen them.
    ``max_jacobian``: a Jacobian with more elements is never computed whole, not even in full
    mode or for a report: random projections vᵀJu decide (mode ``projected``, said in a note),
    so time and memory stay bounded whatever the inputs' size; ``max_calls`` does the same for
    one whose computation would take more calls of func or backward (its sparsity decides).

    Returns:
        GradcheckReport: ``.ok``, ``.failures`` (each with ``.output``, ``.input``, ``.kind``,
        worst elements and hints), ``.loosened`` and ``str(report)``.
    """
    seed = secrets.randbits(32) if seed is None else int(seed)
    rng = np.random.default_rng(seed)
    report = GradcheckReport(order, "fast" if fast_mode else "full", seed, eps, atol, rtol,
                             derived=derived)
    problem = Problem(func, inputs, input_names, output_names)
    if max_jacobian is not None and problem.n_rows * problem.n_cols > max_jacobian:
        report.mode = "projected"
    if problem.written:
        report.failures = [_written(problem, j, n, problem.diff[j].array.size, "when called")
                           for j, n in problem.written]
        return report
    try:
        evaluator = Evaluator(problem, eps)
    except InPlaceWrite as error:
        report.failures = [_written(problem, error.j, error.changed, error.size,
                                    "when called on perturbed copies")]
        return report
    if evaluator.note:
        report.notes.append(evaluator.note)
    tolerances = Tolerances(problem, atol, rtol, evaluator.precision, derived, evaluator, order)
    analytic = Analytic(problem, check_grad_dtypes)
    failures = []
    try:
        if report.mode == "projected":
            failures = _projected(problem, evaluator, analytic, tolerances, rng, report,
                                  nondet_tol, check_undefined_grad)
        elif fast_mode:
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
            try:
                failures, report.kinks_skipped = run_full(problem, evaluator, analytic,
                                                          tolerances, rng, order, max_calls)
            except TooCostly as costly:
                report.mode = "projected"
                failures = _projected(problem, evaluator, analytic, tolerances, rng, report,
                                      nondet_tol, check_undefined_grad, costly.calls)
            failures += side_checks
    except CheckAborted:
        pass
    except InPlaceWrite as error:
        failures = [_written(problem, error.j, error.changed, error.size,
                             "when called on perturbed copies")]
    report.failures = analytic.failures + failures
    report.loosened = tolerances.loosened
    report.ratio = tolerances.ratio
    return report


def _projected(problem, evaluator, analytic, tolerances, rng, report, nondet_tol,
               check_undefined_grad, calls=None):
    """Failures of a Jacobian too large (or, ``calls`` given, too costly) to compute whole:
    its random projections decide."""
    flagged, runs = run_fast(problem, evaluator, analytic, tolerances, rng)
    elements = problem.n_rows * problem.n_cols
    why = "it is larger than max_jacobian" if calls is None else \
        f"computing it would take {calls} calls, more than max_calls"
    report.notes.append(f"the Jacobian ({problem.n_rows} x {problem.n_cols} elements, "
                        f"{8 * elements / (1 << 20):.1f} MiB a copy) was checked along random "
                        f"projections vᵀJu, not computed whole: {why}")
    failures = [Failure("projection", None, None, f"{text} (beyond the tolerance; the Jacobian "
                                                  "is too large to compute whole)")
                for text in flagged]
    return failures + check_backward_consistency(problem, analytic, runs, nondet_tol,
                                                 check_undefined_grad)
