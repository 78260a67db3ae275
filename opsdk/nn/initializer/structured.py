"""Initializers of structured weights: Orthogonal (a random orthogonal matrix), Dirac (the
identity of a convolution) and Bilinear (the bilinear-upsampling kernel of a transposed
convolution); Dirac and Bilinear are computed in float32 and cast, as Paddle does."""
import numpy as np

from ...errors import AssertedArgumentError, OpArgumentError
from ...functional.creation import get_rng
from .common import Initializer


def _assert(ok, op, message):
    if not ok:
        raise AssertedArgumentError(f"{op}: {message}")


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``: a parameter [rows, *rest] viewed as
    rows x prod(rest) has orthonormal rows (rows <= cols) or columns. Drawn as the Q of the QR
    of a Gaussian matrix, its columns' signs fixed by R's diagonal."""

    def __init__(self, gain=1.0, name=None):
        _assert(gain is not None, "Orthogonal", "gain: expected: a number; got: None")
        self._gain = gain

    def _values(self, shape, dtype):
        _assert(len(shape) >= 2, "Orthogonal",
                f"expected: a parameter of 2 or more dimensions; got: {list(shape)}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        gauss = get_rng().standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(gauss)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (q.reshape(shape) * self._gain).astype(dtype)


class Dirac(Initializer):
    """The identity of a 3-D, 4-D or 5-D convolution weight [out, in, *k]: in each of the
    ``groups`` blocks of out // groups output channels, output channel j takes input channel j
    at the kernel's centre (k // 2 on each axis); everything else is 0."""

    def __init__(self, groups=1, name=None):
        _assert(isinstance(groups, int) and groups > 0, "Dirac",
                f"groups: expected: a positive int; got: {groups!r}")
        self._groups = groups

    def _values(self, shape, dtype):
        _assert(len(shape) in (3, 4, 5), "Dirac",
                f"expected: a parameter of 3, 4 or 5 dimensions; got: {list(shape)}")
        _assert(shape[0] % self._groups == 0, "Dirac",
                f"expected: the first dimension {shape[0]} divisible by groups="
                f"{self._groups}")
        out = np.zeros(shape, dtype=np.float32)
        per_group = shape[0] // self._groups
        centre = tuple(k // 2 for k in shape[2:])
        for g in range(self._groups):
            for j in range(min(per_group, shape[1])):
                out[(g * per_group + j, j) + centre] = 1.0
        return out.astype(dtype)


class Bilinear(Initializer):
    """The kernel of bilinear upsampling for a transposed-convolution weight [C, M, K, K]:
    element i (in row-major order) is (1 - |x/f - c|) * (1 - |y/f - c|) with f = ceil(K/2),
    c = (2f - 1 - f % 2) / (2f), x = i % K and y = (i / K) % K, the latter with true division
    as Paddle computes it. (Paddle 3.3.1 leaves a float64 parameter float32 after it; opsdk
    keeps the parameter's dtype.)"""

    def __init__(self):
        pass

    def _values(self, shape, dtype):
        if len(shape) != 4:
            raise OpArgumentError(f"Bilinear: expected: a 4-D parameter; got: {list(shape)}")
        if shape[2] != shape[3]:
            raise OpArgumentError(f"Bilinear: expected: a square kernel (shape[2] == "
                                  f"shape[3]); got: {list(shape)}")
        if np.prod(shape) > 1024 * 1024:
            raise OpArgumentError(f"Bilinear: expected: at most 1024 * 1024 elements; got: "
                                  f"{int(np.prod(shape))}")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(int(np.prod(shape)), dtype=np.float64)
        x, y = i % size, (i / size) % size
        weight = ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype(np.float32)
        return weight.reshape(shape).astype(dtype)
