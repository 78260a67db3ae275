"""RAdam: Adam with the variance of the adaptive learning rate rectified (Liu et al., 2019), in
Paddle's form."""
import numpy as np

from .nadam import check_betas, moment_state
from .optimizer import Optimizer


class RAdam(Optimizer):
    """RAdam, as Paddle's update rule:

    m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2;  m_hat = m / (1 - beta1^t);
    rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t);
    rho_t > 5: param -= lr m_hat r_t sqrt(1 - beta2^t) / (sqrt(v) + epsilon), with
    r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t));
    else: param -= lr m_hat.

    Args:
        learning_rate: float or LRScheduler (0.001).
        beta1, beta2: moment decays (0.9, 0.999).
        epsilon: 1e-8.
        parameters, weight_decay (coupled: added to the gradient), grad_clip: as every optimizer.

    Example:
        >>> opt = opsdk.optimizer.RAdam(parameters=model.parameters())
    """

    _accumulator_names = ("beta1_pow", "beta2_pow", "rho", "moment1", "moment2")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        beta1, beta2 = check_betas("RAdam", beta1, beta2, epsilon, learning_rate)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2 = beta1, beta2
        self._epsilon = float(epsilon)

    def _init_state(self, p):
        return moment_state(p, "beta1_pow", "beta2_pow", "rho")

    def _update(self, p, g, lr, state, group):
        b1, b2 = self._hyper(group, "beta1"), self._hyper(group, "beta2")
        d = p.array
        t = d.dtype.type
        b1pow, b2pow, rho = state["beta1_pow"], state["beta2_pow"], state["rho"]
        m, v = state["moment1"], state["moment2"]
        b1pow *= t(b1)
        b2pow *= t(b2)
        # rho holds t beta2^t / (1 - beta2^t), advanced by the recurrence
        rho[...] = (rho * (t(b2) - b2pow) + b2pow) / (t(1) - b2pow)
        m *= t(b1)
        m += t(1 - b1) * g
        v *= t(b2)
        v += t(1 - b2) * g * g
        m_hat = m / (t(1) - b1pow)
        rho_inf = t(2 / (1 - b2) - 1)
        rho_t = rho_inf - t(2) * rho
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            eps = t(self._hyper(group, "epsilon"))
            step = m_hat * r * np.sqrt(t(1) - b2pow) / (np.sqrt(v) + eps)
        d -= t(lr) * np.where(rho_t > 5, step, m_hat)

    _update_sparse = Optimizer._update_sparse_densely
