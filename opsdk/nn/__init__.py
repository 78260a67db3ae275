"""opsdk.nn: layers, parameters, initializers, gradient clipping (Paddle's paddle.nn)."""
from . import functional, initializer, utils
from .activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Swish, Tanh
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .container import LayerList, Sequential
from .dropout import Dropout
from .embedding import Embedding
from .layer import Layer
from .linear import Linear
from .loss import CrossEntropyLoss, MSELoss
from .param_attr import ParamAttr
from .parameter import Parameter, create_parameter
from .recompute import recompute_sequential
from .sparse_grad import SparseGradTensor, SparseRowGrad

__all__ = ["Layer", "Linear", "Embedding", "Sequential", "LayerList", "ReLU", "LeakyReLU",
           "GELU", "SiLU", "Swish", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Dropout",
           "CrossEntropyLoss", "MSELoss", "ClipGradByGlobalNorm", "ClipGradByNorm",
           "ClipGradByValue", "ParamAttr", "Parameter", "create_parameter",
           "recompute_sequential", "SparseRowGrad", "SparseGradTensor", "functional",
           "initializer", "utils"]
