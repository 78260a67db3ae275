"""Adamax: Adam with the infinity norm in place of the second moment (Kingma & Ba, 2015)."""
import numpy as np

from .adam import _scalar
from .optimizer import Optimizer


class Adamax(Optimizer):
    """Adamax, as Paddle's update rule.

    m = beta1 m + (1 - beta1) g;  u = max(beta2 u + epsilon, |g|);
    param -= lr / (1 - beta1^t) * m / u.

    A row-sparse gradient counts as zero outside its rows (every row's moments decay and its
    value moves, as the dense update with a zero gradient); Paddle's CPU kernel raises on a
    sparse gradient instead.

    Args:
        learning_rate: float or LRScheduler (0.001).
        beta1, beta2: decay of the first moment and of the infinity norm (0.9, 0.999).
        epsilon: keeps u away from zero (1e-8).
        parameters, weight_decay, grad_clip: as every optimizer.

    Example:
        >>> opt = opsdk.optimizer.Adamax(learning_rate=0.002, parameters=model.parameters())
    """

    _accumulator_names = ("moment", "inf_norm", "beta1_pow_acc")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1 = _scalar(beta1, "beta1")
        self._beta2 = _scalar(beta2, "beta2")
        self._epsilon = _scalar(epsilon, "epsilon")

    def _init_state(self, p):
        return {"moment": np.zeros_like(p.array), "inf_norm": np.zeros_like(p.array),
                "beta1_pow_acc": None}

    def _update(self, p, g, lr, state, group):
        b1 = self._hyper(group, "beta1")
        b2 = self._hyper(group, "beta2")
        if state["beta1_pow_acc"] is None:
            state["beta1_pow_acc"] = b1
        d = p.array
        t = d.dtype.type
        m, u = state["moment"], state["inf_norm"]
        m *= t(b1)
        m += g * t(1.0 - b1)
        u *= t(b2)
        u += t(self._hyper(group, "epsilon"))
        np.maximum(u, np.abs(g), out=u)
        d -= m / u * t(lr / (1.0 - state["beta1_pow_acc"]))
        state["beta1_pow_acc"] *= b1

    _update_sparse = Optimizer._update_sparse_densely
