"""More activation layers: thin Layer wrappers over opsdk.nn.functional's extra activations."""
from . import functional as F
from ..errors import LayerArgumentError
from .initializer import Constant
from .layer import Layer


class _Pointwise(Layer):
    """A layer applying one functional activation with the options given at construction."""

    _fn = None

    def __init__(self, **options):
        super().__init__()
        self._options = options

    def forward(self, x):
        return type(self)._fn(x, **self._options)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._options.items())


class ELU(_Pointwise):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    _fn = staticmethod(F.elu)

    def __init__(self, alpha=1.0, name=None):
        super().__init__(alpha=alpha)


class SELU(_Pointwise):
    """scale * elu(x, alpha) with the self-normalizing constants."""
    _fn = staticmethod(F.selu)

    def __init__(self, scale=F.activation_extra.SELU_SCALE, alpha=F.activation_extra.SELU_ALPHA,
                 name=None):
        super().__init__(scale=scale, alpha=alpha)


class CELU(_Pointwise):
    """x for x > 0, alpha * (exp(x / alpha) - 1) otherwise."""
    _fn = staticmethod(F.celu)

    def __init__(self, alpha=1.0, name=None):
        super().__init__(alpha=alpha)


class ReLU6(_Pointwise):
    """min(max(x, 0), 6)."""
    _fn = staticmethod(F.relu6)

    def __init__(self, name=None):
        super().__init__()


class Hardtanh(_Pointwise):
    """x clamped into [min, max]."""
    _fn = staticmethod(F.hardtanh)

    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__(min=min, max=max)


class Hardsigmoid(_Pointwise):
    """clamp(x / 6 + 0.5, 0, 1)."""
    _fn = staticmethod(F.hardsigmoid)

    def __init__(self, name=None):
        super().__init__()


class Hardswish(_Pointwise):
    """x * relu6(x + 3) / 6."""
    _fn = staticmethod(F.hardswish)

    def __init__(self, name=None):
        super().__init__()


class Softplus(_Pointwise):
    """log(1 + exp(beta x)) / beta (x itself past the threshold)."""
    _fn = staticmethod(F.softplus)

    def __init__(self, beta=1.0, threshold=20.0, name=None):
        super().__init__(beta=beta, threshold=threshold)


class Softsign(_Pointwise):
    """x / (1 + |x|)."""
    _fn = staticmethod(F.softsign)

    def __init__(self, name=None):
        super().__init__()


class Tanhshrink(_Pointwise):
    """x - tanh(x)."""
    _fn = staticmethod(F.tanhshrink)

    def __init__(self, name=None):
        super().__init__()


class LogSigmoid(_Pointwise):
    """log(sigmoid(x))."""
    _fn = staticmethod(F.log_sigmoid)

    def __init__(self, name=None):
        super().__init__()


class Mish(_Pointwise):
    """x * tanh(softplus(x))."""
    _fn = staticmethod(F.mish)

    def __init__(self, name=None):
        super().__init__()


class PReLU(Layer):
    """x for x > 0, weight * x otherwise, with a learned slope (one, or one per channel).

    Args:
        num_parameters: 1 (a shared slope) or the number of channels.
        init: the slopes' starting value (0.25).
        weight_attr: a ParamAttr or initializer for the slopes.
        data_format: where the channels are ('NCHW' by default).

    Example:
        >>> act = opsdk.nn.PReLU()
        >>> act(opsdk.to_tensor([-2.0, 3.0])).numpy()
        array([-0.5,  3. ], dtype=float32)
    """

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        super().__init__()
        self._data_format = data_format
        self.weight = self.create_parameter([int(num_parameters)], attr=weight_attr,
                                            default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self.weight, self._data_format)

    def extra_repr(self):
        return f"num_parameters={self.weight.shape[0]}, data_format={self._data_format}"


class Hardshrink(_Pointwise):
    """x where |x| >= threshold, else 0."""
    _fn = staticmethod(F.hardshrink)

    def __init__(self, threshold=0.5, name=None):
        super().__init__(threshold=threshold)


class Softshrink(_Pointwise):
    """x shrunk toward 0 by threshold (0 inside [-threshold, threshold])."""
    _fn = staticmethod(F.softshrink)

    def __init__(self, threshold=0.5, name=None):
        super().__init__(threshold=threshold)


class ThresholdedReLU(_Pointwise):
    """x where x > threshold, else value."""
    _fn = staticmethod(F.thresholded_relu)

    def __init__(self, threshold=1.0, value=0.0, name=None):
        super().__init__(threshold=threshold, value=value)


class GLU(_Pointwise):
    """The gated linear unit: a * sigmoid(b) over two halves of axis."""
    _fn = staticmethod(F.glu)

    def __init__(self, axis=-1, name=None):
        super().__init__(axis=axis)


class Maxout(_Pointwise):
    """``F.maxout``: the max over each run of `groups` channels."""
    _fn = staticmethod(F.maxout)

    def __init__(self, groups, axis=1, name=None):
        super().__init__(groups=groups, axis=axis)


class Softmax2D(Layer):
    """Softmax over the channel axis (-3) of a 3-D [C, H, W] or 4-D [N, C, H, W] input."""

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        if x.ndim not in (3, 4):
            raise LayerArgumentError(f"Softmax2D: expected a 3-D or 4-D input; got: "
                                     f"{x.ndim}-D")
        return F.softmax(x, axis=-3)
