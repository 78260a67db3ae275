"""Checks beside the Jacobian: backward is deterministic, and zero grads give zero grads."""
import numpy as np

from .report import Failure


def check_reentrant(problem, analytic, runs, nondet_tol):
    """Run each output's VJP again with the same seed; ``runs`` maps output k to
    (seed, first result). Differences above nondet_tol are failures."""
    failures = []
    for k, (seed, first) in runs.items():
        again = analytic.vjp_one(k, seed)
        for j, cols in enumerate(problem.cols):
            a, b = again[cols], first[cols]
            one_nan = np.isnan(a) != np.isnan(b)
            with np.errstate(invalid="ignore"):
                diff = np.where(np.isnan(a) & np.isnan(b), 0.0, np.abs(a - b))
            if np.all(diff <= nondet_tol) and not one_nan.any():
                continue
            finite = diff[np.isfinite(diff)]
            if one_nan.any():
                how = (f"are NaN in one run and not in the other at {int(one_nan.sum())} of "
                       f"{one_nan.size} elements")
            else:
                how = f"differ by up to {float(finite.max()) if finite.size else float('inf'):.3g}"
            failures.append(Failure(
                "reentrant", problem.out_pos[k], problem.diff_pos[j],
                f"backward is not deterministic: two runs with the same grad_outputs on "
                f"{problem.output_labels[k]} gave gradients of {problem.input_labels[j]} that "
                f"{how}; expected: at most nondet_tol={nondet_tol:g} "
                "(raise nondet_tol for an op that is non-deterministic by design, e.g. atomics; "
                "else look for state that backward changes or randomness in it)"))
    return failures


def first_runs(problem, analytic, rng):
    """One VJP per output with a graph, on a random seed: (seed, result) by output index."""
    runs = {}
    for k, out in enumerate(problem.outputs):
        if out._req:
            seed = analytic.seed(k, rng.standard_normal(out.array.size))
            runs[k] = (seed, analytic.vjp_one(k, seed))
    return runs


def check_backward_consistency(problem, analytic, runs, nondet_tol, zero_grads=True):
    """Each output's VJP again with its seed doubled. A deterministic backward that is linear in
    the incoming grad returns exactly twice the first result (scaling by 2 is exact in floating
    point), which settles both checks in one backward; only when it does not are the causes
    told apart: the same seed again (reentrancy) and all-zero grad_outputs."""
    suspects = {k: (seed, first) for k, (seed, first) in runs.items()
                if not np.array_equal(analytic.vjp_one(k, seed * 2), 2 * first)}
    if not suspects:
        return []
    failures = check_reentrant(problem, analytic, suspects, nondet_tol)
    if zero_grads:
        failures += check_zero_grads(problem, analytic, nondet_tol)
    return failures


def check_zero_grads(problem, analytic, nondet_tol=0.0):
    """Zero grad_outputs on every output must give zero input gradients, up to the noise
    nondet_tol allows (a backward that ignores or offsets the incoming grad does not)."""
    seeds = [analytic.seed(k) if o._req else None for k, o in enumerate(problem.outputs)]
    if not any(s is not None for s in seeds):
        return []
    row = analytic.vjp(seeds)
    failures = []
    for j, cols in enumerate(problem.cols):
        g = row[cols]
        if np.all(np.abs(g) <= nondet_tol):
            continue
        size = (f"{int(np.isnan(g).sum())} NaN element(s)" if np.isnan(g).any()
                else f"max |grad| {float(np.max(np.abs(g))):.3g}")
        failures.append(Failure(
            "zero_grad", None, problem.diff_pos[j],
            f"with all grad_outputs zero, the gradient of {problem.input_labels[j]} is not zero "
            f"({size}); expected: zero, since a gradient "
            "is linear in the incoming grad; backward ignores or offsets grad_output",
            hints=["gradient ignores the incoming grad (multiply by grad_output)"]))
    return failures
