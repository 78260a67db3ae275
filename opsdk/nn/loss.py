"""Loss layers over opsdk.nn.functional: cross entropy, MSE, L1, smooth L1 (Huber), BCE, NLL,
KL."""
from .functional import loss_extra
from .functional.loss import cross_entropy, mse_loss
from .layer import Layer


class CrossEntropyLoss(Layer):
    """``F.cross_entropy`` with its options fixed at construction; call as loss(input, label)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                 axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__()
        self._opts = dict(weight=weight, ignore_index=ignore_index, reduction=reduction,
                          soft_label=soft_label, axis=axis, use_softmax=use_softmax,
                          label_smoothing=label_smoothing)

    def forward(self, input, label):
        return cross_entropy(input, label, **self._opts)


class MSELoss(Layer):
    """``F.mse_loss`` with a fixed reduction; call as loss(input, label)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self._reduction = reduction

    def forward(self, input, label):
        return mse_loss(input, label, self._reduction)


class _Loss(Layer):
    """A loss layer: the functional loss with the options given at construction."""

    _fn = None

    def __init__(self, **options):
        super().__init__()
        self._options = options

    def forward(self, input, label):
        return type(self)._fn(input, label, **self._options)


class L1Loss(_Loss):
    """``F.l1_loss``: reduce(|input - label|)."""
    _fn = staticmethod(loss_extra.l1_loss)

    def __init__(self, reduction="mean", name=None):
        super().__init__(reduction=reduction)


class SmoothL1Loss(_Loss):
    """``F.smooth_l1_loss``: quadratic below delta, linear above."""
    _fn = staticmethod(loss_extra.smooth_l1_loss)

    def __init__(self, reduction="mean", delta=1.0, is_huber=True, name=None):
        super().__init__(reduction=reduction, delta=delta, is_huber=is_huber)


class HuberLoss(SmoothL1Loss):
    """``F.smooth_l1_loss`` under Paddle's other name: the Huber loss (is_huber=True)."""


class BCELoss(_Loss):
    """``F.binary_cross_entropy`` on probabilities."""
    _fn = staticmethod(loss_extra.binary_cross_entropy)

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__(weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    """``F.binary_cross_entropy_with_logits`` on logits."""
    _fn = staticmethod(loss_extra.binary_cross_entropy_with_logits)

    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class NLLLoss(_Loss):
    """``F.nll_loss`` on log-probabilities and class ids."""
    _fn = staticmethod(loss_extra.nll_loss)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction)


class KLDivLoss(_Loss):
    """``F.kl_div`` of log-probabilities against a target distribution."""
    _fn = staticmethod(loss_extra.kl_div)

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction=reduction, log_target=log_target)
