"""Comparing the Runs of one sample: the backend under test against the float64 python reference."""
import numpy as np

from ..accuracy import against_reference, call_scale, reduction_length
from ..compare import bitwise, compare
from ..conditioning import conditioning_run
from ..samples import argument_names


def loosened_text(ctx):
    atol, rtol = ctx.declared
    parts = [f"{k}={v:g}" for k, v in (("atol", atol), ("rtol", rtol)) if v is not None]
    return f"passed within the op's declared {', '.join(parts)} ({ctx.dtype}), beyond the derived tolerance"


def compare_arrays(ctx, label, got, ref, emp, dtype=None, scale=0.0, floor=None,
                   conditioning=None):
    """One problem line for ``got`` vs the float64 ``ref`` (``emp``: python in the dtype), or None.

    Integer and bool results must equal python's exactly. Returns the Comparison (or None).
    """
    if got is None or ref is None:
        if (got is None) != (ref is None):
            return (f"{label}: expected: {'none' if ref is None else 'a result'} (as python); "
                    f"got: {'none' if got is None else 'one'}"), None
        return None, None
    dtype = dtype or got.dtype
    if got.dtype.kind not in "fc":
        result = compare(got, emp if emp is not None else ref, 0.0, 0.0)
    else:
        extra = {} if floor is None else {"floor": floor}
        result = against_reference(got, ref, dtype, reduction_length(ctx.sample), emp,
                                   ctx.loosening, scale=scale, conditioning=conditioning, **extra)
    if not result.ok:
        return f"{label}: {result.message}", result
    return None, result


class Agreement:
    """What comparing runs found: problem lines, the worst error, the largest error/allowed
    ratio, and whether a declared tolerance was needed."""

    def __init__(self):
        self.problems = []
        self.worst = 0.0
        self.ratio = None
        self.loosened = False
        self.float_failed = False  # a float comparison failed (conditioning may explain it)

    def add(self, comparison):
        if comparison is None:
            return
        if comparison.worst is not None and np.isfinite(comparison.worst):
            self.worst = max(self.worst, comparison.worst)
        if comparison.ratio is not None:
            self.ratio = comparison.ratio if self.ratio is None else max(self.ratio, comparison.ratio)
        self.loosened |= comparison.loosened

    def outcome(self, ctx, failure_text):
        """A failed Outcome with ``failure_text`` and the problems, or a passed one."""
        from ..result import Outcome

        if self.problems:
            return Outcome.failed(failure_text + "; ".join(self.problems), self.worst,
                                  ratio=self.ratio)
        return Outcome.passed(self.worst, loosened=loosened_text(ctx) if self.loosened else "",
                              ratio=self.ratio)


def compare_runs(ctx, got, ref, emp, parts=("outputs", "grads"), floor=None):
    """An Agreement: problem lines, worst error, ratio, whether the declared tolerance was needed.

    ``floor``: epsilons of the call's scale always allowed (see accuracy.py). When a float
    comparison fails, all are repeated with the results' measured conditioning (an
    ill-conditioned op is that far off on any correct backend).
    """
    found = _compare_runs(ctx, got, ref, emp, parts, floor, None)
    if found.float_failed:
        kappa = conditioning_run(ctx, ctx.sample, ref.grad_outputs, backward="grads" in parts)
        if kappa is not None:
            found = _compare_runs(ctx, got, ref, emp, parts, floor, kappa)
    return found


def _compare_runs(ctx, got, ref, emp, parts, floor, kappa):
    names = argument_names(ctx.op, len(ctx.sample.args))
    inputs = [slot.values for _, slot in ctx.sample.slots()]
    scale = call_scale(list(ref.outputs) + list(ref.grads) + list(ref.grad_outputs) + inputs)
    found = Agreement()
    problems = found.problems
    for part in parts:
        a_list, r_list = getattr(got, part), getattr(ref, part)
        e_list = getattr(emp, part) if emp is not None else [None] * len(a_list)
        c_list = getattr(kappa, part) if kappa is not None else [None] * len(a_list)
        if len(a_list) != len(r_list):
            problems.append(f"{ctx.backend} returned {len(a_list)} {part}; expected: "
                            f"{len(r_list)} (as python)")
            continue
        for k, (a, r, e, c) in enumerate(zip(a_list, r_list, e_list, c_list)):
            if part == "outputs":
                label = f"output {k}"
                if a is not None and e is not None and a.dtype != e.dtype:
                    problems.append(f"{label}: dtype differs; expected: {e.dtype} (python); "
                                    f"got: {a.dtype}")
                    continue
            else:
                position = ctx.sample.diff_positions[k]
                label = f"gradient of '{names[position]}' (argument {position})"
            problem, result = compare_arrays(ctx, label, a, r, e, scale=scale, floor=floor,
                                             conditioning=c)
            if problem:
                problems.append(problem)
                found.float_failed |= result is not None and a.dtype.kind in "fc"
            found.add(result)
    return found


def same_runs(first, second, parts=("outputs", "grads"), exact=True, tolerance=None):
    """Lines naming what differs between two Runs of the same sample (bit for bit when ``exact``)."""
    problems = []
    for part in parts:
        for k, (a, b) in enumerate(zip(getattr(first, part), getattr(second, part))):
            if a is None or b is None:
                if (a is None) != (b is None):
                    problems.append((part, k, "one run gave none"))
                continue
            result = bitwise(a, b) if exact else tolerance(a, b)
            if not result.ok:
                problems.append((part, k, result.message))
    return problems
