"""clip_grad_norm_: scale ``param.grad`` in place so the gradients' joint norm is bounded."""
import math

import numpy as np

from ...errors import OpArgumentError, StateError
from ...tensor import Tensor, _wrap
from ..sparse_grad import SparseRowGrad

# Paddle's clip_grad_norm_ accepts exactly these orders
_ORDERS = (0.0, 1.0, 2.0, math.inf)


def grad_arrays(parameters):
    """(param, gradient values array, stored gradient) for each parameter with a gradient."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    out = []
    for p in parameters:
        if p.grad is not None:
            d = p.grad.array
            out.append((p, d.values if isinstance(d, SparseRowGrad) else d, d))
    return out


def _norm(a, p):
    """The p-norm of an array's elements (p in _ORDERS), in float64."""
    a = np.abs(np.asarray(a, dtype=np.float64)).reshape(-1)
    if p == math.inf:
        return float(a.max()) if a.size else 0.0
    if p == 0.0:
        return float(np.count_nonzero(a))
    return float(np.sum(a ** p) ** (1.0 / p))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the gradients in place so their joint norm is at most max_norm.

    The joint norm is the norm of the per-parameter gradient norms, as Paddle computes it
    (for orders 1, 2 and inf that is the norm of all elements together).

    Args:
        parameters: a Tensor or an iterable of Tensors with gradients.
        max_norm: the largest norm allowed.
        norm_type: 2 (default), 1, 0 (count of nonzeros) or float('inf') (largest element).
        error_if_nonfinite: raise when the total norm is nan or inf.

    Returns:
        The total norm before clipping, a 0-d float32 Tensor.

    Example:
        >>> loss.backward()
        >>> opsdk.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    """
    norm_type = float(norm_type)
    if norm_type not in _ORDERS:
        raise OpArgumentError(f"clip_grad_norm_: norm_type must be one of inf, 0, 1, 2 (as "
                              f"Paddle); got: {norm_type}")
    items = grad_arrays(parameters)
    if not items:
        return _wrap(np.asarray(0.0, dtype=np.float32))
    # repeated rows of a sparse gradient must be summed before their norm is taken
    for _, _, d in items:
        if isinstance(d, SparseRowGrad):
            coalesced = d.coalesce()
            d.rows, d.values = coalesced.rows, coalesced.values
    items = grad_arrays([p for p, _, _ in items])
    total = _norm([_norm(a, norm_type) for _, a, _ in items], norm_type)
    if error_if_nonfinite and not math.isfinite(total):
        raise StateError(f"clip_grad_norm_: the total norm of order {norm_type} is {total}, "
                         f"so the gradients cannot be clipped; expected: a finite norm (or "
                         f"error_if_nonfinite=False)")
    coef = max_norm / (total + 1e-6)
    if coef < 1:
        for p, arr, _ in items:
            arr *= np.asarray(coef, dtype=arr.dtype)
            p.grad._version += 1
    return _wrap(np.asarray(total, dtype=np.float32))
