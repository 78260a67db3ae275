"""Loss layers: CrossEntropyLoss and MSELoss over opsdk.nn.functional."""
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
