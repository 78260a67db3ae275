"""Weight-decay regularizers added to the gradient (Paddle's paddle.regularizer)."""
import abc

import numpy as np

from ..errors import OpArgumentError


class WeightDecayRegularizer(abc.ABC):
    """Base: ``apply(param_array, grad_array)`` returns the regularized gradient (a new array)."""

    def __init__(self, coeff=0.0):
        self.coeff = float(coeff)

    @abc.abstractmethod
    def apply(self, p, g):
        """Each subclass defines this."""

    def __repr__(self):
        return f"{type(self).__name__}(coeff={self.coeff})"


class L2Decay(WeightDecayRegularizer):
    """grad + coeff * param (what a float weight_decay means for SGD, Momentum and Adam)."""

    def apply(self, p, g):
        return g + np.asarray(self.coeff, dtype=g.dtype) * p


class L1Decay(WeightDecayRegularizer):
    """grad + coeff * sign(param)."""

    def apply(self, p, g):
        return g + np.asarray(self.coeff, dtype=g.dtype) * np.sign(p)


def as_regularizer(weight_decay, op):
    """None, a float (L2Decay) or a regularizer instance."""
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, (int, float)):
        return L2Decay(weight_decay) if weight_decay else None
    raise OpArgumentError(f"{op}: weight_decay must be a float or an L1Decay/L2Decay; got: "
                          f"{type(weight_decay).__name__}")
