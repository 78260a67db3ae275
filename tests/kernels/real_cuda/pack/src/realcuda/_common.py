"""What the ops share: where their CUDA sources live, the variant a test asks for, launch shapes.

A *variant* is the op's kernels built from another CUDA file and other adapter options: the
planted bugs of tests/kernels/real_cuda are variants. ``REALCUDA_VARIANT=/path/variant.json``
(``{"op": "layer_norm", "source": "/path/bug.cu", "options": {...}}``) makes the registered op
use one, so ``opsdk check`` runs a planted bug as users would meet it.
"""
import json
import os

import numpy

CUDA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda")
FLOATS = ("float32", "float64")
WARP = 32


def shipped(filename):
    """The absolute path of a shipped CUDA source."""
    return os.path.join(CUDA_DIR, filename)


def variant(op):
    """(source path or None, adapter options) for ``op``, from REALCUDA_VARIANT if it names it."""
    path = os.environ.get("REALCUDA_VARIANT")
    if not path:
        return None, {}
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    if spec.get("op") != op:
        return None, {}
    return spec.get("source"), dict(spec.get("options") or {})


def suffix(dtype):
    """The kernel-name suffix of a dtype: f16, f32, f64, i32."""
    return {"float16": "f16", "float32": "f32", "float64": "f64", "int32": "i32"}[numpy.dtype(dtype).name]


def blocks(count, per_block):
    """ceil(count / per_block), at least 1."""
    return max(1, (int(count) + per_block - 1) // per_block)


def acc_dtype(dtype):
    """The dtype a kernel accumulates a dtype's values in (float for half, else itself)."""
    return numpy.float32 if numpy.dtype(dtype) == numpy.float16 else numpy.dtype(dtype).type


def as_rows(tensor, dtype=None):
    """A tensor's array as [rows, last axis], cast to ``dtype`` when given (without a copy otherwise)."""
    from opsdk.kernels import array_of

    a = array_of(tensor)
    if dtype is not None:
        a = a.astype(dtype, copy=False)
    return a.reshape(-1, a.shape[-1])


def check_per_feature(op, n, **tensors):
    """Each of ``tensors`` (weight, bias) must have shape [n], the input's last axis."""
    from opsdk.errors import ShapeError

    bad = {name: list(t.shape) for name, t in tensors.items() if tuple(t.shape) != (n,)}
    if bad:
        got = ", ".join(f"{name} {shape}" for name, shape in bad.items())
        raise ShapeError(f"realcuda.{op}: {' and '.join(tensors)} must have shape [{n}] (the last axis of "
                         f"the input); got: {got}")
