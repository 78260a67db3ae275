"""Special-point samples: inputs at 0, at both ends of the domain, and at the dtype's extremes in it.

The points are fixed (no randomness), so a NaN at 0 or a float32 overflow at the end of the
domain is found on every seed. The domain is the one declared in the op's TensorSpec, else
the range of the sample's own values.
"""
import numpy as np

from ..samples import PROBE, slot_name


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


def probe_variants(op, sample, filled, accepts):
    """Samples with one float input at the special points: all of them cycled through the tensor,
    and (``filled``) the tensor filled with 0 and with each end of the domain in turn."""
    variants = []
    for key, slot in sample.slots():
        values = slot.values
        if values.dtype.kind != "f" or not values.size:
            continue
        domain = domain_of(op, sample, key, values.astype(np.float64))
        if domain is None:
            continue
        points = special_points(values.dtype, *domain)
        name = slot_name(op, sample, key)
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
