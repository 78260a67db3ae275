"""gaussian / standard_normal: normally distributed tensors drawn from opsdk's generator."""
import numpy as np

from ..errors import OpArgumentError
from ..tensor import _wrap
from . import creation


def gaussian(shape, mean=0.0, std=1.0, seed=0, dtype=None, name=None):
    """A tensor of normal samples N(mean, std^2), as Paddle's paddle.gaussian.

    Draws from the generator ``opsdk.seed`` sets (a nonzero ``seed`` makes this call
    reproducible on its own, as Paddle's). The result is a constant: stop_gradient=True.

    Args:
        shape: list of ints (or a Tensor holding them).
        mean: the mean (0.0).
        std: the standard deviation (1.0); must not be negative.
        seed: 0 uses the global generator; another int draws from a fresh one seeded with it.
        dtype: a float dtype (the default float dtype when None).

    Returns:
        Tensor of the given shape and dtype.

    Example:
        >>> opsdk.seed(0)
        >>> opsdk.gaussian([2, 3], mean=1.0, std=0.5).shape
        paddle.Size([2, 3])
    """
    dims = creation._shape_list(shape, "gaussian")
    if not float(std) >= 0:
        raise OpArgumentError(f"gaussian: std must not be negative; got: {std}")
    rng = creation.get_rng() if not seed else np.random.default_rng(int(seed))
    arr = rng.normal(float(mean), float(std), dims).astype(
        creation._float_dtype(dtype, "gaussian"))
    return _wrap(arr)


def standard_normal(shape, dtype=None, name=None):
    """gaussian(shape) with mean 0 and std 1 (Paddle's paddle.standard_normal)."""
    return gaussian(shape, 0.0, 1.0, dtype=dtype)
