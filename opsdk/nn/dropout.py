"""nn.Dropout: random zeroing in training mode, identity in eval mode."""
from .functional.common import dropout
from .layer import Layer


class Dropout(Layer):
    """Zero each element with probability p while training (``layer.train()``).

    Args:
        p: drop probability.
        axis: drop whole slices along these axes.
        mode: 'upscale_in_train' (default) or 'downscale_in_infer'.

    Example:
        >>> drop = opsdk.nn.Dropout(0.5)
        >>> drop.eval()(opsdk.ones([3])).numpy()
        array([1., 1., 1.], dtype=float32)
    """

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p = p
        self.axis = axis
        self.mode = mode

    def forward(self, x):
        return dropout(x, self.p, self.axis, self.training, self.mode)

    def extra_repr(self):
        return f"p={self.p}, axis={self.axis}, mode={self.mode}"
