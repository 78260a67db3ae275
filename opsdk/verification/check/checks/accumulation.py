"""accumulation: over a long row, a compiled float32 kernel errs no more than NumPy's float32 maths.

A reduction that sums float32 inputs in a float accumulator is right to a few epsilons over
short rows and its error grows with the row (docs/verifying.md). The backend's outputs and
gradients at a row of 65539 nearly equal elements, and at one of 4099, are measured against
python in float64, in epsilons of each element's magnitude, and so is python's own float32
run of the same maths (NumPy sums pairwise). A backend beyond both ``RATIO`` times NumPy's
error and ``FLOOR`` epsilons at the long row, whose error also grew from the short row by
``GROWTH`` and by ``GROWTH`` times more than NumPy's did, is reported as accumulating in
float32. Incoming gradients are of one sign and nearly one size, so a backward that sums them
(a bias gradient) accumulates too. An op that sums in its input's dtype on purpose declares
``accumulation="dtype"``: the finding is then a note.
"""
import numpy as np

from ..accuracy import magnitude_of
from ..backends import REFERENCE
from ..result import Outcome
from ..samples import argument_names
from ..variants.long_rows import LONG_ROW, SHORT_ROW
from ..variants.pattern import spread

NAME = "accumulation"
SUMMARY = ("over a row of 65539 elements, compiled float32 results err no more than NumPy's "
           "float32 computation of the same maths (a float accumulator for float32 inputs)")
KINDS = ("long",)
RATIO = 4
FLOOR = 4
GROWTH = 2


def applies(op, backend):
    return backend != REFERENCE


def applies_dtype(op, backend, dtype):
    """float64 results are held to float64 by the other checks already."""
    return dtype != "float64"


def _errors(run, ref, eps):
    """The largest error of each output and gradient, in epsilons of its elements' magnitude."""
    out = []
    for part in ("outputs", "grads"):
        for a, r in zip(getattr(run, part), getattr(ref, part)):
            if a is None or r is None or a.dtype.kind != "f" or a.shape != r.shape:
                out.append(None)
                continue
            r64 = r.astype(np.float64)
            with np.errstate(all="ignore"):
                err = np.abs(a.astype(np.float64) - r64) / (eps * magnitude_of(r64))
            finite = err[np.isfinite(err)]
            out.append(float(finite.max()) if finite.size else None)
    return out


def _seeds(ctx, sample):
    """Incoming gradients of one sign and nearly one size (as the long row's values): a
    backward that sums them (a bias gradient, a softmax's) accumulates like the forward, where
    random signs would let a float accumulator's rounding errors cancel. None: no backward.
    Their shapes come from python's forward: the backend under test runs the long row once (on
    the CUDA simulator, a forward of 65539 rows costs a second)."""
    if not sample.diff_positions:
        return None
    call = ctx.call(sample=sample, backend=REFERENCE)
    return [spread(tuple(o.shape), 1.0, 1.01, k) for k, o in enumerate(call.diff_outputs)] or None


def _measure(ctx, sample):
    seeds = _seeds(ctx, sample)
    got = ctx.run(sample=sample, grad_outputs=seeds)
    seeds = got.grad_outputs or None
    emp = ctx.run(sample=sample, backend=REFERENCE, grad_outputs=seeds)
    ref = ctx.reference_run(sample=sample, grad_outputs=seeds)
    if ref is None:
        return None
    eps = float(np.finfo(ctx.dtype).eps)
    return _errors(got, ref, eps), _errors(emp, ref, eps), len(got.outputs)


def _grew(long, short, numpy_long, numpy_short):
    """Whether an error grew from the short row to the long one by GROWTH, and by GROWTH times
    more than NumPy's own error did (a computation that cancels errs more at any length)."""
    if short is None or short == 0:
        return True
    growth = long / short
    numpy_growth = numpy_long / numpy_short if numpy_short else 1.0
    return growth > GROWTH and growth > GROWTH * max(numpy_growth, 1.0)


def run(ctx):
    """The backend's and NumPy's float32 errors at the long and the short row."""
    long, short = ctx.sample, ctx.sample.related
    at_long, at_short = _measure(ctx, long), _measure(ctx, short) if short is not None else None
    if at_long is None:
        return Outcome.not_applicable("no float64 reference: the op refuses float64 on python")
    mine, numpy_errors, n_outputs = at_long
    short_mine, short_numpy = at_short[:2] if at_short is not None else ([None] * len(mine),) * 2
    names = argument_names(ctx.op, len(long.args))
    found = []
    for k, (e, e_np, e_short, e_np_short) in enumerate(zip(mine, numpy_errors, short_mine,
                                                           short_numpy)):
        if e is None or e_np is None:
            continue
        if e > max(RATIO * e_np, FLOOR) and _grew(e, e_short, e_np, e_np_short):
            what = f"output {k}" if k < n_outputs else \
                f"the gradient of '{names[long.diff_positions[k - n_outputs]]}'"
            shorter = "" if e_short is None else \
                f"; at a row of {SHORT_ROW} it errs by {e_short:.3g}"
            found.append(f"{what} errs by {e:.3g} eps of its magnitude at a row of "
                         f"{LONG_ROW} (NumPy's float32 computation of the same maths: "
                         f"{e_np:.3g}){shorter}")
    if not found:
        return Outcome.passed()
    text = (f"{ctx.name} on {ctx.backend} ({ctx.dtype}) accumulates in {ctx.dtype}: "
            + "; ".join(found) + " (the error grows with the row's length: a float accumulator "
            "for float32 inputs; sum in double, or declare accumulation='dtype')")
    if ctx.op.accumulation == "dtype":
        return Outcome.passed(detail=f"declared accumulation='dtype': {text}")
    return Outcome.failed(text)
