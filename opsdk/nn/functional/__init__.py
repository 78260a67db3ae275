"""opsdk.nn.functional (Paddle's paddle.nn.functional): activations, losses, linear, dropout."""
from ...functional.elementwise import sigmoid, tanh
from ...functional.indexing import one_hot
from .activation import gelu, leaky_relu, log_softmax, relu, silu, softmax, swish
from .common import dropout, linear
from .input import embedding
from .loss import cross_entropy, mse_loss

__all__ = ["relu", "leaky_relu", "gelu", "silu", "swish", "sigmoid", "tanh", "softmax",
           "log_softmax", "cross_entropy", "mse_loss", "linear", "dropout", "embedding",
           "one_hot"]
