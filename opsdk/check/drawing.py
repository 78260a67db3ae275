"""Drawing the samples of one op in one dtype: its own, then broadcast and non-contiguous ones."""
from dataclasses import replace

import numpy as np

from .. import no_grad
from .backends import REFERENCE, availability, backend_scope
from .samples import from_sample, sample_seed
from .variants import broadcast_variants, noncontiguous_variant

_cache = {}


def draw_samples(op, dtype, seed=0, mode="fast"):
    """The samples every check of ``op`` in ``dtype`` runs on (memoised per op, dtype, seed, mode).

    Args:
        op: the OpInfo.
        dtype: the dtype name, e.g. ``"float32"``.
        seed: the run's seed; samples depend only on it, the op and the dtype.
        mode: ``"fast"`` (one broadcast variant) or ``"full"`` (every variant).

    Returns:
        list of CaseSample.

    Example::

        [s.label for s in draw_samples(op, "float64")]
        # ['sample 0', 'sample 0, broadcast y[1, 4]', 'sample 0, non-contiguous']
    """
    key = (id(op), op.qualname, dtype, seed, mode)
    if key not in _cache:
        _cache[key] = _draw(op, dtype, seed, mode)
    return _cache[key]


def clear_cache():
    """Forget memoised samples (tests re-register packs under the same names)."""
    _cache.clear()


def _draw(op, dtype, seed, mode):
    seeds = sample_seed(seed, op.qualname, dtype)
    rng = np.random.default_rng(seeds)
    drawn = op.samples(dtype, rng)
    samples = [from_sample(s, f"sample {i}", seeds + [i]) for i, s in enumerate(drawn)]
    if not samples:
        return samples
    derived = broadcast_variants(samples[0], op, mode == "full")
    derived = [s for s in derived if _runs(op, s)]
    derived += noncontiguous_variant(samples[0])
    # each derived sample gets its own seed for the grad_outputs checks draw
    derived = [replace(s, seed=seeds + [len(samples) + i]) for i, s in enumerate(derived)]
    return samples + derived


def _runs(op, sample):
    """Whether the op accepts the sample at all (a broadcast sample an op refuses is dropped)."""
    try:
        ok, _ = availability(op, REFERENCE)
        args, kwargs = sample.make(requires=())
        with backend_scope(op, REFERENCE if ok else None), no_grad():
            op(*args, **kwargs)
    except Exception:  # whatever the op raises, it refuses these shapes
        return False
    return True
