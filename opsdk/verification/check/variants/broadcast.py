"""Broadcast samples: each broadcasting input with a size-1 dimension in each position, 0-d and all-ones.

Only inputs that broadcast get them: every input of an n-ary elementwise op (all float inputs
have the output's shape), and an input whose own shape differs from an output's yet broadcasts
to it: one of the output's rank ([1, 4] against [3, 4]) gets a size-1 axis in each position of
the output's shape ([3, 1], [1, 1], 0-d), a parameter of lower rank (a bias [4]) only its own
axes shrunk ([1], 0-d: a bias [3, 1] is no bias any more). Elsewhere a size-1 input is a shape
the op never promised (the weights of a matmul), and its backward rightly assumes the shapes
it was written for. A variant counts when the op's python forward accepts it and the outputs
keep their shapes; its values are a slice of the input's own, so they stay in its domain.

An input of the first float input's rank and leading (batch) size is also given one item along
it (a template broadcast over a batch), where the op accepts that with outputs of the same shapes.

Compiled backends run the elementwise ops' variants only: a C kernel handed a weight of one
element where it reads n would read past it, which the op's own sample never promised.
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
    """``(key, compiled, full)`` for every float input that broadcasts (module docstring):
    ``full`` is the output shape it broadcasts to when it has that rank (else None); compiled
    backends run the variants of an n-ary elementwise op's inputs only."""
    floats = [(k, s) for k, s in sample.slots() if s.values.dtype.kind == "f"]
    if not shapes:
        return []
    if len(floats) >= 2 and all(tuple(s.shape) == shapes[0] for _, s in floats):
        return [(k, True, None) for k, _ in floats]
    found = []
    for key, slot in floats:
        full = _target(tuple(slot.shape), shapes)
        if full is not None and tuple(slot.shape) != full:
            found.append((key, False, full if len(full) == len(slot.shape) else None))
    return found


def _in_output_shape(values, full, rng):
    """``(description, values)``: a size-1 axis in each position of ``full``, 0-d, all ones,
    values drawn from the input's own (a shape it does not have yet needs new ones)."""
    out = []
    flat = values.reshape(-1)
    for axis, size in enumerate(full):
        if size > 1:
            shape = full[:axis] + (1,) + full[axis + 1:]
            if shape != values.shape:
                out.append((f"axis {axis} size 1",
                            np.asarray(rng.choice(flat, size=shape), dtype=values.dtype)))
    return out + [(w, v) for w, v in _shrunk(values) if not w.startswith("axis")]


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


def broadcast_variants(op, sample, base_outputs, full):
    """Broadcast samples derived from ``sample`` (whose python outputs are ``base_outputs``)."""
    shapes = output_shapes(base_outputs)
    if shapes is None:
        return []
    slots = dict(sample.slots())
    variants = []
    for n, (key, compiled, full_shape) in enumerate(broadcasting_inputs(sample, shapes)):
        slot = slots[key]
        name = slot_name(op, sample, key)
        kept = []
        rng = np.random.default_rng([*np.atleast_1d(sample.seed).tolist(), 7, n])
        shapes_of = (_shrunk(slot.values) if full_shape is None
                     else _in_output_shape(slot.values, full_shape, rng))
        for what, values in shapes_of:
            candidate = sample.with_slots(f"{sample.label}, broadcast {name}{list(values.shape)} "
                                          f"({what})", {key: slot.with_values(values)},
                                          kind=BROADCAST, compiled=compiled)
            if output_shapes(trial(op, candidate)) == shapes:
                kept.append(candidate)
        # the cheap mode keeps one per input that broadcasts, along its last axis (a backward
        # that only ever sums axis 0 is right for the first)
        variants += kept if full else [v for v in kept if "axis" in v.label][-1:] or kept[:1]
    if full:
        variants += _batch_variants(op, sample, shapes, {k for k, _, _ in
                                                         broadcasting_inputs(sample, shapes)})
    return variants if full else variants[:2]


def _batch_variants(op, sample, shapes, done):
    """An input of the first float input's rank and batch (its leading axis), given one item
    along it ([1, m, d] beside x[b, n, d]: one template for every item of a batch), where the op
    accepts it and its outputs keep their shapes: its gradient must then be summed over the
    batch. python only (a compiled kernel may rightly assume equal batches)."""
    slots = [(k, s) for k, s in sample.slots() if s.values.dtype.kind == "f"]
    if not slots or slots[0][1].values.ndim < 2 or slots[0][1].values.shape[0] < 2:
        return []
    batch = slots[0][1].values.shape
    variants = []
    for key, slot in slots[1:]:
        values = slot.values
        # the batch is the first float input's leading axis: an input of its rank and batch
        # (a weight matrix whose rows happen to match a bias is no batch)
        if key in done or values.ndim != len(batch) or values.shape[0] != batch[0]:
            continue
        name = slot_name(op, sample, key)
        shrunk = np.take(values, [0], axis=0)
        candidate = sample.with_slots(f"{sample.label}, broadcast {name}{list(shrunk.shape)} "
                                      f"(one item along the batch axis)",
                                      {key: slot.with_values(shrunk)}, kind=BROADCAST,
                                      compiled=False)
        if output_shapes(trial(op, candidate)) == shapes:
            variants.append(candidate)
    return variants
