"""Attribute samples: every float attribute also at perturbed, non-round values (the floats of a
tuple attribute too, one at a time); every integer attribute one below and one above; every
flag flipped.

A backward that hard-codes the registered value of an attribute, or ignores it, is right at
that value only; the perturbed values catch it (with inputs placed halfway between the old and
the new value, for attributes that are thresholds) (``axis=-1`` also at ``-2`` and ``0``,
``approximate=True`` also at ``False``). An op may declare an attribute's range
(``attr_ranges``); values are then taken inside it. Where no perturbed float value is accepted,
the attribute is verified at one value only, and the run says so; an integer or a flag the op
refuses to change (a size, a mode it has one kernel for) is left as it is without a note.
"""
import math
import numbers
from dataclasses import replace

import numpy as np

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


def sequence_attributes(op, sample):
    """``(key, name, value)`` for each tuple or list attribute holding a float (``bounds=(-1, 1.5)``);
    all-integer ones are shapes and axes, left alone."""
    names = argument_names(op, len(sample.args))
    found = [(i, names[i], v) for i, v in enumerate(sample.args) if _float_sequence(v)]
    return found + [(k, k, v) for k, v in sample.kwargs.items() if _float_sequence(v)]


def _float_sequence(value):
    return isinstance(value, (tuple, list)) and 0 < len(value) <= 8 \
        and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value) \
        and any(_is_float(v) for v in value)


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


def _between(op, sample, old, new):
    """The sample with its float inputs' first and last elements at +-(old + new) / 2 (where
    the input's domain holds them): an attribute that is a threshold in input space (a clamp
    bound, huber's delta) then has inputs between its old and new value on every seed, where a
    backward that hard-codes the old value is wrong."""
    from .probes import domain_of

    middle = (old + new) / 2
    changed = {}
    for key, slot in sample.slots():
        values = slot.values
        if values.dtype.kind != "f" or values.size < 2:
            continue
        domain = domain_of(op, sample, key, values.astype(np.float64))
        if domain is None:
            continue
        flat = values.copy().reshape(-1)
        for index, point in ((0, middle), (-1, -middle)):
            if domain[0] <= point <= domain[1]:
                flat[index] = point
        changed[key] = slot.with_values(flat.reshape(values.shape))
    return sample.with_slots(sample.label, changed) if changed else sample


def _attribute_sample(op, sample, key, old, new, label, accepts):
    """The perturbed sample with inputs between the two values, else without; None if refused."""
    candidate = _with_value(sample, key, new, label)
    for chosen in ((_between(op, candidate, old, new), candidate) if _is_float(old) else
                   (candidate,)):
        if accepts(chosen):
            return chosen
    return None


def attribute_variants(op, sample, full, accepts):
    """``(variants, notes)``: samples with one float attribute perturbed, and what could not be."""
    ranges = getattr(op, "attr_ranges", None) or {}
    variants, notes = [], []
    for key, name, value in float_attributes(op, sample):
        tried, accepted = [], []
        for new in perturbed_values(value, ranges.get(name)):
            tried.append(new)
            chosen = _attribute_sample(op, sample, key, value, new,
                                       f"{sample.label}, {name}={new:.6g}", accepts)
            if chosen is not None:
                accepted.append(chosen)
                if not full:
                    break
        variants += accepted
        if not accepted:
            why = (f"its declared range {ranges[name]} holds no other value" if not tried
                   else f"the op refuses {', '.join(f'{t:.6g}' for t in tried)}")
            notes.append(f"attribute '{name}' verified at {value:g} only: {why}"
                         + ("" if name in ranges else " (declare attr_ranges to verify it "
                                                      "at other values)"))
    for key, name, value in sequence_attributes(op, sample):
        for i, element in enumerate(value):
            if not _is_float(element):
                continue
            for new in perturbed_values(float(element))[:2 if full else 1]:
                moved = type(value)(new if j == i else v for j, v in enumerate(value))
                candidate = _with_value(sample, key, moved, f"{sample.label}, {name}={moved}")
                placed = _between(op, candidate, float(element), new)
                chosen = placed if accepts(placed) else candidate if accepts(candidate) else None
                if chosen is not None:
                    variants.append(chosen)
    for key, name, value in discrete_attributes(op, sample):
        for new in discrete_values(value):
            candidate = _with_value(sample, key, new, f"{sample.label}, {name}={new}")
            if accepts(candidate):
                variants.append(candidate)
                if not full:
                    break
    return variants, notes
