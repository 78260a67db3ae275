"""ASGD: SGD along the average of the last batch_num gradients (Paddle's stochastic average
gradient form)."""
import numpy as np

from ..errors import OpArgumentError
from .optimizer import Optimizer


class ASGD(Optimizer):
    """ASGD, as Paddle's update rule: the step m (from 0) replaces slot i = m % batch_num of
    the stored gradients y, keeping their sum d;  d = d - y_i + g;  y_i = g;
    param -= lr d / min(m + 1, batch_num).

    Args:
        learning_rate: float or LRScheduler (0.001).
        batch_num: how many gradients are averaged (1: plain SGD).
        parameters, weight_decay (coupled: added to the gradient, so stored with it),
        grad_clip: as every optimizer. multi_precision is accepted and unused.

    Example:
        >>> opt = opsdk.optimizer.ASGD(learning_rate=0.1, batch_num=4,
        ...                            parameters=model.parameters())
    """

    _accumulator_names = ("d", "y", "m")

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None,
                 grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise OpArgumentError("ASGD: learning_rate must not be None")
        if batch_num is None or not batch_num > 0:
            raise OpArgumentError(f"ASGD: batch_num must be greater than 0; got: {batch_num}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._n = int(batch_num)

    def _init_state(self, p):
        return {"d": np.zeros_like(p.array),
                "y": np.zeros((self._n,) + p.array.shape, dtype=p.array.dtype),
                "m": np.zeros([1], dtype=np.int64)}

    def _update(self, p, g, lr, state, group):
        d = p.array
        t = d.dtype.type
        m = int(state["m"][0])
        slot = state["y"][m % self._n]
        state["m"][0] = m + 1
        acc = state["d"]
        acc -= slot
        acc += g
        slot[...] = g
        d -= t(lr) * acc / t(min(m + 1, self._n))

    _update_sparse = Optimizer._update_sparse_densely
