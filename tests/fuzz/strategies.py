"""Inputs no one designed: shapes from 0-d to size-0 dims, broadcasting pairs, and values that
mix ordinary numbers with the special ones (0, +-inf, nan, ties, kinks).

-0.0 is left out: where its sign matters (1 / -0.0), Paddle's float32 and float64 kernels
disagree with each other, so there is no one answer to match.
"""
import numpy as np
from hypothesis import strategies as st

SPECIAL = (0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan)


def shape(data, min_dims=0, max_dims=3, zero=True, max_side=4):
    """A shape with 0 to max_dims dims; a size-0 dim now and then when ``zero``."""
    nd = data.draw(st.integers(min_dims, max_dims), label="ndim")
    low = 0 if zero else 1
    sides = st.one_of(st.integers(1, max_side), st.just(low)) if zero else st.integers(1, max_side)
    return tuple(data.draw(st.lists(sides, min_size=nd, max_size=nd), label="shape"))


def broadcast_pair(data, max_dims=3, zero=True):
    """Two shapes that broadcast together (some axes 1 on one side, leading axes missing)."""
    full = shape(data, 0, max_dims, zero)
    a, b = [], []
    for s in full:
        pick = data.draw(st.integers(0, 3), label="bcast")
        a.append(1 if pick == 1 else s)
        b.append(1 if pick == 2 else s)
    drop_a = data.draw(st.integers(0, len(a)), label="drop_a")
    drop_b = data.draw(st.integers(0, len(b)), label="drop_b")
    if data.draw(st.booleans(), label="which"):
        a = a[drop_a:]
    else:
        b = b[drop_b:]
    return tuple(a), tuple(b)


def values(data, shp, dtype, low=-3.0, high=3.0, specials=SPECIAL, kinks=(), p_special=0.25,
           integers=False):
    """An array of dtype: uniform numbers in [low, high], some specials and kinks."""
    n = int(np.prod(shp, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        lo, hi = (0, 1) if dt.kind == "b" else (-4 if dt.kind == "i" else 0, 5)
        vals = data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n), label="ints")
        return np.asarray(vals, dtype=dt).reshape(shp)
    seed = data.draw(st.integers(0, 2 ** 32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    arr = rng.uniform(low, high, size=n)
    if integers:  # points where floor/round/remainder jump
        arr = np.round(arr * 2) / 2
    pool = tuple(specials) + tuple(kinks)
    if pool and n:
        mask = rng.random(n) < p_special
        arr[mask] = rng.choice(np.asarray(pool, dtype=np.float64), size=int(mask.sum()))
    if n > 1 and rng.random() < 0.3:  # ties: an element repeats another
        i, j = rng.integers(0, n, size=2)
        arr[i] = arr[j]
    return arr.astype(dt).reshape(shp)


def float_dtype(data, with_half=False):
    choices = ["float32", "float64"] + (["float16"] if with_half else [])
    return data.draw(st.sampled_from(choices), label="dtype")


def axis_for(data, ndim, allow_none=True):
    """An axis valid for ndim (negative ones too), or None."""
    options = list(range(-max(ndim, 1), max(ndim, 1)))
    if allow_none:
        options.append(None)
    return data.draw(st.sampled_from(options), label="axis")


def axes_for(data, ndim):
    """None, one axis or a list of distinct axes."""
    if ndim == 0:
        return data.draw(st.sampled_from([None, 0, -1]), label="axes")
    kind = data.draw(st.integers(0, 2), label="axes_kind")
    if kind == 0:
        return None
    if kind == 1:
        return data.draw(st.integers(-ndim, ndim - 1), label="axis")
    picked = data.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim,
                                unique=True), label="axes")
    return picked
