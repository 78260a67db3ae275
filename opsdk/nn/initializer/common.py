"""Parameter initializers (``opsdk.nn.initializer``), drawing from the generator opsdk.seed sets.

Fans follow Paddle: a 2-D weight is [in, out] (fan_in = shape[0], fan_out = shape[1]); a conv
weight [out, in, *k] has fan_in = in * prod(k) and fan_out = out * prod(k).
"""
import abc
import math

import numpy as np

from ...device import array_module
from ...errors import OpArgumentError
from ...functional.creation import get_rng
from ...functional.views import take_result
from ...tensor import _wrap


def compute_fans(shape):
    """(fan_in, fan_out) of a parameter shape, as Paddle computes them."""
    shape = list(shape)
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity (Xavier/Kaiming scale factors).

    Args:
        nonlinearity: 'linear', 'conv1d'..'conv3d', 'sigmoid', 'tanh', 'relu', 'leaky_relu',
            'selu'.
        param: the negative slope of leaky_relu (0.01 when None).

    Returns:
        A float.

    Example:
        >>> opsdk.nn.initializer.calculate_gain("tanh")
        1.6666666666666667
    """
    gains = {"linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0,
             "conv1d_transpose": 1.0, "conv2d_transpose": 1.0, "conv3d_transpose": 1.0,
             "sigmoid": 1.0, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in gains:
        raise OpArgumentError(f"calculate_gain: unknown nonlinearity; expected: one of "
                              f"{sorted(gains) + ['leaky_relu']}; got: {nonlinearity!r}")
    return gains[nonlinearity]


class Initializer(abc.ABC):
    """Base class: ``init(param)`` fills the parameter's values in place and returns it."""

    def __call__(self, param, block=None):
        data = param.array
        values = self._values(tuple(data.shape), data.dtype)
        if type(data) is not np.ndarray:
            values = array_module(data).asarray(values)
        if values.shape != data.shape:
            # only Assign's values can have another shape: the parameter takes it, as in Paddle
            # (Assign([2, 2]) on Linear(2, 2)'s weight makes a [2] weight)
            return take_result(param, _wrap(values), "Assign", graph=False)
        data[...] = values
        param._version += 1
        return param

    @abc.abstractmethod
    def _values(self, shape, dtype):
        """Each subclass defines this."""

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class Constant(Initializer):
    """Every element set to ``value`` (0.0 by default)."""

    def __init__(self, value=0.0, force_cpu=False, name=None):
        self.value = value

    def _values(self, shape, dtype):
        return np.full(shape, self.value, dtype=dtype)


class Assign(Initializer):
    """Values copied from an array, list or Tensor. As in Paddle, the parameter takes the
    value's shape when it has another one (no broadcasting, no error)."""

    def __init__(self, value, name=None):
        self.value = value

    def _values(self, shape, dtype):
        v = np.asarray(self.value.numpy() if hasattr(self.value, "numpy") else self.value)
        return v.astype(dtype)


class Normal(Initializer):
    """Samples from N(mean, std**2)."""

    def __init__(self, mean=0.0, std=1.0, name=None):
        if isinstance(mean, complex):
            # Paddle takes a complex mean only as the same value for both parts
            if mean.real != mean.imag:
                raise OpArgumentError(f"Normal: argument 'mean': a complex mean must have equal "
                                      f"real and imaginary parts; got: {mean}")
            mean = mean.real
        self.mean = float(mean)
        self.std = float(std)

    def _values(self, shape, dtype):
        return (get_rng().standard_normal(shape) * self.std + self.mean).astype(dtype)


class TruncatedNormal(Initializer):
    """Samples from N(mean, std**2) redrawn until they fall in [a, b]: a and b are the values'
    cutoffs, as Paddle's (not multiples of std)."""

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        self.mean, self.std, self.a, self.b = float(mean), float(std), float(a), float(b)

    def _values(self, shape, dtype):
        lo, hi = (self.a - self.mean) / self.std, (self.b - self.mean) / self.std
        kept = 0.5 * (math.erf(hi / math.sqrt(2)) - math.erf(lo / math.sqrt(2)))
        if not kept > 1e-6:  # redrawing would never end (or a > b)
            raise OpArgumentError(f"TruncatedNormal: [a, b] = [{self.a}, {self.b}] holds "
                                  f"{kept:.2g} of N({self.mean}, {self.std}**2); expected: an "
                                  f"interval with a < b that the distribution reaches")
        rng = get_rng()
        z = rng.standard_normal(shape)
        bad = (z < lo) | (z > hi)
        while bad.any():
            z[bad] = rng.standard_normal(int(bad.sum()))
            bad = (z < lo) | (z > hi)
        return (z * self.std + self.mean).astype(dtype)


class Uniform(Initializer):
    """Samples from U(low, high)."""

    def __init__(self, low=-1.0, high=1.0, name=None):
        if low > high:
            raise OpArgumentError(f"Uniform: expected: low <= high; got: low={low}, high={high}")
        self.low = float(low)
        self.high = float(high)

    def _values(self, shape, dtype):
        return get_rng().uniform(self.low, self.high, shape).astype(dtype)


class _Fans(Initializer):
    """Shared by Xavier/Kaiming: fans from the shape unless given."""

    fan_in = None
    fan_out = None

    def _fans(self, shape):
        fi, fo = compute_fans(shape)
        return (fi if self.fan_in is None else self.fan_in,
                fo if self.fan_out is None else self.fan_out)


class _Xavier(_Fans):
    """Shared by the Xavier pair: gain * sqrt(numerator / (fan_in + fan_out))."""

    numerator = None

    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, float(gain)

    def _scale(self, shape):
        fi, fo = self._fans(shape)
        return self.gain * math.sqrt(self.numerator / max(fi + fo, 1))


class XavierUniform(_Xavier):
    """U(-limit, limit), limit = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""

    numerator = 6.0

    def _values(self, shape, dtype):
        limit = self._scale(shape)
        return get_rng().uniform(-limit, limit, shape).astype(dtype)


class XavierNormal(_Xavier):
    """N(0, std**2), std = gain * sqrt(2 / (fan_in + fan_out))."""

    numerator = 2.0

    def _values(self, shape, dtype):
        return (get_rng().standard_normal(shape) * self._scale(shape)).astype(dtype)


class _Kaiming(_Fans):
    """Shared by the Kaiming pair: the fan is fan_in (given or computed) or, with
    mode='fan_out', the computed fan_out (Paddle refuses fan_in with mode='fan_out')."""

    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in",
                 name=None):
        if mode not in ("fan_in", "fan_out"):
            raise OpArgumentError(f"{type(self).__name__}: argument 'mode' must be 'fan_in' or "
                                  f"'fan_out'; got: {mode!r}")
        if mode == "fan_out" and fan_in is not None:
            raise OpArgumentError(f"{type(self).__name__}: mode='fan_out' uses the parameter's "
                                  f"fan_out; expected: fan_in=None; got: fan_in={fan_in!r}")
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity
        self.fan_out, self.mode = None, mode

    def _fan(self, shape):
        fi, fo = self._fans(shape)
        return fi if self.mode == "fan_in" else fo


class KaimingUniform(_Kaiming):
    """U(-limit, limit), limit = gain * sqrt(3 / fan), gain from the nonlinearity (He, 2015)."""

    def _values(self, shape, dtype):
        fi = self._fan(shape)
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        limit = gain * math.sqrt(3.0 / max(fi, 1))
        return get_rng().uniform(-limit, limit, shape).astype(dtype)


class KaimingNormal(_Kaiming):
    """N(0, std**2), std = gain / sqrt(fan), gain from the nonlinearity (He, 2015)."""

    def _values(self, shape, dtype):
        fi = self._fan(shape)
        std = calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(max(fi, 1))
        return (get_rng().standard_normal(shape) * std).astype(dtype)


# Paddle's older spellings
MSRAInitializer = KaimingNormal
XavierInitializer = XavierUniform
ConstantInitializer = Constant
NormalInitializer = Normal
UniformInitializer = Uniform

__all__ = ["Initializer", "Constant", "Assign", "Normal", "TruncatedNormal", "Uniform",
           "XavierUniform", "XavierNormal", "KaimingUniform", "KaimingNormal", "calculate_gain",
           "compute_fans"]
