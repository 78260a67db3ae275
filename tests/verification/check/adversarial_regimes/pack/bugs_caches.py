"""Bugs of a cache keyed on part of the call's identity: the ops of caches.py with a key that
forgets something their cached contents depend on. Each is right on every call from fresh
state, and on a second call that repeats the first; wrong when a call follows one that
differs in the forgotten part only (plan caches keyed without a flag, tables built in the
first call's dtype, counts keyed by an index's shape).

rope_base_cache     the cos/sin tables keyed by (rows, dim, dtype): ``base`` forgotten
cumsum_flag_cache   the triangular plan keyed by the row length: the ``reverse`` flag forgotten
segment_counts_cache 1 / counts keyed by (the index's shape, num_segments): its values forgotten
posenc_dtype_cache  the position table keyed by (rows, dim), built in the first call's dtype
"""
from opsdk import TensorSpec

from .caches import (ROPE, ROWS, cumsum_op, posenc_op, posenc_table, rope_op, segment_op,
                     segment_samples)

_ROPE, _PLANS, _COUNTS, _TABLES = {}, {}, {}, {}
RopeBaseCache = rope_op("RopeBaseCache", lambda a, base: (a.shape, a.dtype.str), _ROPE)
CumsumFlagCache = cumsum_op("CumsumFlagCache", lambda n, reverse: n, _PLANS)
SegmentCountsCache = segment_op("SegmentCountsCache", lambda ids, n: (ids.shape, n), _COUNTS)


def _table(rows, dim, dtype):
    if (rows, dim) not in _TABLES:
        _TABLES[rows, dim] = posenc_table(rows, dim, dtype)
    return _TABLES[rows, dim]


PosencDtypeCache = posenc_op("PosencDtypeCache", _table)


def register(register):
    register(RopeBaseCache, name="rope_base_cache", inputs=ROPE, attrs={"base": 10000.0})
    register(CumsumFlagCache, name="cumsum_flag_cache", inputs=ROWS, attrs={"reverse": False})
    register(SegmentCountsCache, name="segment_counts_cache", samples=segment_samples)
    register(PosencDtypeCache, name="posenc_dtype_cache", inputs=[TensorSpec(shape=(4, 6))])

