"""Fake (meta) outputs of an exported op: shapes and dtypes from the op itself, run on zeros of
the inputs' shapes, never on their data. Under dynamic shapes an output that has some input's
shape (or is a scalar) keeps that input's symbolic sizes; any other output shape specializes
the inputs' sizes (torch guards on them and recompiles for new ones)."""
import numpy as np
import torch

from ..errors import InteropError

_NUMPY = {torch.float16: np.float16, torch.float32: np.float32, torch.float64: np.float64,
          torch.int8: np.int8, torch.int16: np.int16, torch.int32: np.int32,
          torch.int64: np.int64, torch.uint8: np.uint8, torch.bool: np.bool_}


def numpy_dtype(dtype, op):
    """The NumPy dtype of a torch dtype, or an InteropError naming the op."""
    if dtype not in _NUMPY:
        raise InteropError(f"{op}: dtype {dtype} has no NumPy equivalent, so opsdk's kernels "
                           f"cannot take it; expected: one of {', '.join(map(str, _NUMPY))}")
    return np.dtype(_NUMPY[dtype])


def _hint(size):
    if isinstance(size, int):
        return size
    from torch.fx.experimental.symbolic_shapes import guarding_hint_or_throw

    return guarding_hint_or_throw(size)


def _symbolic(shape, tensors, hints):
    """The output shape in the inputs' (possibly symbolic) sizes."""
    if not shape:
        return ()
    for t, h in zip(tensors, hints):
        if t is not None and h == shape:
            return tuple(t.shape)
    for t in tensors:  # specialize: the output's sizes are then plain ints torch guards on
        if t is not None:
            for s in t.shape:
                int(s)
    return shape


def fake_outputs(exported, tensors, attrs):
    """Empty tensors with the outputs' shapes, dtypes and the first input's device."""
    hints = [None if t is None else tuple(_hint(s) for s in t.shape) for t in tensors]
    metas = [None if t is None else (h, numpy_dtype(t.dtype, exported.qualname))
             for t, h in zip(tensors, hints)]
    device = next(t.device for t in tensors if t is not None)
    outputs = []
    for shape, dtype in exported.output_meta(metas, attrs):
        size = _symbolic(shape, tensors, hints)
        outputs.append(torch.empty(size, dtype=torch.from_numpy(np.empty(0, dtype)).dtype,
                                   device=device))
    if not outputs:
        raise InteropError(f"{exported.qualname}: the op returned no outputs")
    return outputs
