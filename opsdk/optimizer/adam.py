"""Adam: moment estimates with bias correction (Kingma & Ba, 2015), in Paddle's form."""
import math

import numpy as np

from ..errors import OpArgumentError, StateError
from ..nn.sparse_grad import SparseRowGrad
from .optimizer import Optimizer


def _scalar(v, name):
    if hasattr(v, "item"):
        v = v.item()
    if not isinstance(v, (int, float)):
        raise OpArgumentError(f"Adam: {name} must be a float; got: {type(v).__name__}")
    return float(v)


class Adam(Optimizer):
    """Adam, as Paddle computes it.

    m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2;
    param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon sqrt(1 - beta2^t))
    (the usual bias-corrected form m_hat / (sqrt(v_hat) + epsilon)).

    Row-sparse gradients: with lazy_mode=True only the rows present are updated (their
    moments and parameters; the step count advances for all); with lazy_mode=False (default)
    the rows absent count as zero gradient: every row's moments decay and its parameter moves,
    as a dense zero gradient would do. The gradient is never densified either way. As Paddle's
    sparse kernel, a sparse step's bias correction uses the powers beta^(t+1), one step ahead
    of the dense update's beta^t; and coupled weight decay with a sparse gradient is refused,
    as Paddle refuses it.

    Args:
        learning_rate: float or LRScheduler (0.001).
        beta1, beta2: moment decays (0.9, 0.999).
        epsilon: 1e-8.
        weight_decay: float L2 coefficient (added to the gradient) or a regularizer.
        grad_clip: a ClipGrad* instance.
        lazy_mode: update only the rows of a sparse gradient.
        amsgrad: use the running maximum of v (Reddi et al., 2018).

    Example:
        >>> opt = opsdk.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
        >>> loss.backward(); opt.step(); opt.clear_grad()
    """

    _accumulator_names = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, amsgrad=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1 = _scalar(beta1, "beta1")
        self._beta2 = _scalar(beta2, "beta2")
        self._epsilon = _scalar(epsilon, "epsilon")
        for n, v in (("beta1", self._beta1), ("beta2", self._beta2)):
            if not 0 <= v < 1:
                raise OpArgumentError(f"{type(self).__name__}: {n} must lie in [0, 1); got: {v}")
        self._lazy_mode = bool(lazy_mode)
        self._amsgrad = bool(amsgrad)

    def _init_state(self, p):
        # the powers start at beta (set at the first step, from the parameter's group) and
        # advance after each step: what Paddle's beta*_pow_acc accumulators hold
        state = {"moment1": np.zeros_like(p.array), "moment2": np.zeros_like(p.array),
                 "beta1_pow_acc": None, "beta2_pow_acc": None}
        if self._amsgrad:
            state["moment2_max"] = np.zeros_like(p.array)
        return state

    def _advance(self, state, group, ahead=False):
        """Count one step; returns (b1, b2, eps, lr scale, epsilon scale) for this step.

        The powers used are beta^t (ahead: beta^(t+1), Paddle's sparse kernel).
        """
        b1 = self._hyper(group, "beta1")
        b2 = self._hyper(group, "beta2")
        if state["beta1_pow_acc"] is None:
            state["beta1_pow_acc"], state["beta2_pow_acc"] = b1, b2
        p1, p2 = state["beta1_pow_acc"], state["beta2_pow_acc"]
        state["beta1_pow_acc"], state["beta2_pow_acc"] = p1 * b1, p2 * b2
        if ahead:
            p1, p2 = p1 * b1, p2 * b2
        c2 = math.sqrt(1.0 - p2)
        return b1, b2, self._hyper(group, "epsilon"), c2 / (1.0 - p1), c2

    def _regularized(self, p, g, group):
        if type(g) is SparseRowGrad and self._coupled_decay(p, group) is not None:
            raise StateError(f"{type(self).__name__}: coupled weight_decay with a sparse "
                             f"gradient (Embedding(sparse=True)) is not supported, as in "
                             f"Paddle; expected: weight_decay=None for these parameters, or "
                             f"AdamW, or a dense Embedding")
        return super()._regularized(p, g, group)

    def _update(self, p, g, lr, state, group):
        b1, b2, eps, scale, c2 = self._advance(state, group)
        d = p.array
        t = d.dtype.type
        m, v = state["moment1"], state["moment2"]
        m *= t(b1)
        m += g * t(1.0 - b1)
        sq = g * g
        sq *= t(1.0 - b2)
        v *= t(b2)
        v += sq
        if self._amsgrad:
            np.maximum(state["moment2_max"], v, out=state["moment2_max"])
            v = state["moment2_max"]
        denom = np.sqrt(v, out=sq)
        denom += t(eps * c2)
        np.divide(m, denom, out=denom)
        denom *= t(lr * scale)
        d -= denom

    def _update_sparse(self, p, rows, values, lr, state, group):
        b1, b2, eps, scale, c2 = self._advance(state, group, ahead=True)
        d = p.array
        t = d.dtype.type
        m, v = state["moment1"], state["moment2"]
        if self._lazy_mode:
            mr = m[rows] * t(b1) + values * t(1.0 - b1)
            vr = v[rows] * t(b2) + values * values * t(1.0 - b2)
            m[rows] = mr
            v[rows] = vr
            if self._amsgrad:
                vmax = state["moment2_max"]
                vr = np.maximum(vmax[rows], vr)
                vmax[rows] = vr
            d[rows] -= mr / (np.sqrt(vr) + t(eps * c2)) * t(lr * scale)
            return
        m *= t(b1)
        m[rows] += values * t(1.0 - b1)
        v *= t(b2)
        v[rows] += values * values * t(1.0 - b2)
        if self._amsgrad:
            np.maximum(state["moment2_max"], v, out=state["moment2_max"])
            v = state["moment2_max"]
        d -= m / (np.sqrt(v) + t(eps * c2)) * t(lr * scale)
