"""What ``opsdk check`` verifies each op on: small inputs away from kinks, every option exercised.

Each function is a ``samples(rng, dtype)`` callable returning Samples of NumPy arrays (float ones
become differentiable Tensors, integer ones labels).
"""
import numpy

from opsdk.registry import Sample


def _x(rng, dtype, shape, low=-4.0, high=4.0):
    return rng.uniform(low, high, size=shape).astype(dtype)


def gelu(rng, dtype):
    return [Sample((_x(rng, dtype, (3, 5)),), {"approximate": False}),
            Sample((_x(rng, dtype, (3, 5)),), {"approximate": True})]


def silu(rng, dtype):
    return [Sample((_x(rng, dtype, (3, 5), -6.0, 6.0),), {})]


def softplus(rng, dtype):
    x = _x(rng, dtype, (3, 5), -3.0, 3.0)
    # softplus jumps at beta x = threshold (x = 1.5 below): keep the samples away from it
    x = numpy.where(numpy.abs(x - 1.5) < 0.1, x + 0.3, x).astype(dtype)
    return [Sample((_x(rng, dtype, (3, 5)),), {"beta": 1.0, "threshold": 20.0}),
            Sample((x,), {"beta": 2.0, "threshold": 3.0})]


def mish(rng, dtype):
    return [Sample((_x(rng, dtype, (3, 5), -5.0, 5.0),), {})]


def softmax(rng, dtype):
    return [Sample((_x(rng, dtype, (3, 5)),), {"axis": -1}),
            Sample((_x(rng, dtype, (2, 3, 4)),), {"axis": 1}),
            Sample((_x(rng, dtype, (3, 2)),), {"axis": 0})]


log_softmax = softmax


def layer_norm(rng, dtype):
    return [Sample((_x(rng, dtype, (4, 6)), [6], _x(rng, dtype, (6,), 0.5, 1.5),
                    _x(rng, dtype, (6,), -1.0, 1.0)), {"epsilon": 1e-5}),
            Sample((_x(rng, dtype, (2, 3, 4)), [3, 4], _x(rng, dtype, (3, 4), 0.5, 1.5)), {}),
            Sample((_x(rng, dtype, (3, 5)), 5), {})]


def rms_norm(rng, dtype):
    return [Sample((_x(rng, dtype, (4, 6)), [6], _x(rng, dtype, (6,), 0.5, 1.5)), {"epsilon": 1e-6}),
            Sample((_x(rng, dtype, (2, 3, 4)), [3, 4]), {})]


def cross_entropy(rng, dtype):
    labels = rng.integers(0, 4, size=5)
    ignored = rng.integers(0, 4, size=5)
    ignored[1] = -100
    return [Sample((_x(rng, dtype, (5, 4)), labels), {"reduction": "mean"}),
            Sample((_x(rng, dtype, (5, 4)), ignored), {"reduction": "sum", "ignore_index": -100}),
            Sample((_x(rng, dtype, (5, 4)), ignored), {"reduction": "mean", "ignore_index": -100}),
            Sample((_x(rng, dtype, (2, 3, 4)), rng.integers(0, 3, size=(2, 4))),
                   {"reduction": "none", "axis": 1})]
