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

On python, an op with integer outputs (the index it picked) is held to the second half of the
rule on the tie samples: its gradient at the tie equals its gradient with every tie broken by
a small move of the values that keeps its picks (the gradient of the piece it picked), not
one sent to every tied element.
"""
import numpy as np

from ..backends import REFERENCE
from ..context import Run
from ..result import Outcome
from ..samples import PROBE, argument_names
from .agreement import compare_runs

NAME = "ties"
SUMMARY = ("at exact ties (repeated values) and at the special points, integer outputs, outputs "
           "and gradients agree with python's (the tie rule: every backend picks what python "
           "picks)")
KINDS = ("tie", "probe")
# the probes of the op's first sample (its other samples' probes are special_points')
LEAD_ORIGIN = True


def applies(op, backend):
    return True


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


# a tie broken by this share of the values' size: far above float32's resolution, far below
# the gaps between the spread values of a tie sample
NUDGE = 1e-5
# a gradient at the tie this far (a share of its largest element) from the one with the tie
# broken in the picked element's favour goes elsewhere than the pick
PICKED_TOLERANCE = 0.1


def _nudged(sample, sign, reverse):
    """The sample with every float input moved by ``sign * NUDGE * its size * rank`` (rank: the
    flat position, reversed when ``reverse``): every exact tie broken, in one direction."""
    changed = {}
    for key, slot in sample.slots():
        values = slot.values
        if values.dtype.kind != "f" or values.size < 2:
            continue
        rank = np.arange(values.size, dtype=np.float64).reshape(values.shape)
        if reverse:
            rank = rank[::-1] if values.ndim == 1 else rank.reshape(-1)[::-1].reshape(values.shape)
        size = max(float(np.max(np.abs(values))), 1e-3)
        moved = values.astype(np.float64) + sign * NUDGE * size * rank
        changed[key] = slot.with_values(moved.astype(values.dtype))
    if not changed:
        return None
    return sample.with_slots(f"{sample.label}, ties broken", changed, kind=sample.kind)


def _all_tied(sample):
    """A tie sample, or a probe that fills a float input with one value (every element tied)."""
    if sample.kind == "tie":
        return True
    return sample.kind == PROBE and any(
        s.values.dtype.kind == "f" and s.values.size > 1 and np.all(s.values == s.values.flat[0])
        for _, s in sample.slots())


def _integers(run):
    return [o for o in run.outputs if o.dtype.kind in "iub"]


def _picked(ctx):
    """python at exact ties: the gradient goes to the element the op picked (its integer
    outputs say which), i.e. equals the gradient with the ties broken in the picks' favour."""
    if not _all_tied(ctx.sample) or not ctx.sample.diff_positions:
        return Outcome.not_applicable("python's own tie rule is judged on the tie samples and "
                                      "the probes that fill an input with one value")
    if ctx.op.ties == "any":
        return Outcome.not_applicable("ties='any' declared: which tied element gets the gradient "
                                      "is the op's choice")
    from ..drawing import draw

    if not draw(ctx.op, ctx.dtype, ctx.seed, ctx.mode).picks:
        return Outcome.not_applicable("no integer output names the element the op picks")
    base = ctx.reference_run(sample=ctx.sample)
    if base is None or not _integers(base) or not any(g is not None for g in base.grads):
        return Outcome.not_applicable("no integer output names the element the op picks")
    for sign, reverse in ((-1, False), (1, False), (-1, True), (1, True)):
        nudged = _nudged(ctx.sample, sign, reverse)
        if nudged is None:
            break
        try:
            run = ctx.reference_run(sample=nudged)  # the same seeded incoming gradients
        except MemoryError:
            raise
        except Exception:  # the op refuses the nudged values: nothing to learn from them
            continue
        if run is None or len(_integers(run)) != len(_integers(base)) or not all(
                a.shape == b.shape and np.array_equal(a, b)
                for a, b in zip(_integers(run), _integers(base))):
            continue
        return _same_gradients(ctx, base, run)
    return Outcome.not_applicable("no small move of the values breaks the ties and keeps the "
                                  "op's picks")


def _same_gradients(ctx, tied, broken):
    names = argument_names(ctx.op, len(ctx.sample.args))
    found = []
    for p, g0, g1 in zip(ctx.sample.diff_positions, tied.grads, broken.grads):
        if g0 is None or g1 is None or g0.shape != g1.shape:
            continue
        a, b = g0.astype(np.float64), g1.astype(np.float64)
        with np.errstate(all="ignore"):
            gap = np.abs(a - b)
        largest = float(np.nanmax(np.abs(b))) if b.size else 0.0
        bad = gap > PICKED_TOLERANCE * max(largest, 1e-12)
        if bad.any():
            at = tuple(int(i) for i in np.argwhere(bad)[0])
            found.append(f"the gradient of '{names[p]}' at {list(at)} is {a[at]:.6g} at the tie "
                         f"but {b[at]:.6g} with the tie broken in favour of the element the op "
                         f"picked ({int(bad.sum())} of {bad.size} elements differ)")
    if not found:
        return Outcome.passed()
    return Outcome.failed(
        f"{ctx.name} on python ({ctx.dtype}) at exact ties: " + "; ".join(found) + " (the tie "
        "rule: the gradient goes to the tied element the op picked, as its index output says, "
        "not to every tied element nor to another; or declare ties='any')")


def run(ctx):
    """The backend against python in the dtype (integers, exactly) and in float64; python at
    ties against itself with the ties broken in its picks' favour."""
    if ctx.backend == REFERENCE:
        return _picked(ctx)
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
