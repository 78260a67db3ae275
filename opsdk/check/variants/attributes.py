"""Attribute samples: every float attribute also at perturbed, non-round values; every integer
attribute one below and one above; every flag flipped.

A backward that hard-codes the registered value of an attribute, or ignores it, is right at
that value only; the perturbed values catch it (``axis=-1`` also at ``-2`` and ``0``,
``approximate=True`` also at ``False``). An op may declare an attribute's range
(``attr_ranges``); values are then taken inside it. Where no perturbed float value is accepted,
the attribute is verified at one value only, and the run says so; an integer or a flag the op
refuses to change (a size, a mode it has one kernel for) is left as it is without a note.
"""
import math
import numbers
from dataclasses import replace

from ..samples import ATTRIBUTE, TensorSlot, argument_names

# non-round factors: a perturbed value never lands on a value an author would hard-code
FACTORS = (1.1731, 0.8269)
# a small attribute (an epsilon) moves results by about its own size: move it a lot
SMALL = 1e-3
SMALL_FACTORS = (37.31, 5.731)
RANGE_POINTS = (0.2731, 0.8269)
ZERO_STEPS = (0.1731, -0.1731)


def float_attributes(op, sample):
    """``(key, name, value)`` for each float attribute of the sample (positional or keyword)."""
    found = []
    names = argument_names(op, len(sample.args))
    for i, value in enumerate(sample.args):
        if _is_float(value):
            found.append((i, names[i], float(value)))
    for key, value in sample.kwargs.items():
        if _is_float(value) and not isinstance(value, TensorSlot):
            found.append((key, key, float(value)))
    return found


def discrete_attributes(op, sample):
    """``(key, name, value)`` for each integer or bool attribute (positional or keyword)."""
    names = argument_names(op, len(sample.args))
    found = [(i, names[i], v) for i, v in enumerate(sample.args) if _is_discrete(v)]
    return found + [(k, k, v) for k, v in sample.kwargs.items() if _is_discrete(v)]


def _is_discrete(value):
    return isinstance(value, (bool, numbers.Integral)) and not isinstance(value, TensorSlot)


def discrete_values(value):
    """A flag flipped; an integer one below and one above."""
    if isinstance(value, bool):
        return [not value]
    return [int(value) - 1, int(value) + 1]


def _is_float(value):
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)) \
        and math.isfinite(float(value))


def perturbed_values(value, declared_range=None):
    """The values an attribute is also verified at (deterministic, never the value itself)."""
    if declared_range is not None:
        low, high = declared_range
        candidates = [low + p * (high - low) for p in RANGE_POINTS] if high > low else []
    elif value != 0:
        candidates = [value * f for f in (SMALL_FACTORS if abs(value) <= SMALL else FACTORS)]
    else:
        candidates = list(ZERO_STEPS)
    return [float(f"{c:.6g}") for c in candidates if c != value]


def _with_value(sample, key, value, label):
    if isinstance(key, int):
        args = tuple(value if i == key else a for i, a in enumerate(sample.args))
        return replace(sample, label=label, args=args, kwargs=dict(sample.kwargs), kind=ATTRIBUTE)
    return sample.with_slots(label, {}, kind=ATTRIBUTE, kwargs={key: value})


def attribute_variants(op, sample, full, accepts):
    """``(variants, notes)``: samples with one float attribute perturbed, and what could not be."""
    ranges = getattr(op, "attr_ranges", None) or {}
    variants, notes = [], []
    for key, name, value in float_attributes(op, sample):
        tried, accepted = [], []
        for new in perturbed_values(value, ranges.get(name)):
            candidate = _with_value(sample, key, new, f"{sample.label}, {name}={new:.6g}")
            tried.append(new)
            if accepts(candidate):
                accepted.append(candidate)
                if not full:
                    break
        variants += accepted
        if not accepted:
            why = (f"its declared range {ranges[name]} holds no other value" if not tried
                   else f"the op refuses {', '.join(f'{t:.6g}' for t in tried)}")
            notes.append(f"attribute '{name}' verified at {value:g} only: {why}"
                         + ("" if name in ranges else " (declare attr_ranges to verify it "
                                                      "at other values)"))
    for key, name, value in discrete_attributes(op, sample):
        for new in discrete_values(value):
            candidate = _with_value(sample, key, new, f"{sample.label}, {name}={new}")
            if accepts(candidate):
                variants.append(candidate)
                if not full:
                    break
    return variants, notes
