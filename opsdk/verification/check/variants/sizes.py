"""Size samples for compiled backends: a dimension of the op's sample resized to what exposes a bug.

Loop tails (unrolled by 4 or 8, vectorised), block offsets and parallel chunks only show at
sizes the author's sample never has. Each size is there for what it exposes, not to be large:
1 (a dimension of one element), 7 (shorter than any unrolled or vector step: only the tail
runs), 65 (a block of 64 and a tail of one: every power-of-two step up to 64 leaves one), 257
(past a block of 256 threads: a second block), 4099 (past a tile of 4096 elements, a tail of
3), and one above every size-like constant of the kernels' sources and adapters (a parallel
or blocked path above a threshold) and the op's own ``sizes=``. The row axis (the first) gets
7 and 65 and the thresholds. An op's ``max_size=`` or ``cost=`` caps them (cost.py).

A dimension size of the sample is renamed everywhere it appears (every tensor, and ints such
as ``normalized_shape``), preferably with every other dimension set to 1 so the loop length is
exactly the target. Float values are spread evenly over the range of the sample's own (no two
equal: ties are the ties check's), integer ones drawn from its own. A size whose inputs alone
would not fit the memory budget is not derived.
"""
import numbers
import time
from dataclasses import replace

import numpy as np

from ..cost import TRIAL_SECONDS, capped_note, size_limit, slow_note
from ..samples import SIZE

DEFAULT_SIZES = (1, 7, 65, 257, 4099)
# the second dimension renamed (the rows, usually): a row loop's tail and offset
ROW_SIZES = (7, 65)
FAST_SIZES = (7, 65, 4099)
# a square sample's size made different on one axis only (a rows/columns mix-up)
DISTINCT_SIZES = (7, 65)
# the most elements all tensors of a size sample may hold together
ELEMENT_BUDGET = 1 << 22
# a size sample's inputs may take this share of the memory budget (the op's work needs more)
INPUT_SHARE = 16


def _classes(sample):
    """Dimension sizes to rename, most telling first: the last then the first axis of the first
    float tensor, then the other sizes found (at most four; the first two the op accepts are
    renamed)."""
    floats = [s for _, s in sample.slots() if s.values.dtype.kind == "f" and s.values.ndim]
    if not floats:
        return []
    first = floats[0].values.shape
    order = [first[-1], first[0]] + [d for _, s in sample.slots() for d in s.values.shape]
    seen = []
    for d in order:
        if d > 1 and d not in seen:
            seen.append(d)
    return seen[:4]


def _map_int(value, mapping):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return mapping.get(int(value), value)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        return type(value)(mapping.get(int(v), v) for v in value)
    return value


def _spread_like(flat, shape, phase):
    """Values of ``shape`` spread over the range of ``flat`` without repeating one (pattern.py):
    a size sample has no ties, so a selection that breaks them otherwise on one backend is the
    ties check's finding, not a loop tail's."""
    from .pattern import spread

    low, high = float(flat.min()), float(flat.max())
    if low == high:
        return np.full(shape, low)
    return spread(shape, low, high, phase)


def fits(sample, shapes):
    """Whether tensors of these shapes (``{key: shape}``) stay within the element budget and
    their share of the memory budget (checked before allocating anything)."""
    from ..memory import budget

    slots = dict(sample.slots())
    elements = sum(int(np.prod(shape)) for shape in shapes.values())
    size = sum(int(np.prod(shape)) * slots[key].values.dtype.itemsize
               for key, shape in shapes.items())
    return elements <= ELEMENT_BUDGET and size * INPUT_SHARE <= budget()


def _offsets_into(values, mapping):
    """CSR-style offsets (an integer vector from 0, non-decreasing, ending at a dimension's size
    that ``mapping`` renames) scaled to the new size, or None: segments keep their shares of
    the renamed dimension, so the op still accepts the sample."""
    if values.dtype.kind not in "iu" or values.ndim != 1 or values.size < 2:
        return None
    end = int(values[-1])
    if values[0] != 0 or end not in mapping or np.any(np.diff(values) < 0):
        return None
    new = mapping[end]
    return np.round(values.astype(np.float64) * new / end).astype(values.dtype)


def _resized(sample, mapping, rng, label, shape_of=None, ints=True):
    """The sample with dimension sizes renamed by ``mapping`` (or shapes from ``shape_of(shape)``),
    values drawn from its own; None beyond the element or memory budget (checked before
    allocating)."""
    shape_of = shape_of or (lambda shape: tuple(mapping.get(d, d) for d in shape))
    shapes = {key: shape_of(slot.values.shape) for key, slot in sample.slots()}
    if not fits(sample, shapes):
        return None
    changed = {}
    for n, (key, slot) in enumerate(sample.slots()):
        shape, flat = shapes[key], slot.values.reshape(-1)
        if slot.values.dtype.kind == "f" and flat.size and np.isfinite(flat).all():
            values = _spread_like(flat, shape, n)
        elif _offsets_into(slot.values, mapping) is not None:
            values = _offsets_into(slot.values, mapping)
        else:
            values = rng.choice(flat, size=shape) if flat.size else \
                np.zeros(shape, slot.values.dtype)
        changed[key] = slot.with_values(np.asarray(values, dtype=slot.values.dtype))
    if not ints:
        mapping = {}
    args = tuple(changed[i] if i in changed else _map_int(a, mapping)
                 for i, a in enumerate(sample.args))
    kwargs = {k: changed[k] if k in changed else
              (_map_int(v, mapping) if isinstance(v, (list, tuple)) else v)
              for k, v in sample.kwargs.items()}
    return replace(sample, label=label, args=args, kwargs=kwargs, kind=SIZE)


def size_variants(op, sample, full, accepts, extra=(), notes=None, rows=True, tails_only=False,
                  backends_of=None):
    """Samples at the derived sizes (each accepted by the op's python forward): the last axis of
    the first float tensor at every size, and (``rows``) its first axis at ROW_SIZES and the
    thresholds (``tails_only``: ROW_SIZES and the thresholds for the last axis too). Sizes the
    op's declared bound excludes, or left out because the forward got slow, are said in
    ``notes``. A size in ``backends_of`` (``{size: backends}``) is run on those backends only."""
    notes = [] if notes is None else notes
    backends_of = backends_of or {}
    limit, why = size_limit(op)
    base = ROW_SIZES if tails_only else DEFAULT_SIZES if full else FAST_SIZES
    wanted = [sorted(set(base) | set(extra)), sorted(set(ROW_SIZES) | set(extra))]
    capped = sorted({s for sizes in wanted for s in sizes if s > limit})
    if capped:
        notes.append(capped_note("sizes", capped, why))
    classes = _classes(sample)
    variants, renamed = [], 0
    for n, c in enumerate(classes):
        if renamed == (2 if rows else 1):
            break  # the dimensions renamed are enough; the others were tried in case one fails
        before = len(variants)
        rest = {d: 1 for _, s in sample.slots() for d in s.values.shape if d > 1 and d != c}
        for target in [s for s in wanted[min(renamed, 1)] if s <= limit]:
            seed = np.random.SeedSequence([*np.atleast_1d(sample.seed).tolist(), n, target])
            start = time.perf_counter()
            for mapping in ({**rest, c: target}, {c: target}):
                rng = np.random.default_rng(seed)
                label = f"{sample.label}, size {target} (dimension {c} -> {target})"
                candidate = _resized(sample, mapping, rng, label)
                if candidate is not None and accepts(candidate):
                    variants.append(replace(candidate, backends=backends_of.get(target)))
                    break
            took = time.perf_counter() - start
            if took > TRIAL_SECONDS:
                notes.append(slow_note("sizes", target, took))
                break
        renamed += len(variants) > before
    return variants + distinct_variants(sample, full, accepts)


def _repeated_size(sample):
    """A dimension size that appears twice in one float tensor's shape (a square sample), or None."""
    for _, slot in sample.slots():
        shape = slot.values.shape
        if slot.values.dtype.kind == "f":
            for d in shape:
                if d > 1 and shape.count(d) > 1:
                    return d
    return None


def distinct_variants(sample, full, accepts):
    """Samples in which a size that a square tensor repeats differs between its axes.

    A kernel that mixes up rows and columns is right on a square sample, and renaming the size
    everywhere keeps it square; here only the last axes (and ints equal to the size, such as
    ``normalized_shape``) or only the first axes of the tensors holding it are renamed.
    """
    d = _repeated_size(sample)
    if d is None:
        return []
    variants = []
    for target in DISTINCT_SIZES if full else DISTINCT_SIZES[:1]:
        for where in ("last", "first"):
            def shape_of(shape, where=where):
                shape = list(shape)
                axis = -1 if where == "last" else 0
                if shape and shape[axis] == d and (where == "last" or len(shape) > 1):
                    shape[axis] = target
                return tuple(shape)
            seed = np.random.SeedSequence([*np.atleast_1d(sample.seed).tolist(), d, target,
                                           where == "last"])
            label = (f"{sample.label}, distinct dimensions ({where} axes of size {d} -> {target})")
            candidate = _resized(sample, {d: target}, np.random.default_rng(seed), label,
                                 shape_of, ints=where == "last")
            if candidate is not None and accepts(candidate):
                variants.append(candidate)
    return variants
