"""Tie samples: exact ties (repeated values) where a selection must pick one element.

An argmin/argmax, a max, a top-k or a nearest neighbour picks one of several equal candidates,
and two backends may pick different ones (python's NumPy takes the first, a C loop with ``<=``
the last): their integer outputs and gradients then differ, which random values never show.
Every float input of the op's first sample gets values spread deterministically over its
domain (pattern.py), then repeated:

- along the last axis: element ``j`` of a row equals element ``j + n/2`` (every value twice,
  the first tied with one in the second half);
- along the first axis: row ``i`` equals row ``i + m/2`` (duplicate points: equal distances);
- rows (the last axis) of one value each;
- every float input filled with one value, its first axis renamed to 16 (CSR-style offsets
  scaled with it): every group the op forms along that axis (a segment, a window) ties,
  whatever sizes the seed drew.

Duplicates are bit-for-bit equal, so whatever a backend computes from them ties in every
precision. Only compiled backends run them (against python, the reference of the tie rule).
"""
from dataclasses import replace

import numpy as np

from ..samples import TIE
from .regimes import _domain, _values


def _repeated(values, axis):
    """``values`` with the first half along ``axis`` repeated into the second half."""
    n = values.shape[axis]
    if n < 2:
        return None
    half = (n + 1) // 2
    index = np.arange(n) % half
    return np.take(values, index, axis=axis)


# the first axis of the all-tied sample: enough rows that every group the op forms along it
# (a segment, a window, a bag) holds several, whatever sizes the seed drew
FILLED_ROWS = 16


def _filled_rows(op, sample):
    """The sample with its first float input's first axis renamed to FILLED_ROWS (CSR-style
    offsets scaled with it) and every float input filled with one value: every candidate of
    every group ties, also where the drawn sample's groups hold one row each."""
    from .sizes import _resized

    floats = [s for _, s in sample.slots() if s.values.dtype.kind == "f" and s.values.ndim]
    if not floats or floats[0].values.shape[0] == FILLED_ROWS:
        return None
    old = floats[0].values.shape[0]
    resized = _resized(sample, {old: FILLED_ROWS}, np.random.default_rng(0), sample.label,
                       shape_of=lambda shape: tuple(FILLED_ROWS if a == 0 and d == old else d
                                                    for a, d in enumerate(shape)), ints=False)
    if resized is None:
        return None
    changed = {}
    for key, slot in resized.slots():
        if slot.values.dtype.kind != "f":
            continue
        domain = _domain(op, sample, key, slot.values)
        if domain is None:
            continue
        low, high = domain[0], domain[1]
        changed[key] = slot.with_values(np.full(slot.values.shape, low + 0.7071 * (high - low),
                                                dtype=slot.values.dtype))
    if not changed:
        return None
    return resized.with_slots(f"{sample.label}, ties: {FILLED_ROWS} rows of one value",
                              changed, kind=TIE)


def tie_variants(op, sample, accepts):
    """Tie samples of ``sample`` the op accepts."""
    from .regimes import _with_values

    constant = _with_values(op, sample, "constant rows", 1.0, rows="constant")
    variants = [] if constant is None else \
        [replace(constant, label=constant.label.replace("regime: constant", "ties: constant"),
                 kind=TIE)]
    variants = [v for v in variants if accepts(v)]
    filled = _filled_rows(op, sample)
    if filled is not None and accepts(filled):
        variants.append(filled)
    for axis, words in ((-1, "values repeated along the last axis"),
                        (0, "rows repeated along the first axis")):
        changed = {}
        for n, (key, slot) in enumerate(sample.slots()):
            values = slot.values
            if values.dtype.kind != "f" or values.ndim == 0:
                continue
            if axis == 0 and values.ndim < 2:
                continue
            domain = _domain(op, sample, key, values)
            if domain is None:
                continue
            spread_values = _values(values.shape, np.float64, domain, 1.0, None, n)
            repeated = _repeated(spread_values, axis)
            if repeated is not None:
                changed[key] = slot.with_values(repeated.astype(values.dtype))
        if changed:
            candidate = sample.with_slots(f"{sample.label}, ties: {words}", changed, kind=TIE)
            if accepts(candidate):
                variants.append(candidate)
    return variants
