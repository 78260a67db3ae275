"""Conv1D, Conv2D, MaxPool2D, AvgPool2D, BatchNorm1D, BatchNorm2D: the layers over
nn.functional.conv (references in core ops; see that module for what they cost)."""
import math

from ..dtypes import get_default_dtype
from .functional.conv import avg_pool2d, batch_norm, conv1d, conv2d, max_pool2d
from .initializer import Constant, Normal
from .layer import Layer
from .param_attr import ParamAttr


class _ConvNd(Layer):
    def __init__(self, dims, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 groups, padding_mode, weight_attr, bias_attr, data_format):
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f"Conv{dims}D: padding_mode {padding_mode!r} is not supported; "
                             f"expected: 'zeros'")
        kernel = [kernel_size] * dims if isinstance(kernel_size, int) else list(kernel_size)
        self._in_channels, self._out_channels, self._kernel_size = in_channels, out_channels, kernel
        self._stride, self._padding, self._dilation = stride, padding, dilation
        self._groups, self._data_format = groups, data_format
        # Paddle's default: Normal(0, sqrt(2 / fan_in)), fan_in = in_channels * prod(kernel)
        std = (2.0 / (in_channels * math.prod(kernel))) ** 0.5
        self.weight = self.create_parameter([out_channels, in_channels // groups] + kernel,
                                            attr=weight_attr,
                                            default_initializer=Normal(0.0, std))
        self.bias = None if bias_attr is False else self.create_parameter(
            [out_channels], attr=bias_attr, is_bias=True)

    def extra_repr(self):
        return (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
                f"stride={self._stride}, padding={self._padding}")


class Conv2D(_ConvNd):
    """2-D convolution over [N, C, H, W] (F.conv2d), weight [out, in / groups, KH, KW].

    Example:
        >>> conv = opsdk.nn.Conv2D(3, 8, 3, padding=1)
        >>> conv(opsdk.randn([2, 3, 5, 5])).shape
        paddle.Size([2, 8, 5, 5])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        return conv2d(x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                      self._groups, self._data_format)


class Conv1D(_ConvNd):
    """1-D convolution over [N, C, L] (F.conv1d), weight [out, in / groups, K]."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        return conv1d(x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                      self._groups, self._data_format)


class MaxPool2D(Layer):
    """F.max_pool2d as a layer."""

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__()
        self._args = (kernel_size, stride, padding, return_mask, ceil_mode, data_format)

    def forward(self, x):
        return max_pool2d(x, *self._args)


class AvgPool2D(Layer):
    """F.avg_pool2d as a layer."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCHW", name=None):
        super().__init__()
        self._args = (kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                      data_format)

    def forward(self, x):
        return avg_pool2d(x, *self._args)


class _BatchNormNd(Layer):
    def __init__(self, num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                 use_global_stats):
        super().__init__()
        self._momentum, self._epsilon = momentum, epsilon
        self._data_format, self._use_global_stats = data_format, use_global_stats
        self.weight = None if weight_attr is False else self.create_parameter(
            [num_features], attr=weight_attr, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(
            [num_features], attr=bias_attr, is_bias=True)
        # the running statistics: as in Paddle, parameters that do not train (trainable=False,
        # stop_gradient=True), so named_parameters() and the optimizer's list hold them
        dtype = get_default_dtype()
        self._mean = self.create_parameter(
            [num_features], attr=ParamAttr(initializer=Constant(0.0), trainable=False),
            dtype=dtype)
        self._variance = self.create_parameter(
            [num_features], attr=ParamAttr(initializer=Constant(1.0), trainable=False),
            dtype=dtype)

    def forward(self, x):
        return batch_norm(x, self._mean, self._variance, self.weight, self.bias, self.training,
                          self._momentum, self._epsilon, self._data_format,
                          self._use_global_stats)


class BatchNorm1D(_BatchNormNd):
    """Batch normalization of [N, C] or [N, C, L] per channel, with running statistics.

    Example:
        >>> bn = opsdk.nn.BatchNorm1D(3)
        >>> bn(opsdk.randn([4, 3])).shape
        paddle.Size([4, 3])
    """

    def __init__(self, num_features, momentum=0.9, epsilon=1e-5, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats)


class BatchNorm2D(_BatchNormNd):
    """Batch normalization of [N, C, H, W] per channel, with running statistics."""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-5, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats)
