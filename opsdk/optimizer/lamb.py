"""Lamb: Adam moments with a layer-wise trust ratio (You et al., 2019), in Paddle's form."""
import math

import numpy as np

from .adam import _scalar
from .optimizer import Optimizer


class Lamb(Optimizer):
    """Lamb, as Paddle's update rule.

    m, v: Adam's moments; r = m_hat / (sqrt(v_hat) + epsilon) + lamb_weight_decay * param;
    param -= lr * (||param|| / ||r||) * r, the trust ratio taken as 1 when a norm is zero,
    or when the parameter has no weight decay (excluded, or a zero coefficient) and
    always_adapt is False.

    A row-sparse gradient counts as zero outside its rows (every row's moments decay and the
    decay term moves every row), as the dense update with a zero gradient.

    Args:
        learning_rate: float or LRScheduler (0.001).
        lamb_weight_decay: the decoupled decay coefficient inside r (0.01).
        beta1, beta2, epsilon: the moments' decays and the denominator's epsilon
            (0.9, 0.999, 1e-6).
        parameters, grad_clip: as every optimizer.
        exclude_from_weight_decay_fn: callable(param) -> True to skip its decay.
        always_adapt: use the trust ratio for parameters without decay too.

    Example:
        >>> opt = opsdk.optimizer.Lamb(learning_rate=0.002, parameters=model.parameters())
    """

    _accumulator_names = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-6, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, multi_precision=False, always_adapt=False,
                 name=None):
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._lamb_weight_decay = float(lamb_weight_decay)
        self._beta1 = _scalar(beta1, "beta1")
        self._beta2 = _scalar(beta2, "beta2")
        self._epsilon = _scalar(epsilon, "epsilon")
        self._exclude = exclude_from_weight_decay_fn
        self._always_adapt = bool(always_adapt)

    def _init_state(self, p):
        return {"moment1": np.zeros_like(p.array), "moment2": np.zeros_like(p.array),
                "beta1_pow_acc": None, "beta2_pow_acc": None}

    def _decay(self, p, group):
        if self._exclude is not None and self._exclude(p):
            return 0.0
        return self._hyper(group, "lamb_weight_decay")

    def _update(self, p, g, lr, state, group):
        b1 = self._hyper(group, "beta1")
        b2 = self._hyper(group, "beta2")
        if state["beta1_pow_acc"] is None:
            state["beta1_pow_acc"], state["beta2_pow_acc"] = b1, b2
        d = p.array
        t = d.dtype.type
        m, v = state["moment1"], state["moment2"]
        m *= t(b1)
        m += g * t(1.0 - b1)
        v *= t(b2)
        v += g * g * t(1.0 - b2)
        m_hat = m / t(1.0 - state["beta1_pow_acc"])
        v_hat = v / t(1.0 - state["beta2_pow_acc"])
        wd = self._decay(p, group)
        r = m_hat / (np.sqrt(v_hat) + t(self._hyper(group, "epsilon"))) + t(wd) * d
        ratio = 1.0
        if wd > 0 or self._always_adapt:
            p_norm = math.sqrt(float(np.sum(np.square(d, dtype=np.float64))))
            r_norm = math.sqrt(float(np.sum(np.square(r, dtype=np.float64))))
            if p_norm > 0 and r_norm > 0:
                ratio = p_norm / r_norm
        d -= r * t(lr * ratio)
        state["beta1_pow_acc"] *= b1
        state["beta2_pow_acc"] *= b2

    _update_sparse = Optimizer._update_sparse_densely
