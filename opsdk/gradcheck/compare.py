"""Analytic vs numeric Jacobian, block by block (one output, one input): failures and kinks."""
import numpy as np

from .blocks import abs_max, all_close
from .hints import block_hints
from .report import Failure, Mismatch

WORST_SHOWN = 5
KINK_FACTOR = 10  # left/right slopes must differ by this many tolerances to call it a kink


def _kinks(bad, a, n, slopes, rows, cols, allowed):
    """(left, right) slopes and the mask of bad elements that sit on a kink with the analytic
    value between the two one-sided derivatives (a valid subgradient)."""
    diff = np.zeros_like(n)
    for c in np.flatnonzero(bad.any(axis=0)):
        diff[:, c] = slopes.get(cols.start + c)[rows]
    left, right = n - diff / 2, n + diff / 2
    kink = bad & (np.abs(diff) > KINK_FACTOR * allowed)
    low, high = np.minimum(left, right) - allowed, np.maximum(left, right) + allowed
    return left, right, kink, kink & (a >= low) & (a <= high)


def _worst(problem, k, j, a, n, err, allowed, bad, kink, left, right):
    order = np.argsort(-np.nan_to_num(err / allowed, nan=np.inf)[bad], kind="stable")
    picked = []
    for flat in np.flatnonzero(bad)[order][:WORST_SHOWN]:
        r, c = divmod(int(flat), a.shape[1])
        out_idx, in_idx = problem.element(k, j, r, c)
        num = float(n[r, c])
        rel = float(err[r, c] / abs(num)) if num != 0 else float("inf")
        picked.append(Mismatch(out_idx, in_idx, float(a[r, c]), num, float(err[r, c]), rel,
                               (float(left[r, c]), float(right[r, c])) if kink[r, c] else None))
    return picked


def compare(problem, jac_a, jac_n, slopes, tolerances, order=1):
    """(failures, number of kink elements skipped) for every block of the two Jacobians;
    ``slopes.get(column)`` gives right-minus-left numeric slopes for kink detection."""
    failures, skipped = [], 0
    for k, rows in enumerate(problem.rows):
        for j, cols in enumerate(problem.cols):
            a, n = jac_a[rows, cols], jac_n[rows, cols]
            if not a.size:
                continue
            atol, rtol = tolerances.block(k, j, abs_max(n))
            if all_close(a, n, atol, rtol):
                continue
            err = np.abs(a - n)
            allowed = atol + rtol * np.abs(n)
            bad = ~(err <= allowed)
            if not bad.any():
                continue
            left, right, kink, valid = _kinks(bad, a, n, slopes, rows, cols, allowed)
            skipped += int(valid.sum())
            bad &= ~valid
            if not bad.any():
                continue
            failures.append(_failure(problem, k, j, a, n, err, allowed, bad, kink, left, right,
                                     (atol, rtol), jac_n, order))
    return failures, skipped


def _failure(problem, k, j, a, n, err, allowed, bad, kink, left, right, tols, jac_n, order):
    atol, rtol = tols
    message = (f"{problem.output_labels[k]} w.r.t. {problem.input_labels[j]}: {int(bad.sum())} "
               f"of {bad.size} Jacobian elements exceed the tolerance (atol {atol:.3g} + rtol "
               f"{rtol:.3g} * |numeric|)")
    if not problem.outputs[k]._req:
        message += ("; this output is not connected to the graph (stop_gradient, .numpy() or "
                    "no_grad in forward) although it depends on the input")
    hints = block_hints(problem, k, j, a, n, bad, allowed, kink, jac_n, order)
    return Failure("jacobian", problem.out_pos[k], problem.diff_pos[j], message,
                   int(bad.sum()), int(bad.size),
                   _worst(problem, k, j, a, n, err, allowed, bad, kink, left, right), hints,
                   (problem.output_names[k], problem.input_names[j]))
