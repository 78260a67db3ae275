"""Differentiable copies between the host and a GPU.

A few ops keep index bookkeeping that is written for NumPy (put_along_axis's reductions group
the written positions with bincount and ufunc.at): on GPU operands they run on host copies and
hand their result back to the operands' device. The copies are recorded, so gradients take the
same road back, to any order.
"""
from ..autograd.record import record
from ..device import move_to, place_of
from . import maths


def moved(t, place):
    """t (a Tensor or an array) on ``place``; a Tensor's copy passes gradients back."""
    if not maths.is_tensor(t):
        return move_to(t, place)
    source = place_of(t._data)
    if source == place:
        return t
    return record("memcpy", move_to(t._data, place), (t,), _MOVED, (source,))


_MOVED = (lambda g, source: moved(g, source),)
