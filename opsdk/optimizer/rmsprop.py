"""RMSProp: gradients divided by a running root mean square (Hinton, 2012), Paddle's form."""
import numpy as np

from .optimizer import Optimizer


class RMSProp(Optimizer):
    """RMSProp, as Paddle's update rule.

    ms = rho ms + (1 - rho) g^2;  centered: mg = rho mg + (1 - rho) g, denom = ms - mg^2;
    mom = momentum mom + lr g / sqrt(denom + epsilon);  param -= mom.

    A row-sparse gradient counts as zero outside its rows: every row's mean square decays
    (and with momentum, every row keeps moving), as Paddle's sparse kernel does.

    Args:
        learning_rate: float or LRScheduler (required, as in Paddle).
        rho: the decay of the running averages (0.95).
        epsilon: inside the square root (1e-6).
        momentum: the momentum of the update (0.0).
        centered: subtract the squared running mean of the gradient (a variance estimate).
        parameters, weight_decay, grad_clip: as every optimizer.

    Example:
        >>> opt = opsdk.optimizer.RMSProp(learning_rate=0.01, parameters=model.parameters())
    """

    _accumulator_names = ("momentum", "mean_square", "mean_grad")

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-6, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho = float(rho)
        self._epsilon = float(epsilon)
        self._momentum = float(momentum)
        self._centered = bool(centered)

    def _init_state(self, p):
        return {"momentum": np.zeros_like(p.array), "mean_square": np.zeros_like(p.array),
                "mean_grad": np.zeros_like(p.array)}

    def _update(self, p, g, lr, state, group):
        rho = self._hyper(group, "rho")
        d = p.array
        t = d.dtype.type
        ms, mg, mom = state["mean_square"], state["mean_grad"], state["momentum"]
        ms *= t(rho)
        ms += g * g * t(1.0 - rho)
        if self._centered:
            mg *= t(rho)
            mg += g * t(1.0 - rho)
            denom = ms - mg * mg
        else:
            denom = ms.copy()
        denom += t(self._hyper(group, "epsilon"))
        mom *= t(self._hyper(group, "momentum"))
        mom += g * t(lr) / np.sqrt(denom)
        d -= mom

    _update_sparse = Optimizer._update_sparse_densely
