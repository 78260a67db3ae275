"""NAdam: Adam with Nesterov momentum (Dozat, 2016), in Paddle's form."""
import numpy as np

from ..errors import OpArgumentError
from .adam import _scalar
from .optimizer import Optimizer


def check_betas(op, beta1, beta2, epsilon, learning_rate):
    """The argument checks Paddle's NAdam and RAdam make; returns (beta1, beta2) as floats."""
    beta1, beta2 = _scalar(beta1, "beta1"), _scalar(beta2, "beta2")
    if isinstance(learning_rate, (int, float)) and learning_rate < 0:
        raise OpArgumentError(f"{op}: learning_rate must be >= 0; got: {learning_rate}")
    if not epsilon >= 0:
        raise OpArgumentError(f"{op}: epsilon must be >= 0; got: {epsilon}")
    for n, v in (("beta1", beta1), ("beta2", beta2)):
        if not 0 <= v < 1:
            raise OpArgumentError(f"{op}: {n} must lie in [0, 1); got: {v}")
    return beta1, beta2


def moment_state(p, *powers):
    """The powers (ones) and the two moments (zeros), each shaped like p, as Paddle keeps them."""
    state = {k: np.ones_like(p.array) for k in powers}
    state.update(moment1=np.zeros_like(p.array), moment2=np.zeros_like(p.array))
    return state


class NAdam(Optimizer):
    """NAdam, as Paddle's update rule (psi = momentum_decay):

    mu_t = beta1 (1 - 0.96^(t psi) / 2);  m = beta1 m + (1 - beta1) g;
    v = beta2 v + (1 - beta2) g^2;
    m_hat = mu_(t+1) m / (1 - prod_(i<=t+1) mu_i) + (1 - mu_t) g / (1 - prod_(i<=t) mu_i);
    param -= lr m_hat / (sqrt(v / (1 - beta2^t)) + epsilon).

    Args:
        learning_rate: float or LRScheduler (0.002).
        beta1, beta2: moment decays (0.9, 0.999).
        epsilon: 1e-8.
        momentum_decay: psi (0.004).
        parameters, weight_decay (coupled: added to the gradient), grad_clip: as every optimizer.

    Example:
        >>> opt = opsdk.optimizer.NAdam(parameters=model.parameters())
    """

    _accumulator_names = ("momentum_decay_pow", "beta2_pow", "mu_product", "moment1", "moment2")

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 momentum_decay=0.004, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        beta1, beta2 = check_betas("NAdam", beta1, beta2, epsilon, learning_rate)
        if not momentum_decay >= 0:
            raise OpArgumentError(f"NAdam: momentum_decay must be >= 0; got: {momentum_decay}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2 = beta1, beta2
        self._epsilon = float(epsilon)
        self._momentum_decay = float(momentum_decay)

    def _init_state(self, p):
        return moment_state(p, "momentum_decay_pow", "beta2_pow", "mu_product")

    def _update(self, p, g, lr, state, group):
        b1, b2 = self._hyper(group, "beta1"), self._hyper(group, "beta2")
        psi = self._hyper(group, "momentum_decay")
        d = p.array
        t = d.dtype.type
        decay = t(0.96) ** t(psi)
        dpow, b2pow, mu_prod = state["momentum_decay_pow"], state["beta2_pow"], state["mu_product"]
        m, v = state["moment1"], state["moment2"]
        dpow *= decay
        b2pow *= t(b2)
        mu_t = t(b1) * (t(1) - t(0.5) * dpow)
        mu_next = t(b1) * (t(1) - t(0.5) * dpow * decay)
        mu_prod *= mu_t
        m *= t(b1)
        m += t(1 - b1) * g
        v *= t(b2)
        v += t(1 - b2) * g * g
        m_hat = mu_next * m / (t(1) - mu_prod * mu_next) + (t(1) - mu_t) * g / (t(1) - mu_prod)
        v_hat = v / (t(1) - b2pow)
        d -= t(lr) * m_hat / (np.sqrt(v_hat) + t(self._hyper(group, "epsilon")))

    _update_sparse = Optimizer._update_sparse_densely
