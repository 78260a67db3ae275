"""Ops that memoise work across calls in a module-level cache, and hard correct ones among them:
each cache is keyed on everything its contents depend on. The bugs (bugs_caches.py) are the
same ops with a key that forgets part of the call, as real ops do: a rotary table keyed by the
sequence length only (its ``base`` changed), a triangular plan keyed by the row length (its
``reverse`` flag flipped), a segment's counts keyed by the index's shape (its values changed),
a positional table keyed by shape and built in the first call's dtype.

rope_cached      rotary position embedding; cos/sin tables keyed by (rows, dim, base, dtype)
cumsum_cached    cumulative sum as x @ T, T keyed by (length, reverse): float64, cast on use,
                 so the dtype legitimately stays out of the key
segment_cached   mean of x's rows per segment; 1 / counts keyed by the index's bytes too
posenc_cached    x plus a sinusoidal position table, memoised by functools.lru_cache on
                 (rows, dim, dtype)
"""
import functools

import numpy as np

import opsdk
from opsdk import Sample, TensorSpec
from opsdk_adversarial._common import arr, ten


def rope_tables(rows, dim, base, dtype):
    """cos and sin of position * base ** (-2 i / dim), shape (rows, dim // 2)."""
    inv_freq = float(base) ** (-np.arange(dim // 2) * 2.0 / dim)
    angles = np.outer(np.arange(rows), inv_freq)
    return np.cos(angles).astype(dtype), np.sin(angles).astype(dtype)


def rope_op(class_name, key, cache):
    """A Function: x rotated by the rotary tables; ``key(x, base)`` keys the tables in ``cache``."""

    def tables(a, base):
        k = key(a, base)
        if k not in cache:
            cache[k] = rope_tables(a.shape[0], a.shape[1], base, a.dtype)
        return cache[k]

    def forward(ctx, x, base=10000.0):
        a = arr(x)
        cos, sin = tables(a, base)
        ctx.tables = (cos, sin)
        half = a.shape[1] // 2
        x1, x2 = a[:, :half], a[:, half:]
        return ten(np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=1))

    def backward(ctx, dy):
        cos, sin = ctx.tables
        g = arr(dy)
        half = g.shape[1] // 2
        g1, g2 = g[:, :half], g[:, half:]
        return ten(np.concatenate([g1 * cos + g2 * sin, g2 * cos - g1 * sin], axis=1))

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "__doc__": "Rotary position embedding of x's rows."})


def cumsum_op(class_name, key, cache):
    """A Function: the cumulative sum along the last axis (from the end if ``reverse``), as
    x @ T with T triangular; ``key(n, reverse)`` keys T in ``cache``."""

    def plan(n, reverse):
        k = key(n, reverse)
        if k not in cache:
            ones = np.ones((n, n))
            cache[k] = np.tril(ones) if reverse else np.triu(ones)
        return cache[k]

    def forward(ctx, x, reverse=False):
        a = arr(x)
        t = plan(a.shape[-1], reverse).astype(a.dtype)
        ctx.plan = t
        return ten(a @ t)

    def backward(ctx, dy):
        return ten(arr(dy) @ ctx.plan.T)

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "__doc__": "Cumulative sum along the last axis."})


def segment_op(class_name, key, cache):
    """A Function: the mean of x's rows per segment (``segment_ids``, an integer input; empty
    segments give 0); ``key(ids, num_segments)`` keys 1 / counts in ``cache``."""

    def inverse_counts(ids, num_segments):
        k = key(ids, num_segments)
        if k not in cache:
            cache[k] = 1.0 / np.maximum(np.bincount(ids, minlength=num_segments), 1)
        return cache[k]

    def forward(ctx, x, segment_ids, num_segments=3):
        a, ids = arr(x), arr(segment_ids)
        if ids.min() < 0 or ids.max() >= num_segments:
            raise ValueError(f"segment_ids must lie in [0, {num_segments})")
        inv = inverse_counts(ids, num_segments)
        out = np.zeros((num_segments,) + a.shape[1:], a.dtype)
        np.add.at(out, ids, a)
        ctx.state = (ids.copy(), inv)
        return ten((out * inv[:, None]).astype(a.dtype))

    def backward(ctx, dy):
        ids, inv = ctx.state
        g = arr(dy)
        return ten((g * inv[:, None])[ids].astype(g.dtype)), None

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "__doc__": "Mean of x's rows per segment."})


def posenc_table(rows, dim, dtype):
    """The sinusoidal position table: sin and cos of position / 10000 ** (2 i / dim)."""
    angles = np.outer(np.arange(rows), 10000.0 ** (-np.arange(0, dim, 2) / dim))
    table = np.empty((rows, dim))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles[:, :dim // 2])
    return table.astype(dtype)


def posenc_op(class_name, table):
    """A Function: x plus ``table(rows, dim, dtype)``."""

    def forward(ctx, x):
        a = arr(x)
        return ten((a + table(a.shape[0], a.shape[1], a.dtype)).astype(a.dtype))

    def backward(ctx, dy):
        return ten(arr(dy).copy())

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "__doc__": "x plus a sinusoidal position table."})


_ROPE, _PLANS, _COUNTS = {}, {}, {}
RopeCached = rope_op("RopeCached", lambda a, base: (a.shape, float(base), a.dtype.str), _ROPE)
CumsumCached = cumsum_op("CumsumCached", lambda n, reverse: (n, bool(reverse)), _PLANS)
SegmentCached = segment_op("SegmentCached",
                           lambda ids, n: (ids.shape, n, ids.tobytes()), _COUNTS)


@functools.lru_cache(maxsize=16)
def _posenc(rows, dim, dtype):
    return posenc_table(rows, dim, np.dtype(dtype))


PosencCached = posenc_op("PosencCached", lambda rows, dim, dtype: _posenc(rows, dim, dtype.str))

ROPE = [TensorSpec(shape=(5, 6))]
ROWS = [TensorSpec(shape=(3, 5))]


def segment_samples(rng, dtype):
    """Rows of x drawn, the index fixed (three sequences of a batch, as a test writes it)."""
    ids = opsdk.to_tensor(np.array([0, 0, 1, 1, 1, 2], dtype=np.int64))
    return [Sample((rng.uniform(-2, 2, size=(6, 3)).astype(dtype), ids), {"num_segments": 3})]


def register(register):
    register(RopeCached, name="rope_cached", inputs=ROPE, attrs={"base": 10000.0})
    register(CumsumCached, name="cumsum_cached", inputs=ROWS, attrs={"reverse": False})
    register(SegmentCached, name="segment_cached", samples=segment_samples)
    register(PosencCached, name="posenc_cached", inputs=[TensorSpec(shape=(4, 6))])
