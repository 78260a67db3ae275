"""Special-point samples: inputs at 0, at both ends of the domain, and at the dtype's extremes in it;
and beyond the domain, at large finite magnitudes.

The points are fixed (no randomness), so a NaN at 0 or a float32 overflow at the end of the
domain is found on every seed. The domain is the one declared in the op's TensorSpec, else
the range of the sample's own values.

Real calls leave the range an author sampled (a pre-activation of a few hundred): beyond the
domain, each float input of the first sample is also filled with +-M, M = 1.25 ln(the dtype's
largest value) (111 in float32, 887 in float64), where exp(x) overflows and formulas built on
it (sigmoid' as e^x / (1 + e^x)^2, softplus as log(1 + e^x)) turn into inf / inf. Only where
the op's python forward in float64 accepts the sample, is finite there and not constant: a
domain that is a true restriction gives NaN or raises beyond it (sqrt, log, acos, atanh), or
the op guards it with a constant (x log x as 0 below 0), and is not probed there.
"""
import math

import numpy as np

from ..samples import BEYOND, PROBE, slot_name
from .trial import OVER_BUDGET, trial

# M = BEYOND_FACTOR * ln(largest value of the dtype): past where exp(x) overflows
BEYOND_FACTOR = 1.25


def domain_of(op, sample, position, values):
    """``(low, high)`` of a float input: the declared TensorSpec domain, else the sample's range."""
    specs = getattr(op, "inputs", ()) or ()
    if getattr(op, "sample_fn", None) is None and isinstance(position, int) \
            and position < len(specs):
        spec = specs[position]
        if not spec.integer:
            return float(spec.domain[0]), float(spec.domain[1])
    finite = values[np.isfinite(values)]
    if not finite.size:
        return None
    return float(finite.min()), float(finite.max())


def special_points(dtype, low, high):
    """0, the ends, and the dtype's tiny/subnormal/largest values, those inside [low, high]."""
    info = np.finfo(dtype)
    tiny = float(info.tiny)
    subnormal = float(info.smallest_subnormal)
    candidates = [0.0, low, high, tiny, -tiny, subnormal, -subnormal, float(info.max),
                  -float(info.max)]
    points = []
    for value in candidates:
        cast = float(np.asarray(value, dtype=dtype))
        if low <= cast <= high and np.isfinite(cast) and cast not in points:
            points.append(cast)
    return points


def _float_inputs(op, sample):
    """``(key, slot, name, domain)`` for each non-empty float input with a domain."""
    for key, slot in sample.slots():
        if slot.values.dtype.kind != "f" or not slot.values.size:
            continue
        domain = domain_of(op, sample, key, slot.values.astype(np.float64))
        if domain is not None:
            yield key, slot, slot_name(op, sample, key), domain


def probe_variants(op, sample, filled, accepts):
    """Samples with one float input at the special points: all of them cycled through the tensor,
    and (``filled``) the tensor filled with 0 and with each end of the domain in turn."""
    variants = []
    for key, slot, name, domain in _float_inputs(op, sample):
        values = slot.values
        points = special_points(values.dtype, *domain)
        shown = ", ".join(f"{p:.3g}" for p in points)
        cycled = np.resize(np.asarray(points, dtype=values.dtype), values.shape)
        candidates = [sample.with_slots(f"{sample.label}, {name} at the special points [{shown}]",
                                        {key: slot.with_values(cycled)}, kind=PROBE)]
        if filled:
            # a tensor of nothing but tiny values is an underflow test, not a special point
            big = [p for p in points if p == 0 or abs(p) > 1e-30]
            candidates += [sample.with_slots(f"{sample.label}, {name} = {p:.3g} everywhere",
                                             {key: slot.with_values(np.full(values.shape, p,
                                                                            values.dtype))},
                                             kind=PROBE) for p in big]
        variants += [c for c in candidates if accepts(c)]
    return variants


def beyond_magnitude(dtype):
    """M of the beyond-the-domain probes: 1.25 ln(largest value), in the dtype (111, 887)."""
    return float(np.asarray(BEYOND_FACTOR * math.log(float(np.finfo(dtype).max)), dtype=dtype))


def beyond_variants(op, sample, accepts):
    """Samples with one float input filled with +M and with -M where that lies outside its
    domain, kept where the op accepts them and its python forward in float64 is finite and
    not constant there."""
    variants = []
    for key, slot, name, domain in _float_inputs(op, sample):
        values = slot.values
        m = beyond_magnitude(values.dtype)
        for point in (m, -m):
            if domain[0] <= point <= domain[1]:
                continue  # inside the domain: the special points' extremes cover it
            candidate = sample.with_slots(
                f"{sample.label}, {name} = {point:.4g} everywhere (beyond its domain "
                f"[{domain[0]:.4g}, {domain[1]:.4g}])",
                {key: slot.with_values(np.full(values.shape, point, values.dtype))}, kind=BEYOND)
            if accepts(candidate) and _varies_in_float64(op, candidate, key):
                variants.append(candidate)
    return variants


def _varies_in_float64(op, sample, key):
    """Whether the op's python forward in float64 is finite on the sample and changes when the
    input ``key`` moves by 0.05 % to 0.1 % of itself, element by element: an op clamped or
    guarded to a constant beyond its domain (x log x as 0 below 0, asin of a clipped x)
    declares that domain a restriction, and its gradient there is not judged."""
    here = _float64_outputs(op, sample)
    if here is None:
        return False
    slot = dict(sample.slots())[key]
    values = slot.values.astype(np.float64)
    moved = values * (1 + 1e-3 * np.linspace(0.5, 1.0, values.size).reshape(values.shape))
    there = _float64_outputs(op, sample.with_slots(sample.label, {key: slot.with_values(moved)}))
    return there is not None and any(not np.array_equal(a, b) for a, b in zip(here, there))


def _float64_outputs(op, sample):
    """The op's python float outputs in float64 on the sample, or None where it refuses the
    sample or some output is not finite."""
    cast = {key: slot.with_values(slot.values.astype(np.float64)) for key, slot in sample.slots()
            if slot.values.dtype.kind == "f"}
    outputs = trial(op, sample.with_slots(sample.label, cast))
    if outputs is None or outputs is OVER_BUDGET:
        return None
    floats = [np.asarray(o) for o in outputs if np.asarray(o).dtype.kind in "fc"]
    return floats if all(np.isfinite(o).all() for o in floats) else None
