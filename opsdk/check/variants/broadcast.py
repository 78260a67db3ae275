"""Broadcast samples: each broadcasting input with a size-1 dimension in each position, 0-d and all-ones.

Only inputs that broadcast get them: every input of an n-ary elementwise op (all float inputs
have the output's shape), or an input whose own shape differs from an output's yet broadcasts
to it (a bias [4] against [3, 4]: it also gets [3, 1], [1, 1] and 0-d). Elsewhere a size-1
input is a shape the op never promised (the weights of a matmul), and its backward rightly
assumes the shapes it was written for. A variant counts when the op's python forward accepts it
and the outputs keep their shapes; values come from the input's own, so they stay in its domain.
"""
import numpy as np

from ..samples import BROADCAST, slot_name
from .trial import output_shapes, trial


def _target(slot_shape, shapes):
    """The output shape ``slot_shape`` broadcasts to (None if it broadcasts to none)."""
    for shape in shapes:
        try:
            if np.broadcast_shapes(slot_shape, shape) == shape:
                return shape
        except ValueError:
            continue
    return None


def broadcasting_inputs(sample, shapes):
    """``(key, full shape)`` for every float input that broadcasts (module docstring)."""
    floats = [(k, s) for k, s in sample.slots() if s.values.dtype.kind == "f"]
    if not shapes:
        return []
    if len(floats) >= 2 and all(tuple(s.shape) == shapes[0] for _, s in floats):
        return [(k, shapes[0]) for k, _ in floats]
    found = []
    for key, slot in floats:
        full = _target(tuple(slot.shape), shapes)
        if full is not None and tuple(slot.shape) != full:
            found.append((key, full))
    return found


def _candidates(full):
    """``(description, shape)``: a size-1 axis in each position, 0-d, all ones."""
    out = [(f"axis {axis} size 1", full[:axis] + (1,) + full[axis + 1:])
           for axis, size in enumerate(full) if size > 1]
    if int(np.prod(full)) > 1:
        out.append(("0-d", ()))
        if len(full) >= 2:
            out.append(("all ones", (1,) * len(full)))
    return out


def _values(slot, shape, rng):
    """Values of ``shape``: a slice of the slot's own when it fits, else drawn from them."""
    values = slot.values
    if len(shape) == values.ndim and all(s in (1, v) for s, v in zip(shape, values.shape)):
        return values[tuple(slice(0, s) for s in shape)].copy()
    flat = values.reshape(-1)
    return np.asarray(rng.choice(flat, size=shape), dtype=values.dtype)


def broadcast_variants(op, sample, base_outputs, full):
    """Broadcast samples derived from ``sample`` (whose python outputs are ``base_outputs``)."""
    shapes = output_shapes(base_outputs)
    if shapes is None:
        return []
    slots = dict(sample.slots())
    variants = []
    for n, (key, target) in enumerate(broadcasting_inputs(sample, shapes)):
        slot = slots[key]
        name = slot_name(op, sample, key)
        rng = np.random.default_rng([*np.atleast_1d(sample.seed).tolist(), 7, n])
        kept = []
        for what, shape in _candidates(target):
            if shape == tuple(slot.shape):
                continue
            values = _values(slot, shape, rng)
            candidate = sample.with_slots(f"{sample.label}, broadcast {name}{list(shape)} ({what})",
                                          {key: slot.with_values(values)}, kind=BROADCAST)
            if output_shapes(trial(op, candidate)) == shapes:
                kept.append(candidate)
        # the cheap mode keeps one per input that broadcasts
        variants += kept if full else kept[:1]
    return variants if full else variants[:2]
