"""Runs of the python reference, remembered across the checks of a run.

The forward, backward_agreement, ties, sizes and accumulation checks of a compiled backend
each compare it with python on the same sample, in the dtype under test and in float64, with
the same seeded incoming gradients; and python's own checks ran those very calls already.
Every case starts from the op's fresh state, so python's results on a sample are the same
each time: they are computed once and remembered (read-only arrays, up to BYTES in all, the
oldest forgotten first). Only calls on the samples a run drew are remembered, by identity.
"""
import hashlib
from collections import OrderedDict

import numpy as np

BYTES = 64 << 20
_runs = OrderedDict()  # key -> (sample, backward, Run, bytes)
_held = [0]


def key(op, sample, dtype, grad_outputs):
    """The key of python's run of ``op`` on ``sample`` (cast to ``dtype``) with these incoming
    gradients (None: the sample's seeded ones)."""
    digest = None
    if grad_outputs is not None:
        h = hashlib.blake2b(digest_size=16)
        for g in grad_outputs:
            g = np.ascontiguousarray(g)
            h.update(f"{g.dtype.str}{g.shape}".encode())
            h.update(g.tobytes())
        digest = h.hexdigest()
    return id(op), op.qualname, id(sample), dtype, digest


def lookup(key, sample, backward):
    """The remembered Run (a backward one serves a forward-only request too), or None."""
    entry = _runs.get(key)
    if entry is None or entry[0] is not sample or (backward and not entry[1]):
        return None
    _runs.move_to_end(key)
    return entry[2]


def remember(key, sample, backward, run):
    """Keep ``run`` (its arrays made read-only) unless it is too large to keep."""
    arrays = [a for part in (run.outputs, run.grads, run.grad_outputs) for a in part
              if a is not None]
    size = sum(a.nbytes for a in arrays)
    if size > BYTES // 8:
        return
    for a in arrays:
        a.flags.writeable = False
    old = _runs.pop(key, None)
    if old is not None:
        _held[0] -= old[3]
    _runs[key] = (sample, backward, run, size)
    _held[0] += size
    while _held[0] > BYTES and _runs:
        _, (_, _, _, dropped) = _runs.popitem(last=False)
        _held[0] -= dropped


def clear():
    """Forget every remembered run."""
    _runs.clear()
    _held[0] = 0
