"""F.sequence_mask: the [..., maxlen] mask of positions j < length, as Paddle's."""
import numpy as np

from ...errors import OpArgumentError
from ...functional.casting import cast
from ...functional.creation import arange
from ...functional.shape import unsqueeze
from ...tensor import Tensor
from ._graph import tensor_arg


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """y[i..., j] = j < x[i...], for j in [0, maxlen).

    Args:
        x: a Tensor of lengths, shape [d_1, ..., d_n].
        maxlen: the mask's last size (an int or a one-element Tensor); max(x) when None.
        dtype: the output's dtype (int64).

    Returns:
        A Tensor [d_1, ..., d_n, maxlen] of dtype, stop_gradient True.

    Example:
        >>> F.sequence_mask(opsdk.to_tensor([3, 1]), maxlen=4).numpy()
        array([[1, 1, 1, 0],
               [1, 0, 0, 0]])
    """
    x = tensor_arg(x, "sequence_mask")
    if isinstance(maxlen, Tensor):
        maxlen = maxlen.item()
    if maxlen is None or maxlen == -1:
        maxlen = int(np.max(x.array)) if x.array.size else 0
    if isinstance(maxlen, bool) or not isinstance(maxlen, (int, np.integer)) or maxlen < 0:
        raise OpArgumentError(f"sequence_mask: maxlen must be a non-negative int or None; "
                              f"got: {maxlen!r}")
    positions = arange(int(maxlen), dtype=x.dtype)
    out = cast(positions < unsqueeze(x.detach(), -1), dtype)
    out.stop_gradient = True
    return out
