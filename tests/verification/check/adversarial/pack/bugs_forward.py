"""Class 10, forward mode: an op's own jvp wrong while its backward is right (kernel-style ops:
raw-array backward and jvp, as an author with a jvp kernel writes them).

jvp_missing_term   x exp(x) whose jvp drops the product rule's x exp(x) term
jvp_default_attr   exp(beta x) whose jvp uses the default beta = 1 instead of ctx.beta
jvp_drops_input    x * w whose jvp ignores w's tangent
jvp_correct        x * w * exp(x), jvp and backward right (written with ops: any order)
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable

from ._common import arr, ten

DEFAULT_BETA = 1.0


class JvpMissingTerm(opsdk.PyLayer):
    """x * exp(x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return ten(arr(x) * np.exp(arr(x)))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(arr(dy) * (1 + arr(x)) * np.exp(arr(x)))

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_for_forward()
        return ten(arr(x_t) * np.exp(arr(x)))  # BUG: d(x e^x) = (1 + x) e^x dx


class JvpDefaultAttr(opsdk.PyLayer):
    """exp(beta * x)."""

    @staticmethod
    def forward(ctx, x, beta=DEFAULT_BETA):
        ctx.beta = float(beta)
        y = ten(np.exp(ctx.beta * arr(x)))
        ctx.save_for_backward(y)
        ctx.save_for_forward(y)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return ten(arr(dy) * ctx.beta * arr(y))

    @staticmethod
    def jvp(ctx, x_t, beta_t=None):
        (y,) = ctx.saved_for_forward()
        return ten(arr(x_t) * DEFAULT_BETA * arr(y))  # BUG: ctx.beta, not the default


class JvpDropsInput(opsdk.PyLayer):
    """x * w."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        ctx.save_for_forward(x, w)
        return ten(arr(x) * arr(w))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        x, w = ctx.saved_tensor()
        return ten(arr(dy) * arr(w)), ten(arr(dy) * arr(x))

    @staticmethod
    def jvp(ctx, x_t, w_t):
        x, w = ctx.saved_for_forward()
        return ten(arr(x_t) * arr(w))  # BUG: + x * w_t forgotten


class JvpCorrect(opsdk.PyLayer):
    """x * w * exp(x), with opsdk ops: differentiable to any order, forward and reverse."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        ctx.save_for_forward(x, w)
        return x * w * opsdk.exp(x)

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensor()
        e = opsdk.exp(x)
        return dy * w * (1 + x) * e, dy * x * e

    @staticmethod
    def jvp(ctx, x_t, w_t):
        x, w = ctx.saved_for_forward()
        e = opsdk.exp(x)
        return x_t * w * (1 + x) * e + w_t * x * e


def register(register):
    spec = [TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))]
    two = spec + [TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))]
    register(JvpMissingTerm, name="jvp_missing_term", inputs=spec)
    register(JvpDefaultAttr, name="jvp_default_attr", inputs=spec, attrs={"beta": DEFAULT_BETA})
    register(JvpDropsInput, name="jvp_drops_input", inputs=two)
    register(JvpCorrect, name="jvp_correct", inputs=two, double_backward=True)
