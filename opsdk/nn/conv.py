"""Conv1D, Conv2D, MaxPool2D, AvgPool2D, BatchNorm1D, BatchNorm2D, Conv1DTranspose,
Conv2DTranspose, Unfold, Fold: the layers over nn.functional.conv and conv_extra (references in
core ops; see those modules for what they cost)."""
import math

from ..dtypes import get_default_dtype
from ..errors import OpArgumentError
from .functional.conv import avg_pool2d, batch_norm, conv1d, conv2d, max_pool2d
from .functional.conv_extra import (avg_pool3d, conv1d_transpose, conv2d_transpose, conv3d,
                                    conv3d_transpose, fold, lp_pool1d, lp_pool2d, max_pool3d,
                                    unfold)
from .initializer import Constant, Normal
from .layer import Layer
from .param_attr import ParamAttr


def _conv_repr(layer):
    return (f"{layer._in_channels}, {layer._out_channels}, kernel_size={layer._kernel_size}, "
            f"stride={layer._stride}, padding={layer._padding}")


class _ConvNd(Layer):
    def __init__(self, dims, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 groups, padding_mode, weight_attr, bias_attr, data_format, bias=True,
                 dtype=None):
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
                                            attr=weight_attr, dtype=dtype,
                                            default_initializer=Normal(0.0, std))
        # bias=False (Paddle 3.3's torch-style keyword) drops the bias as bias_attr=False does
        self.bias = None if bias_attr is False or not bias else self.create_parameter(
            [out_channels], attr=bias_attr, dtype=dtype, is_bias=True)

    extra_repr = _conv_repr


class Conv2D(_ConvNd):
    """2-D convolution over [N, C, H, W] (F.conv2d), weight [out, in / groups, KH, KW].

    Example:
        >>> conv = opsdk.nn.Conv2D(3, 8, 3, padding=1)
        >>> conv(opsdk.randn([2, 3, 5, 5])).shape
        paddle.Size([2, 8, 5, 5])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW", *, bias=True, device=None, dtype=None):
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format, bias, dtype)

    def forward(self, x):
        return conv2d(x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                      self._groups, self._data_format)


class Conv1D(_ConvNd):
    """1-D convolution over [N, C, L] (F.conv1d), weight [out, in / groups, K]."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCL", *, bias=True, device=None, dtype=None):
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format, bias, dtype)

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
                 use_global_stats, dtype=None):
        super().__init__()
        self._momentum, self._epsilon = momentum, epsilon
        self._data_format, self._use_global_stats = data_format, use_global_stats
        self.weight = None if weight_attr is False else self.create_parameter(
            [num_features], attr=weight_attr, dtype=dtype, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(
            [num_features], attr=bias_attr, dtype=dtype, is_bias=True)
        # the running statistics: as in Paddle, parameters that do not train (trainable=False,
        # stop_gradient=True), so named_parameters() and the optimizer's list hold them
        dtype = dtype or get_default_dtype()
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


class BatchNorm3D(BatchNorm2D):
    """Batch normalization of [N, C, D, H, W] (or NDHWC) per channel, with running statistics."""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-5, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats)


class BatchNorm(_BatchNormNd):
    """Paddle's older batch normalization layer: the statistics of any [N, C, ...] input per
    channel (data_layout 'NCHW' or 'NHWC'), then the activation act (a name in
    opsdk.nn.functional, e.g. 'relu'). is_test=True starts it in eval mode; use_global_stats
    normalizes by the running statistics in training too. dtype: the parameters' dtype
    (float16 is kept in float32, as Paddle).
    """

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-5,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        from . import functional
        if act is not None and not callable(getattr(functional, act, None)):
            raise OpArgumentError(f"BatchNorm: act must name an activation of opsdk.nn.functional; "
                             f"got: {act!r}")
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr, data_layout,
                         True if use_global_stats else None,
                         "float32" if str(dtype) in ("float16", "paddle.float16") else dtype)
        self._act = act
        self.training = not is_test

    def forward(self, input):
        out = super().forward(input)
        if self._act is None:
            return out
        from . import functional
        return getattr(functional, self._act)(out)


class _ConvTransposeNd(Layer):
    """The transposed convolutions' layer: weight [in, out / groups, *kernel] (XavierUniform by
    default, as Paddle), bias [out] (zeros); forward(x, output_size=None)."""

    _fn = None

    def __init__(self, dims, in_channels, out_channels, kernel_size, stride, padding,
                 output_padding, dilation, groups, weight_attr, bias_attr, data_format):
        super().__init__()
        kernel = [kernel_size] * dims if isinstance(kernel_size, int) else list(kernel_size)
        self._in_channels, self._out_channels, self._kernel_size = in_channels, out_channels, kernel
        self._stride, self._padding, self._dilation = stride, padding, dilation
        self.output_padding = output_padding
        self._groups, self._data_format = groups, data_format
        self.weight = self.create_parameter([in_channels, out_channels // groups] + kernel,
                                            attr=weight_attr)
        self.bias = None if bias_attr is False else self.create_parameter(
            [out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x, output_size=None):
        return type(self)._fn(
            x, self.weight, bias=self.bias, stride=self._stride, padding=self._padding,
            output_padding=self.output_padding if output_size is None else 0,
            dilation=self._dilation, groups=self._groups, output_size=output_size,
            data_format=self._data_format)

    extra_repr = _conv_repr


class Conv2DTranspose(_ConvTransposeNd):
    """The transposed 2-D convolution (F.conv2d_transpose), weight [in, out / groups, KH, KW];
    forward(x, output_size=None). Example:

        >>> opsdk.nn.Conv2DTranspose(4, 2, 2, stride=2)(opsdk.randn([1, 4, 3, 3])).shape
        paddle.Size([1, 2, 6, 6])
    """
    _fn = staticmethod(conv2d_transpose)
    _dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(self._dims, in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, dilation, groups, weight_attr, bias_attr, data_format)


class Conv3DTranspose(Conv2DTranspose):
    """The transposed 3-D convolution (F.conv3d_transpose), weight [in, out / groups, KD, KH,
    KW]; forward(x, output_size=None). Paddle's layer order: dilation before groups."""
    _fn = staticmethod(conv3d_transpose)
    _dims = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding,
                         dilation, groups, weight_attr, bias_attr, data_format)


class Conv1DTranspose(_ConvTransposeNd):
    """The transposed 1-D convolution (F.conv1d_transpose), weight [in, out / groups, K]."""
    _fn = staticmethod(conv1d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        # Paddle's 1-D order: groups before dilation (the 2-D layer has them the other way)
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, dilation=dilation, groups=groups,
                         weight_attr=weight_attr, bias_attr=bias_attr, data_format=data_format)


class Unfold(Layer):
    """F.unfold as a layer: the sliding blocks of [N, C, H, W] as columns [N, C kh kw, L]."""

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self._args = dict(kernel_sizes=kernel_sizes, dilations=dilations, paddings=paddings,
                          strides=strides)

    def forward(self, input):
        return unfold(input, **self._args)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._args.items())


class Fold(Layer):
    """F.fold as a layer: columns [N, C kh kw, L] summed back into [N, C, H, W]."""

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None):
        super().__init__()
        self._args = dict(output_sizes=output_sizes, kernel_sizes=kernel_sizes,
                          dilations=dilations, paddings=paddings, strides=strides)

    def forward(self, input):
        return fold(input, **self._args)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._args.items())


class LPPool2D(Layer):
    """F.lp_pool2d as a layer: (sum of x^norm_type over each window)^(1/norm_type)."""
    _fn = staticmethod(lp_pool2d)

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__()
        self._args = (norm_type, kernel_size, stride, padding, ceil_mode, data_format)

    def forward(self, x):
        return type(self)._fn(x, *self._args)


class LPPool1D(LPPool2D):
    """F.lp_pool1d as a layer."""
    _fn = staticmethod(lp_pool1d)

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCL", name=None):
        super().__init__(norm_type, kernel_size, stride, padding, ceil_mode, data_format)


class MaxPool3D(Layer):
    """F.max_pool3d as a layer (Paddle's argument order: return_mask before ceil_mode)."""

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCDHW", name=None):
        super().__init__()
        self._kw = dict(kernel_size=kernel_size, stride=stride, padding=padding,
                        return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format)

    def forward(self, x):
        return max_pool3d(x, **self._kw)


class AvgPool3D(MaxPool3D):
    """F.avg_pool3d as a layer."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCDHW", name=None):
        Layer.__init__(self)
        self._kw = dict(kernel_size=kernel_size, stride=stride, padding=padding,
                        ceil_mode=ceil_mode, exclusive=exclusive,
                        divisor_override=divisor_override, data_format=data_format)

    def forward(self, x):
        return avg_pool3d(x, **self._kw)


class Conv3D(_ConvNd):
    """3-D convolution over [N, C, D, H, W] (F.conv3d), weight [out, in / groups, KD, KH, KW];
    Conv2D's arguments with 3-D sizes."""

    def forward(self, x):
        return conv3d(x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                      self._groups, self._data_format)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCDHW", *, bias=True, device=None, dtype=None):
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format, bias, dtype)
