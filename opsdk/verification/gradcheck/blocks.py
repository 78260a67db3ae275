"""Whole-block array passes done a few rows at a time, so big Jacobians stay in cache."""
import numpy as np

CHUNK_ELEMENTS = 1 << 15


def _row_chunks(block):
    step = max(1, CHUNK_ELEMENTS // max(1, block.shape[1]))
    for start in range(0, block.shape[0], step):
        yield slice(start, start + step)


def abs_max(block):
    """Largest finite |value| of the block (0 for an empty or all-non-finite block)."""
    if not block.size:
        return 0.0
    top = max(abs(float(np.nanmax(block))), abs(float(np.nanmin(block))))
    if np.isfinite(top):
        return top
    finite = np.abs(block[np.isfinite(block)])
    return float(finite.max()) if finite.size else 0.0


def all_close(a, n, atol, rtol):
    """|a - n| <= atol + rtol * |n| everywhere (NaN never is)."""
    for rows in _row_chunks(a):
        err = a[rows] - n[rows]
        np.abs(err, out=err)
        allowed = np.abs(n[rows])
        allowed *= rtol
        allowed += atol
        if not np.all(err <= allowed):
            return False
    return True
