"""Tie samples: exact ties (repeated values) where a selection must pick one element.

An argmin/argmax, a max, a top-k or a nearest neighbour picks one of several equal candidates,
and two backends may pick different ones (python's NumPy takes the first, a C loop with ``<=``
the last): their integer outputs and gradients then differ, which random values never show.
Every float input of the op's first sample gets values spread deterministically over its
domain (pattern.py), then repeated:

- along the last axis: element ``j`` of a row equals element ``j + n/2`` (every value twice,
  the first tied with one in the second half);
- along the first axis: row ``i`` equals row ``i + m/2`` (duplicate points: equal distances);
- rows (the last axis) of one value each.

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


def tie_variants(op, sample, accepts):
    """Tie samples of ``sample`` the op accepts."""
    from .regimes import _with_values

    constant = _with_values(op, sample, "constant rows", 1.0, rows="constant")
    variants = [] if constant is None else \
        [replace(constant, label=constant.label.replace("regime: constant", "ties: constant"),
                 kind=TIE)]
    variants = [v for v in variants if accepts(v)]
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
