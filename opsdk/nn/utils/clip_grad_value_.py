"""clip_grad_value_: clamp every element of ``param.grad`` in place."""
import numpy as np

from .clip_grad_norm_ import grad_arrays


def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient element into [-clip_value, clip_value], in place.

    Example:
        >>> loss.backward()
        >>> opsdk.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
    """
    for p, arr, _ in grad_arrays(parameters):
        np.clip(arr, -clip_value, clip_value, out=arr)
        p.grad._version += 1
