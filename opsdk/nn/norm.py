"""LayerNorm: normalization over the trailing dims, with a learned scale and shift."""
import numpy as np

from .functional.norm import layer_norm
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
                 name=None):
        super().__init__()
        shape = [normalized_shape] if isinstance(normalized_shape, int) else list(
            normalized_shape)
        self._normalized_shape = shape
        self._epsilon = epsilon
        flat = [int(np.prod(shape))]
        self.weight = None if weight_attr is False else self.create_parameter(
            flat, attr=weight_attr, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(
            flat, attr=bias_attr, is_bias=True)

    def forward(self, x):
        return layer_norm(x, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"
