"""Rprop: per-element step sizes grown or shrunk by the sign agreement of successive gradients
(Riedmiller & Braun, 1993), in Paddle's form (full-batch training)."""
import numpy as np

from ..errors import OpArgumentError
from .optimizer import Optimizer


class Rprop(Optimizer):
    """Rprop, as Paddle's update rule, per element with its own step size s (starting at
    learning_rate) and the previous gradient g':

    g g' > 0: s = min(s eta+, s_max), param -= sign(g) s;
    g g' < 0: s = max(s eta-, s_min), param unchanged, g stored as 0;
    otherwise: param -= sign(g) s.

    The learning rate is read once, at construction: a scheduler or set_lr() later, and a
    group's learning_rate, change nothing (as in Paddle). Rprop takes no weight_decay (a
    parameter's own regularizer still applies).

    Args:
        learning_rate: the initial step size (0.001), within learning_rate_range.
        learning_rate_range: (s_min, s_max) ((1e-5, 50)).
        etas: (eta-, eta+) with 0 < eta- < 1 < eta+ ((0.5, 1.2)).
        parameters, grad_clip: as every optimizer. multi_precision is accepted and unused.

    Example:
        >>> opt = opsdk.optimizer.Rprop(learning_rate=0.01, parameters=model.parameters())
    """

    _accumulator_names = ("prevs", "learning_rates")

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None,
                 etas=(0.5, 1.2), grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise OpArgumentError("Rprop: learning_rate is not set; expected: a number")
        lo, hi = learning_rate_range
        lr0 = learning_rate() if callable(learning_rate) else learning_rate
        if not 0.0 < lo <= lr0 <= hi:
            raise OpArgumentError(f"Rprop: expected: 0 < learning_rate_range[0] <= learning_rate "
                                  f"<= learning_rate_range[1]; got: {learning_rate_range}, "
                                  f"{lr0}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise OpArgumentError(f"Rprop: expected: 0 < etas[0] < 1 < etas[1]; got: {etas}")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._initial_lr = float(lr0)
        self._range = (float(lo), float(hi))
        self._etas = (float(etas[0]), float(etas[1]))

    def _init_state(self, p):
        return {"prevs": np.zeros_like(p.array),
                "learning_rates": np.full_like(p.array, self._initial_lr)}

    def _update(self, p, g, lr, state, group):
        d = p.array
        t = d.dtype.type
        prev, s = state["prevs"], state["learning_rates"]
        prod = g * prev
        grow, shrink = prod > 0, prod < 0
        s[...] = np.where(grow, np.minimum(s * t(self._etas[1]), t(self._range[1])),
                          np.where(shrink, np.maximum(s * t(self._etas[0]), t(self._range[0])),
                                   s))
        g = np.where(shrink, t(0), g)
        d -= np.sign(g) * s
        prev[...] = g

    _update_sparse = Optimizer._update_sparse_densely
