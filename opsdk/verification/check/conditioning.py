"""How far a result moves when its inputs move by a rounding: the conditioning comparisons allow for.

An ill-conditioned op (a standardisation of nearly constant rows, ``x - mean`` of values far
from 0) turns each rounding inside it into an error many times the result's own epsilon, on
every correct backend: another summation order, or float32 instead of float64, is then far
from the reference in units of the result's magnitude. Its scale is measured on python in
float64: every float input scaled by ``1 ± STEP`` elementwise with random signs, as a rounding
of every input would, and the central difference of each result, divided by STEP, is its
response to relative perturbations of the inputs, ``Σ J x s``. Over PROBES sign vectors its rms
is about ``sqrt(Σ (J x)^2)``: what an error of one epsilon in every input, or in every
intermediate as large as them, becomes in the result. Comparisons measure errors against the
larger of the result's magnitude and this conditioning; for a well-conditioned op it is no
larger than the magnitude, so nothing loosens.
"""
import numpy as np

from .backends import REFERENCE
from .context import Run

PROBES = 3
STEP = 1e-6


def _moved(sample, rng, sign):
    changed = {}
    for key, slot in sample.slots():
        values = slot.values
        if values.dtype.kind != "f" or not values.size:
            continue
        signs = rng.choice((-1.0, 1.0), size=values.shape)
        changed[key] = slot.with_values(values.astype(np.float64) * (1 + sign * STEP * signs))
    return changed


def conditioning_run(ctx, sample, grad_outputs=None, backward=True):
    """A Run whose arrays are the conditioning of each output and gradient of ``sample`` (python
    in float64, the same ``grad_outputs``), or None when the op refuses the moved inputs."""
    squares = None
    try:
        for probe in range(PROBES):
            runs = []
            for sign in (1.0, -1.0):
                rng = np.random.default_rng([*np.atleast_1d(sample.seed).tolist(), 77, probe])
                moved = sample.with_slots(sample.label, _moved(sample, rng, sign))
                runs.append(ctx.run(sample=moved, backend=REFERENCE, dtype="float64",
                                    grad_outputs=grad_outputs or None, backward=backward))
            plus, minus = runs
            parts = [(p, m) for p, m in zip(plus.outputs + plus.grads, minus.outputs + minus.grads)]
            response = [None if p is None or m is None or p.dtype.kind not in "fc"
                        else ((p.astype(np.float64) - m) / (2 * STEP)) ** 2 for p, m in parts]
            squares = response if squares is None else [
                None if a is None or b is None else a + b for a, b in zip(squares, response)]
    except Exception:  # a moved input the op refuses: no conditioning known, nothing loosened
        return None
    kappa = [None if s is None else np.nan_to_num(np.sqrt(s / PROBES), nan=0.0, posinf=0.0)
             for s in squares]
    n = len(plus.outputs)
    return Run(kappa[:n], kappa[n:], [])
