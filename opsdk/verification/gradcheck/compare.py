"""Analytic vs numeric Jacobian, block by block (one output, one input): failures and kinks.

An element beyond the tolerance gets a closer look along its input element (columns.py): in
derived mode a second step size re-measures the numeric side (Richardson), and a kink is only
granted with evidence: the slopes on each side of the point are stable (the same over two
steps) and differ from each other, and the analytic value lies between them.
"""
import numpy as np

from .blocks import abs_max, all_close
from .hints import block_hints
from .report import Failure, Mismatch

WORST_SHOWN = 5
# how many times its measured rounding noise (noise.py) an analytic element below float64 may err
NOISE_FACTOR = 4
KINK_FACTOR = 10  # left/right slopes must differ by this many tolerances to call it a kink
SIDE_STABILITY = 0.1  # a side's slope may move by this fraction of the jump between steps


def _columns_of(bad, columns, rows, cols, attribute):
    out = np.zeros(bad.shape)
    for c in np.flatnonzero(bad.any(axis=0)):
        out[:, c] = getattr(columns.get(cols.start + c), attribute)[rows]
    return out


def _refined(bad, a, n, columns, rows, cols, tolerances, k, j, scale):
    """Derived mode: (n with Richardson values where bad, allowed with the step-difference
    estimate of the numeric error added there)."""
    d1 = _columns_of(bad, columns, rows, cols, "central")
    d2 = _columns_of(bad, columns, rows, cols, "central_2h")
    richardson = np.where(bad, (4 * d1 - d2) / 3, n)
    atol, rtol = tolerances.block(k, j, scale)
    allowed = atol + rtol * np.abs(richardson) + np.where(bad, np.abs(d1 - d2), 0.0)
    return richardson, allowed


def _kinks(bad, a, columns, rows, cols, allowed):
    """(left, right) slopes, the mask of bad elements with evidence of a kink, and the mask of
    those whose analytic value lies between the two one-sided derivatives (a subgradient)."""
    left = _columns_of(bad, columns, rows, cols, "left")
    right = _columns_of(bad, columns, rows, cols, "right")
    left_far = _columns_of(bad, columns, rows, cols, "left_far")
    right_far = _columns_of(bad, columns, rows, cols, "right_far")
    jump = np.abs(right - left)
    stable = (np.abs(left - left_far) <= SIDE_STABILITY * jump + allowed) \
        & (np.abs(right - right_far) <= SIDE_STABILITY * jump + allowed)
    kink = bad & stable & (jump > KINK_FACTOR * allowed)
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


def _errors(a, n):
    """|a - n|, with 0 where both are NaN and inf where only one is (NaN-aware)."""
    with np.errstate(invalid="ignore"):
        err = np.abs(a - n)
    both = np.isnan(a) & np.isnan(n)
    return np.where(both, 0.0, np.where(np.isnan(err), np.inf, err))


def _with_noise(bad, allowed, noise, k, j, cols):
    """``allowed`` widened by the measured rounding noise of the analytic side (bad rows only)."""
    if noise is None or not noise.applies(k, j):
        return allowed
    rows = np.flatnonzero(bad.any(axis=1))
    measured = noise.rows(k, rows)
    if measured is None:
        return allowed
    rows, values = measured
    widened = allowed.copy()
    widened[rows] += NOISE_FACTOR * values[:, cols]
    return widened


def compare(problem, jac_a, jac_n, columns, tolerances, order=1, noise=None):
    """(failures, number of kink elements skipped) for every block of the two Jacobians;
    ``columns.get(column)`` gives the numeric side of one input element at several steps;
    ``noise`` (a RoundingNoise) measures the analytic side's rounding below float64."""
    failures, skipped = [], 0
    declared = tolerances.declared()
    for k, rows in enumerate(problem.rows):
        for j, cols in enumerate(problem.cols):
            a, n = jac_a[rows, cols], jac_n[rows, cols]
            if not a.size:
                continue
            scale = abs_max(n)
            atol, rtol = tolerances.block(k, j, scale)
            if all_close(a, n, atol, rtol) and not tolerances.derived:
                continue
            err = _errors(a, n)
            allowed = atol + rtol * np.abs(n)
            bad = ~(err <= allowed)
            if bad.any() and tolerances.derived:
                n, allowed = _refined(bad, a, n, columns, rows, cols, tolerances, k, j, scale)
                err = _errors(a, n)
                bad = ~(err <= allowed)
                if bad.any():
                    allowed = _with_noise(bad, allowed, noise, k, j, cols)
                    bad = ~(err <= allowed)
            tolerances.seen(err, allowed)
            if bad.any() and declared is not None:
                loose = declared[0] + declared[1] * np.abs(n)
                rescued = bad & (err <= loose)
                tolerances.loosened |= bool(rescued.any())
                bad &= ~rescued
            if not bad.any():
                continue
            left, right, kink, valid = _kinks(bad, a, columns, rows, cols, allowed)
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
    n_nan = int((bad & (np.isnan(a) != np.isnan(n))).sum())
    if n_nan:
        message += f"; {n_nan} of them NaN on one side only"
    if not problem.outputs[k]._req:
        message += ("; this output is not connected to the graph (stop_gradient, .numpy() or "
                    "no_grad in forward) although it depends on the input")
    hints = block_hints(problem, k, j, a, n, bad, allowed, kink, jac_n, order)
    return Failure("jacobian", problem.out_pos[k], problem.diff_pos[j], message,
                   int(bad.sum()), int(bad.size),
                   _worst(problem, k, j, a, n, err, allowed, bad, kink, left, right), hints,
                   (problem.output_names[k], problem.input_names[j]))
