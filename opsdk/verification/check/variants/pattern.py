"""Deterministic values for derived samples whose verdict must not depend on the seed.

Values drawn from the seed can miss a regime (no row of the sample activates three elements)
on some seeds and hit it on others. These samples take their values from a low-discrepancy
sequence instead (the fractional parts of 0.1234 + i * golden ratio, spread evenly over an
interval without repeating), mapped into an interval of the input's domain and moved clear of
its declared kinks; the seed plays no part.
"""
import numpy as np

from ....packs.registry.sampling import too_close

GOLDEN = (np.sqrt(5.0) - 1) / 2
PHASE = 0.1234


def sequence(count, phase=0):
    """``count`` values in (0, 1), evenly spread and never repeating (no ties of their own)."""
    return (PHASE + 0.0731 * phase + GOLDEN * np.arange(count)) % 1.0


def spread(shape, low, high, phase=0):
    """Values of ``shape`` spread over [low, high] (float64)."""
    count = int(np.prod(shape, dtype=np.int64))
    return (low + (high - low) * sequence(count, phase)).reshape(shape)


def clear_of(values, spec, low, high):
    """``values`` moved at least ``spec.min_distance`` (times 1.5) from the spec's avoid points,
    to the side each lay on, kept inside [low, high] (where it has room)."""
    if spec is None or not spec.avoid:
        return values
    out = np.array(values, dtype=np.float64)
    margin = 1.5 * spec.min_distance
    for point in spec.avoid:
        near = np.abs(out - point) < margin
        side = np.where(out >= point, 1.0, -1.0)
        moved = point + side * margin
        moved = np.where((moved < low) | (moved > high), point - side * margin, moved)
        out = np.where(near, moved, out)
    if too_close(out, spec.avoid, spec.min_distance).any():
        return values  # avoid points closer together than the margin: leave it to the op
    return out


def nice_bounds(values):
    """(low, high) around the finite values, rounded outwards to one significant digit (a
    domain for ops that declare none: the same on every seed, whatever values were drawn)."""
    finite = values[np.isfinite(values)]
    if not finite.size:
        return None
    low, high = float(finite.min()), float(finite.max())
    if low == high:
        return (low - 1.0, high + 1.0) if low == 0 else (low - abs(low), high + abs(high))
    return _round(low, floor=True), _round(high, floor=False)


def _round(value, floor):
    if value == 0:
        return 0.0
    step = 10.0 ** np.floor(np.log10(abs(value)))
    return float((np.floor if floor else np.ceil)(value / step) * step)
