"""Compare what opsdk.io and paddle.io hand out: the same nesting, types, shapes, dtypes and
values."""
import numbers

import numpy as np

import opsdk
from helpers.frameworks import import_paddle


def describe(obj):
    """A framework-free picture of a batch: Tensors as ("T", shape, dtype, values)."""
    if hasattr(obj, "numpy") and hasattr(obj, "stop_gradient"):
        return ("T", list(obj.shape), str(obj.dtype).split(".")[-1], obj.numpy().tolist())
    if isinstance(obj, np.ndarray):
        return ("A", obj.shape, str(obj.dtype), obj.tolist())
    if isinstance(obj, dict):
        return {k: describe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [describe(v) for v in obj])
    if isinstance(obj, numbers.Number) and not isinstance(obj, bool):
        return (type(obj).__name__, obj)
    return obj


def same_as_paddle(fn):
    """fn(P) under opsdk and under Paddle describe alike; returns opsdk's picture."""
    paddle = import_paddle()
    want, got = describe(fn(paddle)), describe(fn(opsdk))
    assert got == want
    return got
