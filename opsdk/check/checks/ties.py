"""ties: at exact ties and at special points, a compiled backend gives python's results.

The tie rule (docs/verifying.md): an op that selects one of several equal candidates (an
argmin or argmax, a max, a top-k, a nearest neighbour) resolves an exact tie the same way on
every backend, as python does (NumPy's rule, and PyTorch's and Paddle's: the first index
wins), and its gradient goes to the element it picked. On the tie samples (values repeated
along the last axis, rows repeated along the first) and the special-point probes (inputs at
0, the domain's ends, filled with one value: ties everywhere), the backend's integer outputs
must equal python's in the same dtype exactly, and its float outputs and gradients agree
with python's in float64 (within the agreement tolerance) wherever both are finite. An op
whose backends may legitimately pick different tied elements declares ``ties="any"``: only
its float outputs are then compared there (a max or a distance is the same whichever tied
element gives it), and the result says so.
"""
import numpy as np

from ..backends import REFERENCE
from ..context import Run
from ..result import Outcome
from ..samples import PROBE
from .agreement import compare_runs

NAME = "ties"
SUMMARY = ("at exact ties (repeated values) and at the special points, integer outputs, outputs "
           "and gradients agree with python's (the tie rule: every backend picks what python "
           "picks)")
KINDS = ("tie", "probe")
# the probes of the op's first sample (its other samples' probes are special_points')
LEAD_ORIGIN = True


def applies(op, backend):
    return backend != REFERENCE


def _finite_only(runs):
    """The runs with every float element that is not finite in all of them set to 0 (the
    special_points check judges those)."""
    parts = {}
    for part in ("outputs", "grads"):
        lists = [getattr(r, part) for r in runs]
        cleaned = [[] for _ in runs]
        for items in zip(*lists):
            if any(a is None for a in items) or items[0].dtype.kind != "f" \
                    or len({a.shape for a in items}) > 1:
                for c, a in zip(cleaned, items):
                    c.append(a)
                continue
            keep = np.logical_and.reduce([np.isfinite(a) for a in items])
            for c, a in zip(cleaned, items):
                c.append(np.where(keep, a, 0).astype(a.dtype))
        parts[part] = cleaned
    return [Run(parts["outputs"][i], parts["grads"][i], r.grad_outputs)
            for i, r in enumerate(runs)]


def _agreement(ctx, sample, finite_only, values_only=False):
    """The Agreement of the backend with python on ``sample`` (``values_only``: float outputs)."""
    backward = bool(sample.diff_positions) and not values_only
    got = ctx.run(sample=sample, backward=backward)
    seeds = got.grad_outputs or None
    emp = ctx.run(sample=sample, backend=REFERENCE, grad_outputs=seeds, backward=bool(seeds))
    ref = ctx.reference_run(sample=sample, grad_outputs=seeds, backward=bool(seeds)) or emp
    if finite_only:
        got, emp, ref = _finite_only([got, emp, ref])
    if values_only:
        got, emp, ref = (_float_outputs(r) for r in (got, emp, ref))
    return compare_runs(ctx, got, ref, emp, parts=("outputs",) if values_only else
                        ("outputs", "grads"))


def _float_outputs(run):
    """The run with integer outputs left out (a tie policy of 'any': any index is right)."""
    return Run([o for o in run.outputs if o.dtype.kind == "f"], run.grads, run.grad_outputs)


def _lead(ctx):
    """The op's first sample in this run (the one forward and backward_agreement judge)."""
    from ..drawing import draw

    return next((s for s in draw(ctx.op, ctx.dtype, ctx.seed, ctx.mode).samples if s.lead), None)


def run(ctx):
    """The backend against python in the dtype (integers, exactly) and in float64."""
    probe = ctx.sample.kind == PROBE
    tolerant = ctx.op.ties == "any"
    found = _agreement(ctx, ctx.sample, probe, values_only=tolerant)
    if found.problems:
        lead = _lead(ctx)
        if lead is not None and _agreement(ctx, lead, False).problems:
            return Outcome.not_applicable("the backend disagrees with python on the op's own "
                                          "sample too: forward and backward_agreement report it")
    if tolerant and not found.problems:
        return Outcome.passed(detail="ties='any' declared: integer outputs and gradients at ties "
                                     "not compared, float outputs agree")
    if probe:
        where = "at special points"
    else:
        where = ("at exact ties (the tie rule: every backend resolves a tie as python does, the "
                 "first index winning as in NumPy; or declare ties='any')")
    return found.outcome(ctx, f"{ctx.name} on {ctx.backend} ({ctx.dtype}) disagrees with "
                              f"python {where}: ")
