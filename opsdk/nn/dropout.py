"""nn.Dropout: random zeroing in training mode, identity in eval mode; the channel and alpha
dropouts and RReLU, random in training mode too."""
from .functional import dropout_extra
from .functional.common import dropout
from .layer import Layer


class Dropout(Layer):
    """Zero each element with probability p while training (``layer.train()``).

    Args:
        p: drop probability.
        inplace: write into the input (F.dropout's inplace).
        axis: drop whole slices along these axes.
        mode: 'upscale_in_train' (default) or 'downscale_in_infer'.

    Example:
        >>> drop = opsdk.nn.Dropout(0.5)
        >>> drop.eval()(opsdk.ones([3])).numpy()
        array([1., 1., 1.], dtype=float32)
    """

    def __init__(self, p=0.5, inplace=False, axis=None, mode="upscale_in_train", name=None):
        # (Paddle 3.3.1's order: inplace second)
        super().__init__()
        self.p = p
        self.inplace = inplace
        self.axis = axis
        self.mode = mode

    def forward(self, x):
        return dropout(x, self.p, self.axis, self.training, self.inplace, self.mode)

    def extra_repr(self):
        inplace = ", inplace=True" if self.inplace else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{inplace}"


class _RandomLayer(Layer):
    """A layer applying one functional regularizer while training (``layer.train()``), with the
    options given at construction; ``name`` is kept for the repr, as Paddle's."""

    _fn = None

    def __init__(self, name=None, **options):
        super().__init__()
        self._options = options
        self.name = name
        for k, v in options.items():
            setattr(self, k, v)

    def forward(self, input):
        return type(self)._fn(input, training=self.training, **self._options)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return ", ".join(f"{k}={v}" for k, v in self._options.items()) + name


class Dropout2D(_RandomLayer):
    """``F.dropout2d``: zero whole channels of a 4-D input with probability p."""
    _fn = staticmethod(dropout_extra.dropout2d)

    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__(name, p=p, data_format=data_format)


class Dropout3D(_RandomLayer):
    """``F.dropout3d``: zero whole channels of a 5-D input with probability p."""
    _fn = staticmethod(dropout_extra.dropout3d)

    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__(name, p=p, data_format=data_format)


class AlphaDropout(_RandomLayer):
    """``F.alpha_dropout``: dropout that keeps a SELU network's mean and variance."""
    _fn = staticmethod(dropout_extra.alpha_dropout)

    def __init__(self, p=0.5, name=None):
        super().__init__(name, p=p)


class FeatureAlphaDropout(_RandomLayer):
    """``F.feature_alpha_dropout``: alpha dropout of whole channels."""
    _fn = staticmethod(dropout_extra.feature_alpha_dropout)

    def __init__(self, p=0.5, name=None):
        super().__init__(name, p=p)


class RReLU(_RandomLayer):
    """``F.rrelu``: random negative slopes in [lower, upper] while training, their mean in
    eval mode."""
    _fn = staticmethod(dropout_extra.rrelu)

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__(name, lower=lower, upper=upper)
