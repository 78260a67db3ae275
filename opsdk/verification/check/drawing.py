"""Drawing the samples of one op in one dtype: its own, then every kind derived from them."""
from dataclasses import dataclass, field, replace

import numpy as np

from .cost import capped_note, size_limit
from .per_op import once_per_op
from .samples import ATTRIBUTE, LONG, REGIME, SIZE, TIE, from_sample, sample_seed
from .variants.long_rows import LONG_ROW, long_variants
from .variants.regimes import regime_variants
from .variants.thresholds import backend_sizes
from .variants.ties import tie_variants
from .variants import (attribute_variants, beyond_variants, broadcast_variants, layout_variants,
                       probe_variants, size_variants, trial)

_cache = {}


@dataclass
class Drawn:
    """The samples of one op in one dtype, and notes on what could not be derived: ``(kind,
    text)`` pairs, shown by the checks that run on that kind."""

    samples: list
    notes: list = field(default_factory=list)
    # whether the op's first sample has an integer output (an index it picked: ties.py)
    picks: bool = False


def draw_samples(op, dtype, seed=0, mode="full"):
    """The samples the checks of ``op`` in ``dtype`` run on (memoised per op, dtype, seed, mode).

    Args:
        op: the OpInfo.
        dtype: the dtype name, e.g. ``"float32"``.
        seed: the run's seed; samples depend only on it, the op and the dtype.
        mode: ``"full"`` (every derived sample) or ``"fast"`` (a few of each kind).

    Returns:
        list of CaseSample: the op's own (kind ``own``), then ``broadcast``, ``attribute``,
        ``layout``, ``regime``, ``size``, ``tie``, ``long``, ``probe`` and ``beyond`` samples;
        each check runs on the kinds it names.

    Example::

        [s.label for s in draw_samples(op, "float64") if s.kind == "own"]   # ['sample 0']
    """
    return draw(op, dtype, seed, mode).samples


def draw(op, dtype, seed=0, mode="full"):
    """Drawn (samples and notes) for ``op`` in ``dtype``; see ``draw_samples``."""
    return once_per_op(_cache, op, dtype, seed, mode, make=lambda: _draw(op, dtype, seed, mode))


def clear_cache():
    """Forget memoised samples (tests re-register packs under the same names)."""
    _cache.clear()


# kinds whose values, incoming gradients and projections never depend on the run's seed
SEEDLESS = (REGIME, TIE, LONG)


def _draw(op, dtype, seed, mode):
    full = mode == "full"
    seeds = sample_seed(seed, op.qualname, dtype)
    rng = np.random.default_rng(seeds)
    drawn = op.samples(dtype, rng)
    own = [replace(from_sample(s, f"sample {i}", seeds + [i]), origin=i)
           for i, s in enumerate(drawn)]
    if not own:
        return Drawn(own)
    outputs = {id(s): trial(op, s) for s in own}
    accepted = [s for s in own if outputs[id(s)] is not None]
    if accepted:
        lead = replace(accepted[0], lead=True)
        own = [lead if s is accepted[0] else s for s in own]
        outputs[id(lead)] = outputs[id(accepted[0])]
        accepted[0] = lead

    def accepts(candidate):
        return trial(op, candidate) is not None

    derived, notes = [], []
    for s in accepted[:2 if full else 1]:
        derived += broadcast_variants(op, s, outputs[id(s)], full)
    for s in accepted if full else accepted[:1]:
        variants, found = attribute_variants(op, s, full, accepts)
        derived += variants
        notes += [(ATTRIBUTE, n) for n in found if (ATTRIBUTE, n) not in notes]
    # every layout for the first sample, the telling ones (transposed, reversed) for the others
    for i, s in enumerate(accepted if full else accepted[:1]):
        derived += layout_variants(s, full and i == 0)
    derived += regime_variants(op, accepted[0], full, accepts) if accepted else []
    if _compiled(op):
        own_sizes = tuple(getattr(op, "sizes", ()) or ())
        # a threshold's size runs on the backends whose sources hold it (a C kernel's OpenMP
        # threshold, 65536, is no size of its CUDA twin's: 65537 rows there is a warp per row of
        # one element, the simulated check's costliest sample, exposing nothing)
        thresholds = backend_sizes(op) if full else {}
        extra = own_sizes + tuple(thresholds)
        only = {size: backends for size, backends in thresholds.items() if size not in own_sizes}
        size_notes = []
        # two samples cover the kernels of an op's options (gelu's erf and tanh forms); the
        # second one along its rows only
        for i, s in enumerate(accepted[:2] if full else accepted[:1]):
            derived += size_variants(op, s, full and i == 0, accepts, extra, size_notes,
                                     rows=i == 0, tails_only=i > 0, backends_of=only)
        notes += [(SIZE, n) for n in size_notes]
        if accepted:
            limit, why = size_limit(op)
            derived += long_variants(op, accepted[0], dtype, accepts, limit)
            if full and LONG_ROW > limit and dtype != "float64":
                notes.append((LONG, capped_note("a row of", [LONG_ROW], why)))
    # ties: compiled backends against python, and python's gradient against its picks (an
    # op with integer outputs: the index it picked)
    picks = bool(accepted) and any(np.asarray(o).dtype.kind in "iub"
                                   for o in outputs[id(accepted[0])] or ())
    if accepted and (_compiled(op) or picks):
        derived += tie_variants(op, accepted[0], accepts)
    for i, s in enumerate(accepted if full else accepted[:1]):
        derived += probe_variants(op, s, filled=full and i == 0, accepts=accepts)
    # large finite inputs beyond the declared domain, where float64 is finite (probes.py)
    derived += beyond_variants(op, accepted[0], accepts) if accepted else []
    # each derived sample gets its own seed for the grad_outputs checks draw
    fixed = sample_seed(0, op.qualname, dtype) + [1 << 20]
    derived = [replace(s, seed=(fixed if s.kind in SEEDLESS else seeds) + [len(own) + i],
                       lead=False) for i, s in enumerate(derived)]
    return Drawn(own + derived, notes, picks)
def _compiled(op):
    """Whether some kernel of the op has a compiled (c or cuda) implementation (an op without
    kernels, a foreign one, says whether such a backend runs here)."""
    own = getattr(op, "compiled_here", None)
    if own is not None:
        return own()
    return any(b != "python" for k in op.kernels for b in k.backends)
