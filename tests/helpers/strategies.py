"""Hypothesis strategies for op inputs: shapes with 0-d and size-0 cases, float64 values."""
import numpy as np
from hypothesis import strategies as st


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    """Shapes from 0-d up, sides that include 0 unless min_side says otherwise."""
    return st.lists(st.integers(min_side, max_side), min_size=min_dims, max_size=max_dims).map(
        tuple)


def distinct_values(shape, seed):
    """Distinct values in [-2, 2] (no ties, so sort-like ops have one right gradient)."""
    n = int(np.prod(shape, dtype=np.int64))
    rng = np.random.default_rng(seed)
    return rng.permutation(np.linspace(-2.0, 2.0, n) if n > 1 else np.full(n, 0.7)).reshape(
        shape)


def axis_for(ndim):
    """An axis of an ndim tensor, negative ones included (0-d tensors accept 0 and -1)."""
    n = max(ndim, 1)
    return st.integers(-n, n - 1)
