"""clip_grad_norm_ / clip_grad_value_: clip ``param.grad`` in place, outside any optimizer."""
import math

import numpy as np

from ...errors import OpArgumentError
from ...tensor import Tensor, _wrap
from ..sparse_grad import SparseRowGrad


def _grad_arrays(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    out = []
    for p in parameters:
        if p.grad is not None:
            d = p.grad._data
            out.append((p, d.values if isinstance(d, SparseRowGrad) else d, d))
    return out


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the gradients in place so their joint norm is at most max_norm.

    Args:
        parameters: a Tensor or an iterable of Tensors with gradients.
        max_norm: the largest norm allowed.
        norm_type: p of the p-norm (float('inf') for the max-norm).
        error_if_nonfinite: raise when the total norm is nan or inf.

    Returns:
        The total norm before clipping, a 0-d float32 Tensor.

    Example:
        >>> loss.backward()
        >>> opsdk.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    """
    items = _grad_arrays(parameters)
    norm_type = float(norm_type)
    if not items:
        return _wrap(np.asarray(0.0, dtype=np.float32))
    # repeated rows of a sparse gradient must be summed before their norm is taken
    for _, _, d in items:
        if isinstance(d, SparseRowGrad):
            coalesced = d.coalesce()
            d.rows, d.values = coalesced.rows, coalesced.values
    items = _grad_arrays([p for p, _, _ in items])
    if math.isinf(norm_type):
        total = max(float(np.abs(a).max()) if a.size else 0.0 for _, a, _ in items)
    else:
        total = sum(float((np.abs(a.astype(np.float64)) ** norm_type).sum())
                    for _, a, _ in items) ** (1.0 / norm_type)
    if error_if_nonfinite and not math.isfinite(total):
        raise OpArgumentError(f"clip_grad_norm_: the total norm of order {norm_type} is "
                              f"{total}; expected: a finite norm (or error_if_nonfinite=False)")
    coef = max_norm / (total + 1e-6)
    if coef < 1:
        for p, arr, _ in items:
            arr *= np.asarray(coef, dtype=arr.dtype)
            p.grad._version += 1
    return _wrap(np.asarray(total, dtype=np.float32))


def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient element into [-clip_value, clip_value], in place."""
    for p, arr, _ in _grad_arrays(parameters):
        np.clip(arr, -clip_value, clip_value, out=arr)
        p.grad._version += 1
