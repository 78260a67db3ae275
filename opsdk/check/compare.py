"""Comparing arrays the way every check does: same shape, then values within atol + rtol * |expected|."""
from dataclasses import dataclass

import numpy as np


@dataclass
class Comparison:
    """How far ``actual`` is from ``expected``: ``worst`` absolute error, at ``index``."""

    ok: bool
    worst: float
    index: tuple = None
    actual: float = None
    expected: float = None
    message: str = ""


def as_numpy(value):
    """A NumPy float64 array from a Tensor, NumPy or CuPy array."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    elif hasattr(value, "get"):
        value = value.get()
    return np.asarray(value, dtype=np.float64)


def compare(actual, expected, atol, rtol):
    """Compare two arrays (or Tensors).

    Args:
        actual: what the backend under test gave.
        expected: the reference.
        atol, rtol: an element passes when ``|actual - expected| <= atol + rtol * |expected|``
            (NaN only matches NaN).

    Returns:
        Comparison; ``message`` names the worst element when the arrays differ.

    Example::

        compare(np.ones(3), np.ones(3) * 1.1, 1e-5, 1e-3).ok     # False
    """
    a, e = as_numpy(actual), as_numpy(expected)
    if a.shape != e.shape:
        return Comparison(False, float("inf"), message=f"shape differs; expected: {list(e.shape)}; "
                                                       f"got: {list(a.shape)}")
    if a.size == 0:
        return Comparison(True, 0.0)
    both_nan = np.isnan(a) & np.isnan(e)
    diff = np.where(both_nan, 0.0, np.abs(a - e))
    diff = np.where(np.isnan(diff), np.inf, diff)
    bad = diff > atol + rtol * np.abs(np.nan_to_num(e))
    flat = int(np.argmax(diff))
    index = tuple(int(i) for i in np.unravel_index(flat, a.shape))
    worst = float(diff.flat[flat])
    result = Comparison(not bad.any(), worst, index, float(a.flat[flat]), float(e.flat[flat]))
    if bad.any():
        result.message = (f"{int(bad.sum())} of {a.size} elements differ beyond atol={atol:g} "
                          f"rtol={rtol:g}; worst at {list(index)}: expected {result.expected:.8g}, "
                          f"got {result.actual:.8g} (abs error {worst:.3g})")
    return result
