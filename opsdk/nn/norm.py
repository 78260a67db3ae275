"""LayerNorm, GroupNorm and InstanceNorm1D/2D/3D: normalizations with a learned scale and
shift (F.layer_norm, F.group_norm, F.instance_norm), parameters named and shaped as Paddle's;
LocalResponseNorm (F.local_response_norm), which has none."""
import numpy as np

from ..dtypes import get_default_dtype
from ..errors import LayerArgumentError, OpArgumentError, ShapeError
from .functional.norm import group_norm, instance_norm, layer_norm, local_response_norm
from .initializer import Constant
from .layer import Layer


class LayerNorm(Layer):
    """``F.layer_norm`` with weight (ones) and bias (zeros) of shape [prod(normalized_shape)],
    as Paddle's.

    Args:
        normalized_shape: an int or the list of trailing dims to normalize over.
        epsilon: added to the variance (1e-5).
        weight_attr, bias_attr: ParamAttr/initializer, or False for no weight / no bias.

    Example:
        >>> ln = opsdk.nn.LayerNorm(3)
        >>> ln(opsdk.to_tensor([[1.0, 2.0, 3.0]])).shape
        paddle.Size([1, 3])
    """

    def __init__(self, normalized_shape, epsilon=1e-5, weight_attr=None, bias_attr=None,
                 name=None, *, elementwise_affine=True, bias=True, device=None, dtype=None):
        # Paddle 3.3.1's PyTorch-style keywords: elementwise_affine=False is no weight and no
        # bias, bias=False no bias; dtype and device are the parameters'
        super().__init__()
        shape = [normalized_shape] if isinstance(normalized_shape, int) else list(
            normalized_shape)
        self._normalized_shape = shape
        self._epsilon = epsilon
        self._dtype = get_default_dtype()  # as Paddle's LayerNorm (not the Layer's float32)
        flat = [int(np.prod(shape))]
        if not elementwise_affine:
            weight_attr = bias_attr = False
        elif not bias:
            bias_attr = False
        self.weight = None if weight_attr is False else self.create_parameter(
            flat, attr=weight_attr, dtype=dtype, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(
            flat, attr=bias_attr, dtype=dtype, is_bias=True)
        if device is not None:
            self.to(device)

    def forward(self, x):
        return layer_norm(x, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """``F.group_norm`` with weight (ones) and bias (zeros) of shape [num_channels].

    Args:
        num_groups: how many groups the channels are split into.
        num_channels: C.
        epsilon: added to the variance (1e-5).
        affine: False for neither weight nor bias.
        weight_attr, bias_attr: ParamAttr/initializer, or False for no weight / no bias.
        data_format: NCL, NCHW, NCDHW (channels at axis 1) or NLC, NHWC, NDHWC (last).

    Example:
        >>> gn = opsdk.nn.GroupNorm(2, 4)
        >>> gn(opsdk.ones([3, 4, 5])).shape
        paddle.Size([3, 4, 5])
    """

    def __init__(self, num_groups, num_channels, epsilon=1e-5, *, affine=True, device=None,
                 dtype=None, weight_attr=None, bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise OpArgumentError(f"GroupNorm: unsupported data layout: {data_format!r}")
        self._num_groups, self._num_channels, self._epsilon = num_groups, num_channels, epsilon
        self._data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        if not affine:
            weight_attr = bias_attr = False
        self.weight = None if weight_attr is False else self.create_parameter(
            [num_channels], attr=weight_attr, dtype=dtype, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(
            [num_channels], attr=bias_attr, dtype=dtype, is_bias=True)

    def forward(self, x):
        return group_norm(x, self._num_groups, self._epsilon, self.weight, self.bias,
                          self._data_format)

    def extra_repr(self):
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


class _InstanceNormNd(Layer):
    """``F.instance_norm`` with a scale (ones) and bias (zeros) of shape [num_features], named
    ``scale`` and ``bias`` as Paddle's; weight_attr and bias_attr are False together or not at
    all (Paddle asserts it)."""

    _ndims = ()

    def __init__(self, num_features, epsilon=1e-5, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise LayerArgumentError(f"{type(self).__name__}: weight_attr and bias_attr must be "
                                  f"False together or not at all")
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._data_format = data_format
        if weight_attr is False:
            self.scale = self.bias = None
        else:
            self.scale = self.create_parameter([num_features], attr=weight_attr,
                                               default_initializer=Constant(1.0))
            self.bias = self.create_parameter([num_features], attr=bias_attr, is_bias=True)

    def forward(self, x):
        if x.ndim not in self._ndims:
            want = " or ".join(f"{d}D" for d in self._ndims)
            raise ShapeError(f"{type(self).__name__}: expected {want} input (got {x.ndim}D "
                             f"input)")
        return instance_norm(x, weight=self.scale, bias=self.bias, momentum=self._momentum,
                             eps=self._epsilon, data_format=self._data_format)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormNd):
    """Instance normalization of [N, C] or [N, C, L] (see _InstanceNormNd)."""

    _ndims = (2, 3)

    def __init__(self, num_features, epsilon=1e-5, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm2D(_InstanceNormNd):
    """Instance normalization of [N, C, H, W] (see _InstanceNormNd)."""

    _ndims = (4,)


class InstanceNorm3D(_InstanceNormNd):
    """Instance normalization of [N, C, D, H, W] (see _InstanceNormNd)."""

    _ndims = (5,)

    def __init__(self, num_features, epsilon=1e-5, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class LocalResponseNorm(Layer):
    """``F.local_response_norm`` as a layer."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input):
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k,
                                   self.data_format)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}, " \
               f"data_format={self.data_format}{name}"
