"""Likely causes of a wrong gradient, read from the shape of the disagreement.

Each test looks at one block (output k, input j): ``a`` analytic and ``n`` numeric, rows are
output elements, columns input elements. The first structural pattern that fits is reported,
then the independent ones (zero where non-zero, one side of zero, kinks).
"""
import numpy as np


def _close(x, y, allowed):
    return bool(np.all(np.abs(x - y) <= allowed))


def _multiplicity(problem, k, j):
    """How many output elements each input element feeds when input j is broadcast to output k."""
    out_size, in_size = problem.outputs[k].array.size, problem.diff[j].array.size
    return out_size // in_size if in_size < out_size and out_size % in_size == 0 else 1


def _factor_hint(problem, k, j, a, n, allowed):
    norm = float(np.sum(n * n))
    if norm == 0:
        return None
    c = float(np.sum(a * n)) / norm
    if abs(c - 1) < 1e-6 or not _close(a, c * n, allowed):
        return None
    if abs(c + 1) < 1e-6:
        return ("sign flip: the analytic gradient is the numeric one negated (a minus sign "
                "missing or extra in backward)")
    m = _multiplicity(problem, k, j)
    if m > 1 and abs(c * m - 1) < 1e-3:
        return (f"mean instead of sum over broadcast dims: the analytic gradient is the numeric "
                f"one divided by {m}, the number of output elements each input element feeds; "
                "sum the incoming grad over the broadcast dims")
    return f"constant factor: analytic ≈ {c:.6g} × numeric (a wrong scale in backward)"


def _ignores_grad(a, n, allowed):
    if a.shape[0] < 2 or _close(n, n[:1], allowed):
        return None
    if _close(a, a[:1], allowed):
        return ("gradient ignores the incoming grad: every output element gives the same input "
                "gradient (backward must multiply by grad_output)")
    return None


def _swapped(problem, k, j, a, jac_n, allowed):
    for other, cols in enumerate(problem.cols):
        if other == j or problem.diff[other].array.shape != problem.diff[j].array.shape:
            continue
        n_other = jac_n[problem.rows[k], cols]
        if np.abs(n_other).max() > 0 and _close(a, n_other, allowed):
            return (f"swapped: this is the numeric gradient of {problem.input_labels[other]} "
                    "(backward returns gradients in the wrong order)")
    return None


def _transposed(a, n, allowed):
    by_value = np.argsort(n, axis=None)
    if _close(np.sort(a, axis=None), n.ravel()[by_value], allowed.ravel()[by_value]):
        return ("transposed: the analytic gradient has the right values in the wrong places "
                "(a missing transpose, or axes/indices mixed up)")
    return None


def _not_reduced(problem, k, j, a, n, allowed):
    if _multiplicity(problem, k, j) == 1:
        return None
    some = a != 0
    if 0 < some.sum() < (n != 0).sum() and _close(a[some], n[some], allowed[some]):
        return ("broadcast dims not reduced: the analytic gradient covers only part of the "
                "output elements each input element feeds; sum the incoming grad over the "
                "broadcast dims")
    return None


def _zero_where_nonzero(a, n, bad, order):
    if not np.all(a[bad] == 0) or not np.any(n[bad] != 0):
        return None
    text = ("zero where non-zero: the analytic gradient is 0 where the numeric one is not (a "
            "missing term, a branch not taken, or a tensor cut from the graph)")
    if order > 1:
        text += ("; for a second derivative: backward used raw arrays, .numpy(), detach(), or "
                 "tensors computed in forward (constants to the graph) instead of saved "
                 "inputs/outputs")
    return text


def _one_side(problem, j, a, n, bad):
    x = np.sign(problem.input_values(j))
    cols = bad.any(axis=0)
    live = (a != 0).any(axis=0) | (n != 0).any(axis=0)
    for s, word in ((-1, "negative"), (1, "positive")):
        # the whole side is wrong and the other side, present, is right
        side = live & (x == s)
        if np.array_equal(cols, side) and np.any(live & (x == -s)):
            return (f"wrong on one side of zero: every mismatch is at a {word} element of "
                    f"{problem.input_labels[j]}, and the other side is right")
    return None


def block_hints(problem, k, j, a, n, bad, allowed, kink, jac_n, order):
    """Hints for one failing block, most specific first."""
    hints = []
    # an all-zero analytic block fits many patterns trivially: it is just zero
    structural = a.any() and (_factor_hint(problem, k, j, a, n, allowed)
                              or _swapped(problem, k, j, a, jac_n, allowed)
                              or _not_reduced(problem, k, j, a, n, allowed)
                              or _ignores_grad(a, n, allowed)
                              or _transposed(a, n, allowed))
    if structural:
        hints.append(structural)
    else:
        zero = _zero_where_nonzero(a, n, bad, order)
        if zero:
            hints.append(zero)
    side = _one_side(problem, j, a, n, bad)
    if side:
        hints.append(side)
    if kink[bad].any():
        hints.append("some inputs sit on a non-differentiable point (left and right numeric "
                     "derivatives differ): check the gradient there, or move the input away")
    return hints
