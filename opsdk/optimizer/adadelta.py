"""Adadelta: step sizes from running averages of squared gradients and squared updates
(Zeiler, 2012), in Paddle's form."""
import numpy as np

from ..errors import OpArgumentError
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta, as Paddle's update rule:

    E[g^2] = rho E[g^2] + (1 - rho) g^2;
    u = -sqrt((E[u^2] + epsilon) / (E[g^2] + epsilon)) g;
    E[u^2] = rho E[u^2] + (1 - rho) u^2;  param += lr u.

    Args:
        learning_rate: float or LRScheduler (0.001).
        epsilon: 1e-6.
        rho: the decay of both averages (0.95).
        parameters, weight_decay (coupled: added to the gradient), grad_clip: as every optimizer.

    Example:
        >>> opt = opsdk.optimizer.Adadelta(learning_rate=1.0, parameters=model.parameters())
    """

    _accumulator_names = ("_avg_squared_grad", "_avg_squared_update")

    def __init__(self, learning_rate=0.001, epsilon=1e-6, rho=0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        for arg, v in (("learning_rate", learning_rate), ("epsilon", epsilon), ("rho", rho)):
            if v is None:
                raise OpArgumentError(f"Adadelta: {arg} is not set; expected: a number")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = float(epsilon)
        self._rho = float(rho)

    def _init_state(self, p):
        return {"_avg_squared_grad": np.zeros_like(p.array),
                "_avg_squared_update": np.zeros_like(p.array)}

    def _update(self, p, g, lr, state, group):
        rho, eps = self._hyper(group, "rho"), self._hyper(group, "epsilon")
        d = p.array
        t = d.dtype.type
        eg, eu = state["_avg_squared_grad"], state["_avg_squared_update"]
        eg *= t(rho)
        eg += t(1 - rho) * g * g
        u = -np.sqrt((eu + t(eps)) / (eg + t(eps))) * g
        eu *= t(rho)
        eu += t(1 - rho) * u * u
        d += t(lr) * u

    _update_sparse = Optimizer._update_sparse_densely
