"""Full mode: every Jacobian element, analytic against numeric.

One side is computed element by element (one backward per output element, or two calls of func
per input element), whichever the measured costs make cheaper; the other side is probed in
groups along the first one's sparsity (compress.py), which is exact wherever they disagree.
"""
import numpy as np

from .blocks import abs_max
from .columns import Columns
from .compare import compare
from .compress import GroupProbe, color_columns, fill_by_groups
from .noise import RoundingNoise
from .problem import to_numpy


def _index_maps(problem):
    row_output = np.concatenate([np.full(s.stop - s.start, k) for k, s in enumerate(problem.rows)])
    col_input = np.concatenate([np.full(s.stop - s.start, j) for j, s in enumerate(problem.cols)])
    return row_output, col_input


def _limit_tables(problem, tolerances, jac):
    """(atol, rtol) per block, scaled by the block of the side computed in full."""
    shape = (len(problem.rows), len(problem.cols))
    atol, rtol = np.zeros(shape), np.zeros(shape)
    for k, rows in enumerate(problem.rows):
        for j, cols in enumerate(problem.cols):
            atol[k, j], rtol[k, j] = tolerances.block(k, j, abs_max(jac[rows, cols]))
    return atol, rtol


def _numeric_probe(problem, evaluator, tables, row_output, col_input):
    """Probes of the numeric side: central differences of input elements (grouped or one)."""
    atol, rtol = tables

    def group(units, r):
        directions = {}
        for j in np.unique(col_input[units]):
            u = np.zeros(problem.cols[j].stop - problem.cols[j].start)
            mine = col_input[units] == j
            u[units[mine] - problem.cols[j].start] = r[mine]
            directions[int(j)] = u.reshape(problem.diff[j].array.shape)
        return evaluator.directional(directions), r

    def one(c):
        return evaluator.column(c)[0]

    def limits(rows, units):
        k, j = row_output[rows], col_input[units]
        return atol[k, j], rtol[k, j]
    return GroupProbe(group, one, limits, rtol_on_probe=True)


def _analytic_probe(problem, analytic, tables, row_output, col_input):
    """Probes of the analytic side: backward seeded on output elements (grouped or one)."""
    atol, rtol = tables

    def group(units, r):
        seeds, applied = [], r.copy()
        for k, (rows, out) in enumerate(zip(problem.rows, problem.outputs)):
            mine = row_output[units] == k
            if not out._req or not mine.any():
                seeds.append(None)
                continue
            values = np.zeros(rows.stop - rows.start)
            values[units[mine] - rows.start] = r[mine]
            seed = analytic.seed(k, values)
            # the seed is rounded to the output dtype: predict with what backward really got
            applied[mine] = to_numpy(seed).ravel()[units[mine] - rows.start]
            seeds.append(seed)
        return analytic.vjp(seeds), applied

    def one(i):
        k = int(row_output[i])
        if not problem.outputs[k]._req:
            return np.zeros(problem.n_cols)
        values = np.zeros(problem.rows[k].stop - problem.rows[k].start)
        values[i - problem.rows[k].start] = 1
        return analytic.vjp_one(k, analytic.seed(k, values))

    def limits(cols, units):
        k, j = row_output[units], col_input[cols]
        return atol[k, j], rtol[k, j]
    return GroupProbe(group, one, limits, rtol_on_probe=False)


def _affordable(known, max_calls, per_probe):
    """TooCostly when probing the other side along ``known``'s sparsity takes too many calls."""
    if max_calls is None:
        return
    groups = len(color_columns(known != 0))
    if groups * per_probe > max_calls:
        raise TooCostly(groups * per_probe)


def _numeric_jacobian(problem, evaluator):
    # filled column by column: keep columns contiguous
    jac_t = np.empty((problem.n_cols, problem.n_rows))
    for c in range(problem.n_cols):
        jac_t[c] = evaluator.column(c)[0]
    return jac_t.T


def _analytic_is_cheaper(problem):
    """One backward per output element against two calls of func per input element, a backward
    counted as two calls (its usual cost): analytic first when it has no more outputs than inputs. Counted, never timed: which side is computed first
    decides what a budget (max_calls) allows, so a timing would make the verdict depend on how
    busy the machine is."""
    n_backward = sum(o.array.size for o in problem.outputs if o._req)
    return n_backward <= problem.n_cols


class TooCostly(Exception):
    """The whole Jacobian would take more than ``max_calls`` calls: projections decide instead."""

    def __init__(self, calls):
        super().__init__(calls)
        self.calls = calls


def run_full(problem, evaluator, analytic, tolerances, rng, order=1, max_calls=None):
    """(failures, kink elements skipped) over the whole Jacobian; TooCostly when either side
    would take more than ``max_calls`` calls of func or of backward (None: no bound)."""
    row_output, col_input = _index_maps(problem)
    columns = Columns(evaluator)
    analytic_first = _analytic_is_cheaper(problem)
    first_side = sum(o.array.size for o in problem.outputs if o._req) if analytic_first \
        else 2 * problem.n_cols
    if max_calls is not None and first_side > max_calls:
        raise TooCostly(first_side)
    if analytic_first:
        jac_a = analytic.jacobian()
        _affordable(jac_a, max_calls, 2)
        tables = _limit_tables(problem, tolerances, jac_a)
        probe = _numeric_probe(problem, evaluator, tables, row_output, col_input)
        jac_n = fill_by_groups(jac_a, probe, rng)
    else:
        jac_n = _numeric_jacobian(problem, evaluator)
        _affordable(jac_n.T, max_calls, 1)
        tables = _limit_tables(problem, tolerances, jac_n)
        probe = _analytic_probe(problem, analytic, tables, row_output, col_input)
        jac_a = fill_by_groups(jac_n.T, probe, rng).T
    tolerances.use_jacobian(jac_n)
    noise = RoundingNoise(problem, jac_n, evaluator.base, rng) if tolerances.derived else None
    return compare(problem, jac_a, jac_n, columns, tolerances, order, noise)
