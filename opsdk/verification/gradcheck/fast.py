"""Fast mode: vᵀJu, numeric against analytic, for random unit directions u and weights v.

Each input gets its own directions and each output its own weights, so a disagreement names
the (output, input) pair. Entries of u and v have random signs and magnitudes in [0.5, 1.5]
(then the vector is scaled to unit norm): unlike Gaussian entries, none is tiny, so an error in
one element is never hidden behind a small weight; unlike ±1 entries, sums never cancel exactly.

When the numeric side runs in float64, J·u comes from forward differences (one call of func per
direction; their O(eps) error is ~1e-6 relative, far below any tolerance), and a pair they flag
is redone with central differences before it counts. With central differences and several
inputs, all inputs move at once first (one directional derivative per direction); only an
output whose joint projections disagree is then looked at input by input, to name the pair.
Cost: two calls of func per direction (per direction and input where something disagrees, or
one call per direction and input with forward differences), one backward per weight vector and
output.
"""
import numpy as np

from .problem import to_numpy

N_DIRECTIONS = 3
N_WEIGHTS = 2


def _random_units(rng, sizes, count):
    """``count`` lists of random unit vectors, one per size (drawn in one call)."""
    # one draw gives both: the sign of r in (-1, 1) and a magnitude 0.5 + |r|
    entries = rng.random(count * sum(sizes), dtype=np.float32).astype(np.float64) * 2 - 1
    entries += np.copysign(0.5, entries)
    vectors, start = [], 0
    for _ in range(count):
        per = []
        for size in sizes:
            v = entries[start:start + size]
            v /= np.sqrt(v @ v)  # |entries| >= 0.5: never zero
            per.append(v)
            start += size
        vectors.append(per)
    return vectors


def _numeric_projections(problem, evaluator, directions, central, inputs=None):
    """[{j: J·u_j as a flat output vector}] for each direction (all inputs, or ``inputs``)."""
    picked = range(len(problem.diff)) if inputs is None else inputs
    return [{j: evaluator.directional({j: us[j].reshape(problem.diff[j].array.shape)}, central)
             for j in picked} for us in directions]


def _analytic_projections(problem, analytic, rng):
    """[(seed, v_k flat as rounded to the output dtype, vᵀJ row) per output k] per weight."""
    runs = []
    for vs in _random_units(rng, [o.array.size for o in problem.outputs], N_WEIGHTS):
        per_output = []
        for k, out in enumerate(problem.outputs):
            seed = analytic.seed(k, vs[k])
            v = to_numpy(seed).astype(np.float64).ravel()
            row = analytic.vjp_one(k, seed) if out._req else np.zeros(problem.n_cols)
            per_output.append((seed, v, row))
        runs.append(per_output)
    return runs


def _flag(problem, tolerances, k, j, directions, numeric, weights):
    """A description of the worst projection of pair (k, j) beyond tolerance, else None."""
    rows, cols = problem.rows[k], problem.cols[j]
    s_n = np.array([[w[k][1] @ d[j][rows] for d in numeric] for w in weights])
    s_a = np.array([[w[k][2][cols] @ us[j] for us in directions] for w in weights])
    if tolerances.derived:
        # the analytic projection is as accurate as the row vᵀJ it comes from
        norms = [float(np.linalg.norm(w[k][2][cols])) for w in weights]
        scale = max(n for n in norms if np.isfinite(n)) if any(np.isfinite(norms)) else 0.0
        atol, rtol = tolerances.block(k, j, scale, rows=rows.stop - rows.start)
    else:
        scale = np.nanmax(np.abs(s_n)) if np.isfinite(s_n).any() else 0.0
        atol, rtol = tolerances.block(k, j, scale)
    with np.errstate(invalid="ignore"):
        err = np.abs(s_a - s_n)
    bad = ~(err <= atol + rtol * np.abs(s_n))
    tolerances.seen(err, atol + rtol * np.abs(s_n))
    declared = tolerances.declared()
    if bad.any() and declared is not None:
        rescued = bad & (err <= declared[0] + declared[1] * np.abs(s_n))
        tolerances.loosened |= bool(rescued.any())
        bad &= ~rescued
    if not bad.any():
        return None
    q, p = np.argwhere(bad)[0]
    return (f"{problem.output_labels[k]} w.r.t. {problem.input_labels[j]}: vᵀJu analytic "
            f"{s_a[q, p]:.6g}, numeric {s_n[q, p]:.6g}")


def _joint_flag(problem, tolerances, k, directions, joint, weights):
    """Whether output k's projections along all inputs at once disagree beyond tolerance."""
    rows = problem.rows[k]
    s_n = np.array([[w[k][1] @ d[rows] for d in joint] for w in weights])
    s_a = np.array([[sum(w[k][2][cols] @ us[j] for j, cols in enumerate(problem.cols))
                     for us in directions] for w in weights])
    scales = []
    for cols in problem.cols:
        norms = [float(np.linalg.norm(w[k][2][cols])) for w in weights]
        finite = [n for n in norms if np.isfinite(n)]
        scales.append(max(finite) if finite else 0.0)
    atol, rtol = tolerances.joint(k, scales, rows=rows.stop - rows.start)
    with np.errstate(invalid="ignore"):
        err = np.abs(s_a - s_n)
    allowed = atol + rtol * np.abs(s_n)
    bad = ~(err <= allowed)
    declared = tolerances.declared()
    if bad.any() and declared is not None:
        bad &= ~(err <= declared[0] + declared[1] * np.abs(s_n))
    if not bad.any():
        tolerances.seen(err, allowed)
    return bool(bad.any())


def run_fast(problem, evaluator, analytic, tolerances, rng):
    """(flagged pair descriptions, {k: (seed, first VJP)} for the backward consistency check).

    With several inputs and central differences, the inputs are first moved all at once (one
    directional derivative per direction instead of one per input); only an output whose joint
    projections disagree is looked at input by input, to name the pair.
    """
    directions = _random_units(rng, [t.array.size for t in problem.diff], N_DIRECTIONS)
    # derived tolerances are tighter than a forward difference's O(eps) error
    central = evaluator.precision != np.float64 or tolerances.derived
    weights = _analytic_projections(problem, analytic, rng)
    first = {k: (seed, row) for k, (seed, _, row) in enumerate(weights[0])
             if problem.outputs[k]._req}
    outputs = range(len(problem.rows))
    if central and len(problem.cols) > 1:
        joint = [evaluator.directional({j: us[j].reshape(problem.diff[j].array.shape)
                                        for j in range(len(problem.diff))}, central)
                 for us in directions]
        outputs = [k for k in outputs
                   if _joint_flag(problem, tolerances, k, directions, joint, weights)]
        if not outputs:
            return [], first
    numeric = _numeric_projections(problem, evaluator, directions, central)
    pairs = [(k, j) for k in outputs for j in range(len(problem.cols))]
    flagged = [(k, j) for k, j in pairs
               if _flag(problem, tolerances, k, j, directions, numeric, weights)]
    if flagged and not central:
        redo = sorted({j for _, j in flagged})
        for per, again in zip(numeric, _numeric_projections(problem, evaluator, directions,
                                                            True, redo)):
            per.update(again)
    found = [text for k, j in flagged
             for text in [_flag(problem, tolerances, k, j, directions, numeric, weights)] if text]
    return found, first
