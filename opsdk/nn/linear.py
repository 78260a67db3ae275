"""nn.Linear: y = x @ W + b, W of shape [in_features, out_features] (Paddle's layout);
nn.Bilinear."""
from ..dtypes import get_default_dtype
from .functional.common import linear
from .functional.common_extra import bilinear
from .layer import Layer


class Linear(Layer):
    """A fully connected layer.

    Args:
        in_features: size of the last axis of the input.
        out_features: size of the last axis of the output.
        weight_attr: ParamAttr or initializer for the weight (XavierUniform by default).
        bias_attr: ParamAttr or initializer for the bias (zeros by default); False for no bias.

    Example:
        >>> fc = opsdk.nn.Linear(784, 10)
        >>> fc(opsdk.randn([64, 784])).shape
        paddle.Size([64, 10])
    """

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._dtype = get_default_dtype()
        self.in_features = int(in_features)
        self.out_features = int(out_features)
        self.weight = self.create_parameter([self.in_features, self.out_features],
                                            attr=weight_attr, is_bias=False)
        if bias_attr is False:
            self.bias = None
        else:
            self.bias = self.create_parameter([self.out_features], attr=bias_attr, is_bias=True)

    def forward(self, x):
        return linear(x, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, " \
               f"dtype={self._dtype}"


class Bilinear(Layer):
    """out[n, o] = x1[n] . weight[o] . x2[n] + bias[0, o] (``F.bilinear``).

    Args:
        in1_features, in2_features: the sizes of x1's and x2's last axis.
        out_features: the output size.
        weight_attr: ParamAttr or initializer for weight [out, in1, in2] (XavierUniform).
        bias_attr: for bias [1, out] (zeros); False for no bias.

    Example:
        >>> opsdk.nn.Bilinear(3, 4, 5)(opsdk.randn([2, 3]), opsdk.randn([2, 4])).shape
        paddle.Size([2, 5])
    """

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None):
        super().__init__()
        self._dtype = get_default_dtype()
        self._in1_features, self._in2_features = int(in1_features), int(in2_features)
        self._out_features = int(out_features)
        self._name = name
        self.weight = self.create_parameter(
            [self._out_features, self._in1_features, self._in2_features], attr=weight_attr,
            is_bias=False)
        self.bias = None if bias_attr is False else self.create_parameter(
            [1, self._out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1, x2):
        return bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return f"in1_features={self._in1_features}, in2_features={self._in2_features}, " \
               f"out_features={self._out_features}, dtype={self._dtype}{name}"
