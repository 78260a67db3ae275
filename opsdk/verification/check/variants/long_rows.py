"""Long-row samples: a reduction's accumulation error at a row long enough to show it.

A C kernel that sums float32 inputs in a float accumulator is right to a few epsilons over
rows of 8 or of a few hundred; its error grows with the row, while NumPy's pairwise summation
and a double accumulator stay within a few epsilons. The accumulation check compares the two
at a row of LONG_ROW elements, with a row of SHORT_ROW elements for the growth. The first
float input's last axis (its first one longer than COMPONENT when the last is shorter) is
renamed to that length everywhere it appears (other dimensions set to 1 where the op takes
it, as size samples do), with values of one sign and nearly one size
(1 % apart, spread deterministically without repeating one): their rounding errors add up
(hundreds of epsilons of the sum at 65539 terms) where terms that cancel or vary would let
them cancel in a random walk.
"""
from dataclasses import replace

import numpy as np

from ..samples import LONG
from .pattern import clear_of, spread
from .regimes import _domain
from .sizes import _classes, _resized

LONG_ROW = (1 << 16) + 3
SHORT_ROW = 4099
# a dimension of at most this many elements beside a longer one is a fixed-size component of
# each item (a point's coordinates, a pair, RGBA), summed over by design, not a row to lengthen
COMPONENT = 4


def _same_sign(domain):
    """An interval 1 % wide from 0.7071 of the way along the domain's part on one side of zero
    (the positive one where it has one): terms of one sign and nearly one size, whose rounding
    errors in a float accumulator add up instead of cancelling (an interval centred on a
    binary-round value such as 1.5 would let them cancel)."""
    low, high, spec, _ = domain
    if high > 0:
        start = max(low, 0.0)
        edge = start + 0.7071 * (high - start)
        return edge, min(high, edge + 0.01 * max(abs(edge), 1e-3 * (high - low)))
    end = min(high, 0.0)
    edge = end - 0.7071 * (end - low)
    return max(low, edge - 0.01 * max(abs(edge), 1e-3 * (high - low))), edge


def _long_row(op, sample, mapping, label):
    """The sample with dimension sizes renamed by ``mapping`` and same-signed values, or None."""
    rng = np.random.default_rng(0)  # only integer inputs keep values drawn from the sample's
    candidate = _resized(sample, mapping, rng, label)
    if candidate is None:
        return None
    slots = dict(sample.slots())
    changed = {}
    for n, (key, slot) in enumerate(candidate.slots()):
        if slot.values.dtype.kind != "f":
            continue
        domain = _domain(op, sample, key, slots[key].values)
        if domain is None:
            continue
        a, b = _same_sign(domain)
        values = clear_of(spread(slot.values.shape, a, b, n), domain[2], domain[0], domain[1])
        changed[key] = slot.with_values(values.astype(slot.values.dtype))
    return candidate.with_slots(label, changed, kind=LONG)


def long_variants(op, sample, dtype, accepts, limit=np.inf):
    """``[long sample]`` (its ``related`` field holding the short one) for a float32 or float16
    run, or [] in float64, beyond the op's size limit, or when the op takes neither length."""
    classes = _classes(sample)
    if dtype == "float64" or LONG_ROW > limit or not classes:
        return []
    c = next((d for d in classes if d > COMPONENT), classes[0])
    rest = {d: 1 for _, s in sample.slots() for d in s.values.shape if d > 1 and d != c}
    for others in (rest, {}):
        short = _long_row(op, sample, {**others, c: SHORT_ROW},
                          f"{sample.label}, a row of {SHORT_ROW}")
        if short is None or not accepts(short):
            continue
        long = _long_row(op, sample, {**others, c: LONG_ROW},
                         f"{sample.label}, a row of {LONG_ROW}")
        if long is not None and accepts(long):
            return [replace(long, related=short)]
    return []
