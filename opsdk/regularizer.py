"""opsdk.regularizer: Paddle's paddle.regularizer, L1Decay and L2Decay, for an optimizer's
weight_decay or a ParamAttr's regularizer (the classes live with the optimizers).

Example:
    >>> opsdk.regularizer.L2Decay(1e-4)
    L2Decay(coeff=0.0001)
"""
from .optimizer.regularizer import L1Decay, L2Decay

__all__ = ["L1Decay", "L2Decay"]
