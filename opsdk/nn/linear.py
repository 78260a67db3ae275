"""nn.Linear: y = x @ W + b, W of shape [in_features, out_features] (Paddle's layout)."""
from ..dtypes import get_default_dtype
from .functional.common import linear
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
