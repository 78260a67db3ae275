"""Custom ops with deliberately wrong backward rules, each with the (output, input) pairs a
gradient check must blame, and correct ops that must pass. Inputs stay away from kinks."""
import numpy as np

import opsdk
from opsdk.autograd import PyLayer


def away_from_zero(rng, shape, low=0.2, high=1.5):
    """Values with |v| in [low, high] and random signs (no kink within reach of the step)."""
    return rng.uniform(low, high, shape) * rng.choice([-1.0, 1.0], shape)


def counting(func):
    """``(func counting its calls, the list of calls)``."""
    calls = []

    def counted(*args):
        calls.append(1)
        return func(*args)
    return counted, calls


def tensors(rng, dtype, *shapes):
    return tuple(opsdk.to_tensor(away_from_zero(rng, s), dtype=dtype, stop_gradient=False)
                 for s in shapes)


# -- wrong first-order rules -------------------------------------------------------------------
class SignFlip(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return -2 * x * dy


class Factor(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 4 * x * dy


class IgnoresGrad(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 2 * x


class OneElementOff(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = opsdk.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        w = np.ones(y.shape)
        w.flat[1] = 1.01
        return dy * y * opsdk.to_tensor(w, dtype=y.dtype)


class OneSideOfZero(PyLayer):
    """Leaky ReLU (slope 0.1) whose backward uses slope 0.2 on the negative side."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return opsdk.where(x > 0, x, 0.1 * x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return opsdk.where(x > 0, dy, 0.2 * dy)


class MissingTranspose(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return opsdk.matmul(a, b)

    @staticmethod
    def backward(ctx, dy):
        a, b = ctx.saved_tensor()
        return opsdk.matmul(dy, b), opsdk.matmul(a.T, dy)


class MeanOverBroadcast(PyLayer):
    """x [m, n] + bias [n], with the bias gradient averaged instead of summed."""

    @staticmethod
    def forward(ctx, x, bias):
        return x + bias

    @staticmethod
    def backward(ctx, dy):
        return dy, opsdk.mean(dy, axis=0)


class SwappedInputs(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        return dz * x, dz * y


class WrongSecondOutput(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return opsdk.sin(x), opsdk.cos(x)

    @staticmethod
    def backward(ctx, ds, dc):
        (x,) = ctx.saved_tensor()
        return ds * opsdk.cos(x) + dc * opsdk.sin(x)


class NonDeterministic(PyLayer):
    """Right on average, but each backward run adds fresh noise far below the tolerance."""

    _rng = np.random.default_rng(0)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        noise = NonDeterministic._rng.standard_normal(x.shape) * 1e-9
        return 2 * x * dy + opsdk.to_tensor(noise, dtype=x.dtype)


# -- right first order, cut second order -------------------------------------------------------
class RawCube(PyLayer):
    """Backward in NumPy: first order right, a second order through it impossible."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return opsdk.to_tensor(3 * x.numpy() ** 2 * dy.numpy())


class DetachedCube(PyLayer):
    """Backward that detaches x: connected to the incoming grad, silently cut from x."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        x = x.detach()
        return 3 * x * x * dy


# -- correct ops -------------------------------------------------------------------------------
class Swish(PyLayer):
    @staticmethod
    def forward(ctx, x, beta=1.0):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return x * opsdk.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        s = opsdk.sigmoid(ctx.beta * x)
        return dy * (s + ctx.beta * x * s * (1 - s))


class SinCos(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return opsdk.sin(x), opsdk.cos(x)

    @staticmethod
    def backward(ctx, ds, dc):
        (x,) = ctx.saved_tensor()
        return ds * opsdk.cos(x) - dc * opsdk.sin(x)


def softmax(x):
    e = opsdk.exp(x - opsdk.max(x, axis=-1, keepdim=True))
    return e / opsdk.sum(e, axis=-1, keepdim=True)


# name: (func, input shapes, pairs (output, input) a check must blame)
WRONG_FIRST_ORDER = {
    "sign flip": (SignFlip.apply, [(3, 4)], {(0, 0)}),
    "constant factor": (Factor.apply, [(3, 4)], {(0, 0)}),
    "ignores grad_output": (IgnoresGrad.apply, [(3, 4)], {(0, 0)}),
    "one element off by 1%": (OneElementOff.apply, [(2, 3)], {(0, 0)}),
    "wrong on one side of zero": (OneSideOfZero.apply, [(3, 4)], {(0, 0)}),
    "missing transpose": (MissingTranspose.apply, [(3, 3), (3, 3)], {(0, 0)}),
    "mean instead of sum": (MeanOverBroadcast.apply, [(3, 4), (4,)], {(0, 1)}),
    "swapped inputs": (SwappedInputs.apply, [(3, 4), (3, 4)], {(0, 0), (0, 1)}),
    "wrong second output": (WrongSecondOutput.apply, [(3, 4)], {(1, 0)}),
}

CORRECT = {
    "tanh times x, summed": (lambda x: (opsdk.tanh(x) * x).sum(), [(10,)]),
    "matmul": (opsdk.matmul, [(4, 5), (5, 3)]),
    "softmax": (softmax, [(4, 6)]),
    "swish": (lambda x: Swish.apply(x, 1.5), [(3, 4)]),
    "sin and cos": (SinCos.apply, [(3, 4)]),
    "broadcast divide": (lambda x, y: x / (y * y + 1), [(3, 4), (4,)]),
    "log of a square": (lambda x: opsdk.log(x * x + 0.5), [(5,)]),
}
