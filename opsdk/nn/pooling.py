"""MaxPool1D, AvgPool1D, the adaptive and fractional pools and the max-unpools as layers over
nn.functional.pooling and unpool (Paddle's attribute names, reprs and ``return_indices``
property)."""
from .functional import pooling as F
from .functional import unpool
from .layer import Layer


class AvgPool1D(Layer):
    """F.avg_pool1d as a layer.

    Example:
        >>> opsdk.nn.AvgPool1D(2)(opsdk.ones([1, 3, 8])).shape
        paddle.Size([1, 3, 4])
    """

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.exclusive, self.ceil_mode, self.name = exclusive, ceil_mode, name

    def forward(self, x):
        return F.avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.exclusive,
                            self.ceil_mode, self.name)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(Layer):
    """F.max_pool1d as a layer."""

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 name=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.name = return_mask, ceil_mode, name

    def forward(self, x):
        return F.max_pool1d(x, self.kernel_size, self.stride, self.padding, self.return_mask,
                            self.ceil_mode, self.name)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1D(Layer):
    """F.adaptive_avg_pool1d as a layer."""

    def __init__(self, output_size, name=None):
        super().__init__()
        self.output_size, self.name = output_size, name

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size, self.name)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class _AdaptiveAvgPoolNd(Layer):
    _fn = None

    def __init__(self, output_size, data_format, name):
        super().__init__()
        self._output_size, self._data_format, self._name = output_size, data_format, name

    @property
    def output_size(self):
        return self._output_size

    @output_size.setter
    def output_size(self, value):
        self._output_size = value

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._data_format, self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveAvgPool2D(_AdaptiveAvgPoolNd):
    """F.adaptive_avg_pool2d as a layer.

    Example:
        >>> opsdk.nn.AdaptiveAvgPool2D([2, None])(opsdk.ones([1, 3, 5, 7])).shape
        paddle.Size([1, 3, 2, 7])
    """
    _fn = staticmethod(F.adaptive_avg_pool2d)

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__(output_size, data_format, name)


class AdaptiveAvgPool3D(_AdaptiveAvgPoolNd):
    """F.adaptive_avg_pool3d as a layer."""
    _fn = staticmethod(F.adaptive_avg_pool3d)

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__(output_size, data_format, name)


class AdaptiveMaxPool1D(Layer):
    """F.adaptive_max_pool1d as a layer."""

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self.output_size, self.return_mask, self.name = output_size, return_mask, name

    @property
    def return_indices(self):
        return self.return_mask

    @return_indices.setter
    def return_indices(self, value):
        self.return_mask = value

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_mask, self.name)

    def extra_repr(self):
        return f"output_size={self.output_size}, return_mask={self.return_mask}"


class _AdaptiveMaxPoolNd(Layer):
    _fn = None

    def __init__(self, output_size, return_mask, name):
        super().__init__()
        self._output_size, self._return_mask, self._name = output_size, return_mask, name

    @property
    def return_indices(self):
        return self._return_mask

    @return_indices.setter
    def return_indices(self, value):
        self._return_mask = value

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._return_mask, self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool2D(_AdaptiveMaxPoolNd):
    """F.adaptive_max_pool2d as a layer."""
    _fn = staticmethod(F.adaptive_max_pool2d)

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(output_size, return_mask, name)


class AdaptiveMaxPool3D(_AdaptiveMaxPoolNd):
    """F.adaptive_max_pool3d as a layer."""
    _fn = staticmethod(F.adaptive_max_pool3d)

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(output_size, return_mask, name)


class MaxUnPool2D(Layer):
    """F.max_unpool2d as a layer: forward(x, indices).

    Example:
        >>> x = opsdk.to_tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
        >>> opsdk.nn.MaxUnPool2D(2)(*F.max_pool2d(x, 2, return_mask=True)).shape
        paddle.Size([1, 1, 2, 2])
    """
    _fn = staticmethod(unpool.max_unpool2d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format, self.output_size, self.name = data_format, output_size, name

    def forward(self, x, indices):
        return type(self)._fn(x, indices, self.ksize, self.stride, self.padding,
                              self.data_format, self.output_size, self.name)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxUnPool1D(MaxUnPool2D):
    """F.max_unpool1d as a layer: forward(x, indices)."""
    _fn = staticmethod(unpool.max_unpool1d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class MaxUnPool3D(MaxUnPool2D):
    """F.max_unpool3d as a layer: forward(x, indices)."""
    _fn = staticmethod(unpool.max_unpool3d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class FractionalMaxPool2D(Layer):
    """F.fractional_max_pool2d as a layer (random_u None draws the windows anew each call).

    Example:
        >>> opsdk.nn.FractionalMaxPool2D(3, random_u=0.3)(opsdk.ones([1, 2, 7, 7])).shape
        paddle.Size([1, 2, 3, 3])
    """
    _fn = staticmethod(F.fractional_max_pool2d)

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False,
                 name=None):
        super().__init__()
        self._output_size, self._kernel_size, self._random_u = output_size, kernel_size, random_u
        self._return_mask, self._name = return_mask, name

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._kernel_size, self._random_u,
                              self._return_mask, self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class FractionalMaxPool3D(FractionalMaxPool2D):
    """F.fractional_max_pool3d as a layer."""
    _fn = staticmethod(F.fractional_max_pool3d)
