"""Adagrad: per-element learning rates from the running sum of squared gradients."""
import numpy as np

from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad (Duchi et al., 2011), as Paddle's update rule.

    moment += grad^2;  param -= lr * grad / (sqrt(moment) + epsilon).

    A row-sparse gradient updates only its rows: an absent row's gradient is zero, which
    leaves its moment and its value unchanged, exactly as the dense update would.

    Args:
        learning_rate: float or LRScheduler (required, as in Paddle).
        epsilon: added to the denominator (1e-6).
        parameters: the parameters or parameter groups.
        weight_decay: float L2 coefficient or a regularizer, added to the gradient.
        grad_clip: a ClipGrad* instance.
        initial_accumulator_value: the moment's starting value (0.0).

    Example:
        >>> opt = opsdk.optimizer.Adagrad(learning_rate=0.1, parameters=model.parameters())
        >>> loss.backward(); opt.step(); opt.clear_grad()
    """

    _accumulator_names = ("moment",)

    def __init__(self, learning_rate, epsilon=1e-6, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = float(epsilon)
        self._initial = float(initial_accumulator_value)

    def _init_state(self, p):
        return {"moment": np.full_like(p.array, self._initial)}

    def _update(self, p, g, lr, state, group):
        d = p.array
        t = d.dtype.type
        m = state["moment"]
        m += g * g
        d -= g * t(lr) / (np.sqrt(m) + t(self._hyper(group, "epsilon")))

    def _update_sparse(self, p, rows, values, lr, state, group):
        d = p.array
        t = d.dtype.type
        m = state["moment"]
        mr = m[rows] + values * values
        m[rows] = mr
        d[rows] -= values * t(lr) / (np.sqrt(mr) + t(self._hyper(group, "epsilon")))
