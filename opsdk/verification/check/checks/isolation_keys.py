"""A cache keyed on part of the call's identity: the isolation check's calls of the op's first
sample followed by a call that differs from it in one part only.

Ops memoise work across calls (a plan, a table, a normalising constant, a compiled kernel)
under a key; a key that forgets something the cached contents depend on hands the first
call's contents to a later call that differs in that part only: the attribute (``eps``, a
flag), the values of an input (an index, a weight table) or the dtype. For each such
neighbour N of the first sample A, the op's results on N after a call on A must equal its
results on N from fresh op state (bit for bit on deterministic backends); for the dtype, in
both orders. Only where the interleaving's calls left state behind (a module-level dict
filled, a functools cache, an attribute set on the Function class): without it there is no
cache to go stale, and these calls cost nothing.
"""
from dataclasses import replace

import numpy as np

from ..backends import dtype_availability
from ..samples import ATTRIBUTE, TensorSlot, argument_names, slot_name
from .isolation_calls import differences

# the dtype a neighbour in another dtype takes, by the sample's own
OTHER_DTYPE = {"float64": "float32", "float32": "float64", "float16": "float32"}


class Neighbour:
    """Sample A changed in one part: ``sample``; what a cache key forgets when N after A differs
    (``forgets``); how reports tell the calls of A and N apart (``on_a``, ``on_n``: "with
    eps=1e-05", "in float32") and what the two share (``same``); ``both_orders``: A after N
    is compared too."""

    def __init__(self, sample, forgets, on_a, on_n, same, both_orders=False):
        self.sample = sample
        self.forgets = forgets
        self.on_a = on_a
        self.on_n = on_n
        self.same = same
        self.both_orders = both_orders


def _attribute_neighbours(ctx):
    """A with one attribute at another value, its tensors as they are: one per attribute, at
    the first value its attribute samples take."""
    from ..drawing import draw

    sample = ctx.sample
    names = argument_names(ctx.op, len(sample.args))
    found, seen = [], set()
    for variant in draw(ctx.op, ctx.dtype, ctx.seed, ctx.mode).samples:
        if variant.kind != ATTRIBUTE or variant.origin != sample.origin:
            continue
        changed = [(i, names[i], a, b) for i, (a, b) in enumerate(zip(sample.args, variant.args))
                   if not isinstance(a, TensorSlot) and not _same(a, b)]
        changed += [(k, k, v, variant.kwargs.get(k)) for k, v in sample.kwargs.items()
                    if not isinstance(v, TensorSlot) and not _same(v, variant.kwargs.get(k))]
        if len(changed) != 1 or changed[0][1] in seen:
            continue
        key, name, old, new = changed[0]
        seen.add(name)
        label = f"{sample.label}, {name}={new!r}"
        if isinstance(key, int):
            moved = replace(sample, label=label, kwargs=dict(sample.kwargs), args=tuple(
                new if i == key else a for i, a in enumerate(sample.args)))
        else:
            moved = sample.with_slots(label, {}, kwargs={key: new})
        found.append(Neighbour(moved, f"the attribute '{name}'", f"with {name}={old!r}",
                               f"with {name}={new!r}", "shapes, dtype and values"))
    return found


def _same(a, b):
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # an attribute that compares elementwise
        return a is b


def _value_neighbours(ctx, other):
    """A with one element of one input set to another value that input holds (its domain
    kept): for integer inputs (indices, labels: what caches key on), and for inputs whose
    values B, the interleaving partner, does not change as a whole (the op's samples fix
    them, or B reverses them and keeps their sum, counts and norm)."""
    sample = ctx.sample
    partner = dict(other.slots()) if other is not None else {}
    found = []
    for key, slot in sample.slots():
        values = slot.values
        if values.size < 2 or values.dtype.kind not in "fiu":
            continue
        kept = key not in partner or np.array_equal(np.sort(partner[key].values, axis=None),
                                                    np.sort(values, axis=None))
        if values.dtype.kind == "f" and not kept:
            continue
        flat = values.reshape(-1).copy()
        held = flat[np.isfinite(flat)] if values.dtype.kind == "f" else flat
        if not held.size or not np.isfinite(flat[0]):
            continue
        replacement = held.max() if flat[0] != held.max() else held.min()
        if replacement == flat[0]:
            continue  # a constant input: every element the same
        old, flat[0] = flat[0].item(), replacement.item()
        name = slot_name(ctx.op, sample, key)
        moved = sample.with_slots(f"{sample.label}, one value of '{name}' changed",
                                  {key: slot.with_values(flat.reshape(values.shape))})
        where = "[" + ", ".join("0" for _ in values.shape) + "]"
        found.append(Neighbour(moved, f"the values of '{name}'", f"with {name}{where} = {old:.6g}",
                               f"with {name}{where} = {flat[0].item():.6g}",
                               "shapes, dtype, attributes and other values"))
    return found


def _dtype_neighbour(ctx):
    """A's values in another dtype the op runs here (its floats cast), or None."""
    dtype = OTHER_DTYPE.get(ctx.dtype)
    if dtype is None or dtype not in ctx.op.dtypes \
            or not dtype_availability(ctx.op, ctx.backend, dtype)[0]:
        return None
    sample = ctx.sample
    cast = {key: slot.with_values(slot.values.astype(dtype)) for key, slot in sample.slots()
            if slot.values.dtype.kind == "f"}
    if not cast:
        return None
    moved = sample.with_slots(f"{sample.label} in {dtype}", cast)
    return Neighbour(moved, "the dtype", f"in {ctx.dtype}", f"in {dtype}",
                     "shapes, values and attributes", both_orders=True)


def _result(seq, sample):
    call = seq.call(sample)
    seq.backward(call)
    return call.result()


def keyed(ctx, seq, other, kept):
    """Problem lines: N after A differs from N from fresh op state, for each neighbour N of the
    first sample A (another attribute value, other values of one input, the other dtype);
    ``kept``: the op's state that calls of A changed (the interleaving's), named in reports."""
    state = ctx.state
    state.restore()
    alone = _result(seq, ctx.sample)
    neighbours = _attribute_neighbours(ctx) + _value_neighbours(ctx, other)
    dtype = _dtype_neighbour(ctx)
    neighbours += [dtype] if dtype is not None else []
    exact = ctx.backend in ("python", "c")
    problems = []
    for n in neighbours:
        state.restore()
        try:
            want = _result(seq, n.sample)
        except Exception:  # the op refuses this neighbour: nothing to compare
            continue
        orders = [(ctx.sample, n.sample, want, n.on_a, n.on_n)]
        if n.both_orders:
            orders.append((n.sample, ctx.sample, alone, n.on_n, n.on_a))
        for first, then, expected, on_first, on_then in orders:
            state.restore()
            try:
                _result(seq, first)
                got = _result(seq, then)
            except Exception as error:
                text = str(error).strip().splitlines()[0] if str(error).strip() else ""
                found = [f"it raised {type(error).__name__}: {text}"]
            else:
                found = [f"{what}: {message}"
                         for what, message in differences(expected, got, exact, ctx)]
            if found:
                problems.append(_report(n, on_first, on_then, found, kept))
                break
    state.restore()
    return problems


def _report(n, on_first, on_then, found, kept):
    return (f"a cache keyed on part of the call forgets {n.forgets}: the call {on_then} made "
            f"after a call {on_first} (same {n.same}) differs from the same call from fresh "
            "op state: " + "; ".join(found[:2])
            + (f" (and {len(found) - 2} more)" if len(found) > 2 else "")
            + f"; state its calls changed: {', '.join(kept[:3])} (its cached contents were "
              f"used again: key the cache on {n.forgets} too)")
