"""special_points: at 0, the domain's ends and the dtype's extremes, and at large finite inputs
beyond the domain where python in float64 is finite, finite stays finite.

- where python in float64 gives a finite output inside the dtype's range, the op must too (a
  float32 overflow, exp(x) * exp(x) where exp(2x) fits, shows here on every seed);
- a NaN output where the op is finite and continuous on both sides is a removable NaN (x / x),
  and so is one where it is finite and settles on one side only, the other being outside its
  domain (x log x at 0, the end of the domain [0, 3]);
- where every output is finite, every gradient must be finite wherever the derivative exists
  there (not at a pole such as sqrt at 0, nor at a kink such as |x| at 0): that is decided from
  the float64 python forward, whose central differences at two steps and whose one-sided
  slopes all agree exactly where a finite derivative exists.
"""
import numpy as np

from ..result import Outcome
from ..samples import BEYOND, argument_names

NAME = "special_points"
SUMMARY = ("at 0, the domain's ends and the dtype's extremes in it, and at large finite inputs "
           "beyond it: outputs finite where float64 is, gradients finite where outputs are "
           "(unless the derivative is infinite)")
KINDS = ("probe", "beyond")
SHOWN = 3


def applies(op, backend):
    return True


def _where(ctx, key_values, index):
    """``x[i] = 0`` for the probed inputs at an output index (elementwise-shaped ops)."""
    parts = []
    for name, values in key_values:
        if values.shape and values.size and len(index) == values.ndim \
                and all(i < s for i, s in zip(index, values.shape)):
            parts.append(f"{name}{list(index)} = {values[tuple(index)]:.4g}")
    return f" ({', '.join(parts)})" if parts else ""


def _probed(ctx):
    names = argument_names(ctx.op, len(ctx.sample.args))
    return [(names[k] if isinstance(k, int) else k, slot.values) for k, slot in ctx.sample.slots()
            if slot.values.dtype.kind == "f"]


def _forward_problems(ctx, got, ref):
    info = np.finfo(ctx.dtype)
    problems = []
    for k, (a, r) in enumerate(zip(got.outputs, ref.outputs)):
        if a.dtype.kind != "f":
            continue
        r = r.astype(np.float64)
        lost = ~np.isfinite(a) & np.isfinite(r) & (np.abs(r) <= float(info.max))
        for index in np.argwhere(lost)[:SHOWN]:
            index = tuple(int(i) for i in index)
            problems.append(f"output {k}{list(index)} is {a[index]} in {ctx.dtype} where python "
                            f"in float64 gives {r[index]:.6g}, inside {ctx.dtype}'s range"
                            f"{_where(ctx, _probed(ctx), index)} (an intermediate overflows or "
                            "divides 0 by 0; rearrange the formula)")
    return problems


def _removable_nans(ctx, got):
    """Output NaNs where the op is finite and nearly equal just left and right of the point."""
    problems = []
    nan_outputs = [k for k, a in enumerate(got.outputs) if a.dtype.kind == "f" and np.isnan(a).any()]
    if not nan_outputs:
        return problems
    sides = []
    for step in (1e-7, -1e-7, 2e-7, -2e-7):
        changed = {}
        for key, slot in ctx.sample.slots():
            if slot.values.dtype.kind == "f":
                v = slot.values.astype(np.float64)
                changed[key] = slot.with_values(
                    (v + step * np.maximum(1.0, np.abs(v))).astype(slot.values.dtype))
        try:
            sides.append(ctx.run(sample=ctx.sample.with_slots(ctx.sample.label, changed),
                                 backward=False))
        except Exception:
            return problems
    shapes = {tuple(slot.shape) for _, slot in ctx.sample.slots() if slot.values.dtype.kind == "f"}
    for k in nan_outputs:
        a, left, right = got.outputs[k], sides[0].outputs[k], sides[1].outputs[k]
        if tuple(a.shape) not in shapes:
            continue  # only elementwise-shaped outputs: each element then has one input
        close = np.isfinite(left) & np.isfinite(right) & \
            (np.abs(left - right) <= 1e-3 * np.maximum(1.0, np.abs(left)))
        for index in np.argwhere(np.isnan(a) & close)[:SHOWN]:
            index = tuple(int(i) for i in index)
            problems.append(f"output {k}{list(index)} is nan, yet about {left[index]:.6g} on "
                            f"both sides of the point{_where(ctx, _probed(ctx), index)} (a "
                            "removable 0/0: handle the point, e.g. with where())")
        one_side = np.isnan(a) & ~close & _settled(left, sides[2].outputs[k], right) \
            | np.isnan(a) & ~close & _settled(right, sides[3].outputs[k], left)
        for index in np.argwhere(one_side)[:SHOWN - len(problems)]:
            index = tuple(int(i) for i in index)
            limit = left[index] if np.isfinite(left[index]) else right[index]
            problems.append(f"output {k}{list(index)} is nan, yet about {limit:.3g} just beside "
                            f"the point, on the side where the op is defined"
                            f"{_where(ctx, _probed(ctx), index)} (a "
                            "removable 0/0 at the edge of the domain, such as x log x at 0: "
                            "handle the point, e.g. with where())")
    return problems


def _settled(near, far, other):
    """Where a one-sided limit exists: finite at two steps on one side, nearly equal, and not
    finite on the other side (outside the op's domain)."""
    return np.isfinite(near) & np.isfinite(far) & ~np.isfinite(other) & \
        (np.abs(near - far) <= 1e-3 * np.maximum(1.0, np.abs(near)))


def _numeric_derivative(ctx, position, flat, seeds):
    """d(sum seeds . f)/d input[flat] in float64 where it exists, else None.

    It exists when central differences at two steps agree (no pole: sqrt at 0) and the
    function has no kink there (|x| at 0): one-sided slopes that differ, with second
    differences that do not stay put when the step doubles, are a kink.
    """
    slot = ctx.sample.args[position]
    x0 = float(slot.values.reshape(-1)[flat])
    h = 1e-5 * max(1.0, abs(x0))
    values = {}
    for m in (0, 1, -1, 0.25, -0.25, 0.5, -0.5):
        v = slot.values.astype(np.float64).copy()
        v.reshape(-1)[flat] += m * h
        shifted = ctx.sample.replace(ctx.sample.label, {position: slot.with_values(v)})
        try:
            run = ctx.run(sample=shifted, backend="python", dtype="float64", backward=False)
        except Exception:
            return None
        outs = [o for o in run.outputs if o.dtype.kind == "f"]
        values[m] = sum(float(np.sum(s * o)) for s, o in zip(seeds, outs))
    d = 0.25 * h
    with np.errstate(all="ignore"):
        wide = (values[1] - values[-1]) / (2 * h)
        narrow = (values[0.25] - values[-0.25]) / (2 * d)
        right = (values[0.25] - values[0]) / d
        left = (values[0] - values[-0.25]) / d
        # a smooth function's second differences are f'' at both steps; a kink's halve
        near = (values[0.25] - 2 * values[0] + values[-0.25]) / d ** 2
        far = (values[0.5] - 2 * values[0] + values[-0.5]) / (2 * d) ** 2
    estimates = (wide, narrow, left, right, near, far)
    if not all(np.isfinite(e) for e in estimates):
        return None
    scale = max(abs(e) for e in estimates[:4])
    if abs(wide - narrow) > 1e-2 * scale + 1e-8:
        return None  # the estimates do not settle: a pole
    if abs(left - right) > 1e-3 * scale + 1e-7 and abs(near - far) > 0.25 * max(abs(near), abs(far)):
        return None  # the sides differ: a kink
    return narrow


def _gradient_problems(ctx, got):
    names = argument_names(ctx.op, len(ctx.sample.args))
    info = np.finfo(ctx.dtype)
    problems = []
    for position, grad in zip(ctx.sample.diff_positions, got.grads):
        if grad is None or np.isfinite(grad).all():
            continue
        bad = np.flatnonzero(~np.isfinite(grad.reshape(-1)))
        for flat in bad[:SHOWN]:
            numeric = _numeric_derivative(ctx, position, int(flat), got.grad_outputs)
            if numeric is None or abs(numeric) > float(info.max):
                continue
            index = [int(i) for i in np.unravel_index(int(flat), grad.shape)]
            x = ctx.sample.args[position].values.reshape(-1)[flat]
            # every probed input at that index, when they share the gradient's shape
            where = _where(ctx, [(n, v) for n, v in _probed(ctx) if v.shape == grad.shape],
                           tuple(index)) or f" ({names[position]}{index} = {x:.4g})"
            problems.append(f"the gradient of '{names[position]}' is {grad.reshape(-1)[flat]} at "
                            f"{index}{where} where every output is "
                            f"finite and the derivative is finite (float64 central differences: "
                            f"{numeric:.6g})")
    return problems


def run(ctx):
    """Forward at the probe against python in float64; backward where the forward is finite."""
    got = ctx.run(backward=False)
    ref = ctx.reference_run(backward=False)
    problems = _forward_problems(ctx, got, ref) if ref is not None else []
    problems += _removable_nans(ctx, got)
    if not problems and ctx.sample.diff_positions and all(
            np.isfinite(o).all() for o in got.outputs if o.dtype.kind == "f"):
        problems += _gradient_problems(ctx, ctx.run())
    if problems:
        where = "at special points" if ctx.sample.kind != BEYOND else (
            "at large finite inputs beyond the declared domain (real calls leave the range the "
            "samples draw; python in float64 is finite there)")
        return Outcome.failed(f"{ctx.name} on {ctx.backend} ({ctx.dtype}) {where}: "
                              + "; ".join(problems))
    return Outcome.passed()

