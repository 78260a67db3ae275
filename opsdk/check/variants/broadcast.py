"""Broadcast samples: each tensor input with a size-1 dimension in each position, 0-d and all-ones.

A variant counts when the op accepts it and its outputs keep their shapes (the input really
broadcasts). Compiled backends run only the variants of inputs the op's own sample already
shows broadcasting (or of an n-ary elementwise op, whose inputs all have the output's shape):
a C kernel that never promised broadcasting may read past a shrunk input.
"""
import numpy as np

from ..samples import BROADCAST, slot_name
from .trial import output_shapes, trial


def _shrunk(values):
    """``(description, values)`` candidates: a size-1 axis in each position, 0-d, all ones."""
    out = []
    for axis, size in enumerate(values.shape):
        if size > 1:
            out.append((f"axis {axis} size 1", np.take(values, [0], axis=axis)))
    if values.size > 1:
        out.append(("0-d", values.reshape(-1)[:1].reshape(())))
        if values.ndim >= 2:
            out.append(("all ones", values.reshape(-1)[:1].reshape((1,) * values.ndim)))
    return out


def _demonstrated(sample, key, shapes):
    """Whether the op's own sample already shows input ``key`` broadcasting (on every backend)."""
    floats = [s for _, s in sample.slots() if s.values.dtype.kind == "f"]
    slot = dict(sample.slots())[key]
    if len(floats) >= 2 and all(tuple(s.shape) == shapes[0] for s in floats):
        return True  # n-ary elementwise: every input has the output's shape
    for shape in shapes:
        try:
            if tuple(slot.shape) != shape and np.broadcast_shapes(tuple(slot.shape), shape) == shape:
                return True
        except ValueError:
            continue
    return False


def broadcast_variants(op, sample, base_outputs, full):
    """Broadcast samples derived from ``sample`` (whose python outputs are ``base_outputs``)."""
    shapes = output_shapes(base_outputs)
    slots = sample.slots()
    if shapes is None or len(slots) < 2:
        return []
    variants = []
    for key, slot in slots:
        if slot.values.ndim == 0:
            continue
        compiled = _demonstrated(sample, key, shapes)
        name = slot_name(op, sample, key)
        for what, values in _shrunk(slot.values):
            candidate = sample.with_slots(f"{sample.label}, broadcast {name}{list(values.shape)} "
                                          f"({what})", {key: slot.with_values(values)},
                                          kind=BROADCAST, compiled=compiled)
            if output_shapes(trial(op, candidate)) == shapes:
                variants.append(candidate)
    if not full:
        # the cheap mode keeps one per input that broadcasts, compiled-backend ones first
        kept, seen = [], set()
        for v in sorted(variants, key=lambda v: not v.compiled):
            head = v.label.split(" broadcast ", 1)[1].split("[", 1)[0]
            if head not in seen:
                seen.add(head)
                kept.append(v)
        variants = kept[:2]
    return variants
