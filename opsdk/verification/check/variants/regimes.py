"""Regime samples: a piecewise op's every regime on every seed (values not drawn from the seed).

A projection onto the simplex (sparsemax), a top-k mask, a hinge or Huber loss, a nearest
neighbour: which piece of such an op runs depends on where the values fall, and a sample drawn
from the seed may never reach a piece (no row with three active elements) on some seeds. These
samples reach them on every seed: every float input of the op's first sample gets values
spread deterministically (pattern.py) over

- the whole domain (×1), a tenth of it around its centre (×0.1: most of a row close together,
  many elements active), and ten times it (×10: a row dominated by one element) where the op
  declares no domain (a declared domain is where the op is valid, so it is never left);
- rows (the last axis) that are nearly constant (spread 1e-3 of the domain; constant rows are
  exact ties, tie samples: ties.py);
- rows of other lengths: 2, and 17 at ×0.1 (where the op takes the length: the last axis
  is renamed everywhere its size appears, as size samples do);
- a single row: the leading axes of size 1 (all of them, and each alone; a batch of one,
  where a ``squeeze()`` drops an axis the op needs), except an axis whose size a tensor of
  another rank shares (a per-channel parameter).

The domain is the one declared in the op's TensorSpec, else the range of the sample's values
rounded to one digit; declared kinks (``avoid``) are kept clear of. Integer inputs keep their
values. A sample the op refuses is dropped.
"""
import numbers
from dataclasses import replace

import numpy as np

from ..samples import REGIME
from .pattern import clear_of, nice_bounds, spread

LENGTHS = ((2, 1.0), (17, 0.1))
NEAR = 1e-3


def _domain(op, sample, key, values):
    """``(low, high, spec, declared)`` of a float input."""
    specs = getattr(op, "inputs", ()) or ()
    if getattr(op, "sample_fn", None) is None and isinstance(key, int) and key < len(specs) \
            and not specs[key].integer:
        spec = specs[key]
        return float(spec.domain[0]), float(spec.domain[1]), spec, True
    bounds = nice_bounds(values.astype(np.float64))
    if bounds is None:
        return None
    return bounds[0], bounds[1], None, False


def _window(low, high, scale):
    """The interval ``scale`` times the domain's width around its centre."""
    centre, half = (low + high) / 2, (high - low) / 2 * scale
    return centre - half, centre + half


def _values(shape, dtype, domain, scale, rows, phase):
    """Values of ``shape``: spread over the scaled domain, or rows near-constant / constant."""
    low, high, spec, _ = domain
    a, b = _window(low, high, scale)
    if rows is None or len(shape) == 0:
        values = spread(shape, a, b, phase)
    else:
        lead, n = shape[:-1], shape[-1]
        centres = spread(lead + (1,), a + 0.1 * (b - a), b - 0.1 * (b - a), phase)
        width = 0.0 if rows == "constant" else NEAR * (high - low)
        values = centres + width * (spread((1,) * len(lead) + (n,), -0.5, 0.5, phase + 1))
        values = np.broadcast_to(values, shape)
    values = clear_of(values, spec, low, high)
    return np.asarray(values, dtype=dtype)


def _with_values(op, sample, label, scale=1.0, rows=None, shapes=None):
    """The sample with every float input given regime values (in ``shapes`` when renamed)."""
    changed = {}
    for n, (key, slot) in enumerate(sample.slots()):
        values = slot.values
        if values.dtype.kind != "f":
            continue
        domain = _domain(op, sample, key, values)
        if domain is None:
            continue
        if scale > 1 and domain[3]:
            return None  # a declared domain is never left
        shape = shapes.get(key, values.shape) if shapes else values.shape
        changed[key] = slot.with_values(_values(tuple(shape), values.dtype, domain, scale,
                                                rows, n))
    if not changed:
        return None
    return sample.with_slots(f"{sample.label}, regime: {label}", changed, kind=REGIME)


def _renamed(op, sample, length, scale):
    """The sample with its first float input's last axis renamed to ``length`` everywhere
    (tensors, and ints such as ``normalized_shape``), with regime values."""
    from .sizes import _map_int

    floats = [s for _, s in sample.slots() if s.values.dtype.kind == "f" and s.values.ndim]
    if not floats:
        return None
    old = floats[0].values.shape[-1]
    if old == length or old < 2:
        return None
    mapping = {old: length}
    slots = dict(sample.slots())
    shapes = {k: tuple(mapping.get(d, d) for d in s.values.shape) for k, s in slots.items()}

    def renamed(key, value):
        if key in slots:
            slot = slots[key]
            # an index input whose size changes: its values tiled (they stay valid indices)
            return slot if slot.values.dtype.kind == "f" else \
                slot.with_values(np.resize(slot.values, shapes[key]))
        return _map_int(value, mapping) if not isinstance(value, numbers.Integral) \
            or isinstance(key, int) else value

    args = tuple(renamed(i, a) for i, a in enumerate(sample.args))
    kwargs = {k: renamed(k, v) for k, v in sample.kwargs.items()}
    base = replace(sample, args=args, kwargs=kwargs)
    word = "" if scale == 1 else f", ×{scale:g}"
    return _with_values(op, base, f"rows of {length}{word}", scale, shapes=shapes)


def _single_rows(op, sample):
    """The sample with its leading axes (all but the last) of size 1: all of them (one row),
    and for 3-d and up each alone; in every tensor of the first float input's rank, where
    that axis has the same size (a batch of one, where ``squeeze()`` drops an axis the op
    needs). Regime values across the domain (×1), as every regime sample: none from the seed."""
    from .sizes import _resized

    floats = [s for _, s in sample.slots() if s.values.dtype.kind == "f" and s.values.ndim >= 2]
    if not floats:
        return []
    lead = floats[0].values.shape
    # an axis whose size a tensor of another rank also has (a per-channel scale [C] beside
    # x [N, C, L]) is tied to it: shrinking x's alone makes a call the op never gets
    tied = {d for _, s in sample.slots() if s.values.ndim != len(lead) for d in s.values.shape}
    axes = [a for a in range(len(lead) - 1) if lead[a] > 1 and lead[a] not in tied]
    choices = ([tuple(axes)] if axes else []) + ([(a,) for a in axes] if len(axes) > 1 else [])
    out = []
    for chosen in choices:
        def shape_of(shape, chosen=chosen):
            if len(shape) != len(lead):
                return tuple(shape)
            return tuple(1 if a in chosen and shape[a] == lead[a] else d
                         for a, d in enumerate(shape))
        where = "a single row" if len(chosen) == len(axes) else \
            f"an axis of size 1 (axis {chosen[0]})"
        candidate = _resized(sample, {}, np.random.default_rng(0), sample.label,
                             shape_of=shape_of, ints=False)
        if candidate is not None:
            out.append(_with_values(op, candidate, where))
    return [c for c in out if c is not None]


def regime_variants(op, sample, full, accepts):
    """Regime samples of ``sample`` the op accepts (fast mode: ×0.1 only)."""
    candidates = [_with_values(op, sample, "×0.1 of the domain", 0.1)]
    if full:
        candidates += [_with_values(op, sample, "across the domain (×1)", 1.0),
                       _with_values(op, sample, "×10 of the domain", 10.0),
                       _with_values(op, sample, "near-constant rows", 1.0, rows="near")]
        candidates += [_renamed(op, sample, length, scale) for length, scale in LENGTHS]
        candidates += _single_rows(op, sample)
    return [c for c in candidates if c is not None and accepts(c)]
