"""Momentum: velocity = mu * velocity + grad; param -= lr * velocity (or Nesterov)."""
import numpy as np

from .optimizer import Optimizer


class Momentum(Optimizer):
    """SGD with momentum, as Paddle's update rule.

    velocity = momentum * velocity + grad;
    param -= lr * velocity, or with use_nesterov: param -= lr * (grad + momentum * velocity).

    A row-sparse gradient counts as zero outside its rows, as Paddle's sparse momentum: every
    row's velocity decays and moves its parameter; the gradient itself is never densified.

    Args:
        learning_rate: float or LRScheduler (0.001).
        momentum: the velocity's decay (0.9).
        use_nesterov: Nesterov's lookahead form.
        weight_decay: float L2 coefficient or a regularizer.
        grad_clip: a ClipGrad* instance.
        rescale_grad: multiply gradients by this first.

    Example:
        >>> opt = opsdk.optimizer.Momentum(learning_rate=0.1, momentum=0.9,
        ...                                parameters=model.parameters())
    """

    _accumulator_names = ("velocity",)

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False,
                 weight_decay=None, grad_clip=None, multi_precision=False, rescale_grad=1.0,
                 use_multi_tensor=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(rescale_grad)

    def _init_state(self, p):
        return {"velocity": np.zeros_like(p.array)}

    def _update(self, p, g, lr, state, group):
        mu = self._hyper(group, "momentum")
        d = p.array
        t = d.dtype.type
        if self._rescale_grad != 1.0:
            g = g * t(self._rescale_grad)
        v = state["velocity"]
        v *= t(mu)
        v += g
        if self._use_nesterov:
            d -= (g + v * t(mu)) * t(lr)
        else:
            d -= v * t(lr)

    def _update_sparse(self, p, rows, values, lr, state, group):
        mu = self._hyper(group, "momentum")
        d = p.array
        t = d.dtype.type
        if self._rescale_grad != 1.0:
            values = values * t(self._rescale_grad)
        v = state["velocity"]
        v *= t(mu)
        v[rows] += values
        if self._use_nesterov:
            d -= v * t(lr * mu)
            d[rows] -= values * t(lr)
        else:
            d -= v * t(lr)
