"""Memory layouts a sample's tensors are built in: the same values, other strides."""
import numpy as np

CONTIGUOUS = "contiguous"
STRIDED = "strided"        # every other element of a buffer twice as big
TRANSPOSED = "transposed"  # the axes reversed in memory (Fortran order)
PERMUTED = "permuted"      # the axes rotated in memory (ndim >= 3)
NEGATIVE = "negative"      # every axis walked backwards (negative strides)

NONCONTIGUOUS = (TRANSPOSED, PERMUTED, STRIDED, NEGATIVE)


def applies(layout, shape):
    """Whether ``layout`` makes an array of ``shape`` non-contiguous (else it is pointless)."""
    big = [s for s in shape if s > 1]
    if layout == TRANSPOSED:
        return len(big) >= 2
    if layout == PERMUTED:
        return len(shape) >= 3 and len(big) >= 2
    return len(big) >= 1


def arrange(values, layout, xp=np):
    """``values`` (any layout) copied into a fresh array of the given layout; same shape and values."""
    if layout == CONTIGUOUS or values.ndim == 0:
        return xp.array(values, order="C")  # ascontiguousarray would make a 0-d array 1-d
    if layout == STRIDED:
        big = xp.empty(tuple(2 * s for s in values.shape), dtype=values.dtype)
        view = big[tuple(slice(None, None, 2) for _ in values.shape)]
        view[...] = values
        return view
    if layout == NEGATIVE:
        flip = tuple(slice(None, None, -1) for _ in values.shape)
        return xp.ascontiguousarray(values[flip])[flip]
    if layout == TRANSPOSED:
        order = tuple(reversed(range(values.ndim)))
    elif layout == PERMUTED:
        order = tuple(range(1, values.ndim)) + (0,)
    else:
        raise ValueError(f"unknown layout {layout!r}; expected: one of {CONTIGUOUS}, "
                         f"{', '.join(NONCONTIGUOUS)}")
    inverse = tuple(int(i) for i in np.argsort(order))
    return xp.ascontiguousarray(values.transpose(order)).transpose(inverse)


def describe_layout(layout):
    """`` (transposed)`` for reports; empty for contiguous."""
    return "" if layout == CONTIGUOUS else f" ({layout})"
