"""opsdk.nn: layers, parameters, initializers, gradient clipping (Paddle's paddle.nn)."""
from . import functional, initializer, utils
from .attention import MultiHeadAttention
from .activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Swish, Tanh
from .activation_extra import (CELU, ELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish,
                               Hardtanh, LogSigmoid, Mish, PReLU, ReLU6, Softplus, Softshrink,
                               Softsign, Tanhshrink, ThresholdedReLU, Maxout, Softmax2D)
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .common import CosineSimilarity, Flatten, Identity, Unflatten
from .container import LayerDict, LayerList, ParameterDict, ParameterList, Sequential
from .conv import (AvgPool2D, AvgPool3D, BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D,
                   Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose,
                   Fold, LPPool1D, LPPool2D, MaxPool2D, MaxPool3D, Unfold)
from .dropout import AlphaDropout, Dropout, Dropout2D, Dropout3D, FeatureAlphaDropout, RReLU
from .embedding import Embedding
from .layer import Layer
from .linear import Bilinear, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, KLDivLoss, L1Loss, MSELoss,
                   HuberLoss, NLLLoss, SmoothL1Loss)
from .loss import (AdaptiveLogSoftmaxWithLoss, CosineEmbeddingLoss, CTCLoss, GaussianNLLLoss,
                   HingeEmbeddingLoss, HSigmoidLoss, MarginRankingLoss, MultiLabelMarginLoss,
                   MultiLabelSoftMarginLoss, MultiMarginLoss, PairwiseDistance, PoissonNLLLoss,
                   RNNTLoss, SoftMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss)
from .loss import METRIC_LOSSES as _METRIC_LOSSES
from .norm import (GroupNorm, InstanceNorm1D, InstanceNorm2D, InstanceNorm3D, LayerNorm,
                   LocalResponseNorm)
from .padding import *  # noqa: F401,F403  (Pad1D/2D/3D and the fixed-mode ones, with aliases)
from .padding import __all__ as _PADDING_LAYERS
from .param_attr import ParamAttr
from .rnn import GRU, LSTM, RNN, BiRNN, SimpleRNN
from .rnn_cells import GRUCell, LSTMCell, RNNCellBase, SimpleRNNCell
from .resample import Upsample, UpsamplingBilinear2D, UpsamplingNearest2D
from .vision import ChannelShuffle, PixelShuffle, PixelUnshuffle
from .pooling import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D, AdaptiveMaxPool1D,
                      AdaptiveMaxPool2D, AdaptiveMaxPool3D, AvgPool1D, FractionalMaxPool2D,
                      FractionalMaxPool3D, MaxPool1D, MaxUnPool1D, MaxUnPool2D, MaxUnPool3D)
from .parameter import Parameter, create_parameter
from .recompute import recompute_sequential
from .sparse_grad import SparseGradTensor, SparseRowGrad
from .transformer import Transformer, TransformerDecoder, TransformerEncoder
from .transformer_layers import TransformerDecoderLayer, TransformerEncoderLayer

# Paddle's torch-style aliases
Silu = SiLU
Module, ModuleList, ModuleDict = Layer, LayerList, LayerDict
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = (AdaptiveAvgPool1D, AdaptiveAvgPool2D,
                                                           AdaptiveAvgPool3D)
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = (AdaptiveMaxPool1D, AdaptiveMaxPool2D,
                                                           AdaptiveMaxPool3D)
Conv1d, Conv2d, Conv3d = Conv1D, Conv2D, Conv3D
LPPool1d, LPPool2d = LPPool1D, LPPool2D

__all__ = ["Layer", "Linear", "Embedding", "Sequential", "LayerList", "LayerDict",
           "ParameterList", "ReLU", "LeakyReLU", "GELU", "SiLU", "Silu", "Swish", "Sigmoid",
           "Tanh", "Softmax", "LogSoftmax", "ELU", "SELU", "CELU", "ReLU6", "Hardtanh",
           "Hardsigmoid", "Hardswish", "Softplus", "Softsign", "Tanhshrink", "LogSigmoid",
           "Mish", "PReLU", "Hardshrink", "Softshrink", "ThresholdedReLU", "GLU", "Flatten",
           "Unflatten", "Identity", "CosineSimilarity", "Module", "ModuleList", "ModuleDict",
           "LayerNorm", "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D",
           "Dropout", "CrossEntropyLoss", "Conv1D", "Conv2D", "MaxPool2D",
           "AvgPool2D", "BatchNorm1D", "BatchNorm2D", "MaxPool1D", "AvgPool1D",
           "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
           "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d",
           "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss",
           "KLDivLoss", "ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue",
           "ParamAttr", "Parameter", "create_parameter", "recompute_sequential",
           "SparseRowGrad", "SparseGradTensor", "functional", "initializer", "utils",
           "Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D", *_PADDING_LAYERS,
           *_METRIC_LOSSES, "Bilinear", "Dropout2D", "Dropout3D", "AlphaDropout",
           "FeatureAlphaDropout", "RReLU", "Maxout", "Softmax2D", "ParameterDict",
           "Conv1DTranspose", "Conv2DTranspose", "Unfold", "Fold", "PixelShuffle",
           "PixelUnshuffle", "ChannelShuffle", "Conv1d", "Conv2d", "CTCLoss",
           "AdaptiveLogSoftmaxWithLoss", "HSigmoidLoss", "RNNTLoss",
           "BatchNorm", "BatchNorm3D", "LocalResponseNorm",
           "LPPool1D", "LPPool2D", "LPPool1d", "LPPool2d", "MaxPool3D", "AvgPool3D",
           "Conv3D", "Conv3d", "MultiHeadAttention", "TransformerEncoderLayer",
           "TransformerEncoder", "TransformerDecoderLayer", "TransformerDecoder", "Transformer",
           "RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN",
           "LSTM", "GRU", "Conv3DTranspose", "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D",
           "FractionalMaxPool2D", "FractionalMaxPool3D"]
