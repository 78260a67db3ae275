"""opsdk.nn.functional (Paddle's paddle.nn.functional): activations, losses, linear, dropout,
normalization."""
from ...functional.elementwise import sigmoid, tanh
from ...functional.indexing import one_hot
from .activation import gelu, leaky_relu, log_softmax, relu, silu, softmax, swish
from .activation_extra import (celu, elu, glu, hardshrink, hardsigmoid, hardswish, hardtanh,
                               log_sigmoid, logsigmoid, mish, prelu, relu6, selu, softplus,
                               softshrink, softsign, swiglu, tanhshrink, thresholded_relu)
from .attention import scaled_dot_product_attention
from .extension import sequence_mask
from .common import dropout, linear
from .common_extra import bilinear, maxout
from .dropout_extra import *  # noqa: F401,F403  (channel and alpha dropout, rrelu, gumbel)
from .dropout_extra import __all__ as _DROPOUT_EXTRA
from .conv import avg_pool2d, batch_norm, conv1d, conv2d, max_pool2d
from .conv_extra import (avg_pool3d, conv1d_transpose, conv2d_transpose, conv3d,
                         conv3d_transpose, fold, lp_pool1d, lp_pool2d, max_pool3d, unfold)
from .input import embedding, embedding_renorm_  # noqa: F401 (Paddle has it here, outside __all__)
from .loss import cross_entropy, mse_loss
from .loss_metric import *  # noqa: F401,F403  (margin, embedding, likelihood losses)
from .loss_metric import __all__ as _LOSS_METRIC
from .loss_adaptive import adaptive_log_softmax_with_loss, hsigmoid_loss
from .loss_sequence import ctc_loss, rnnt_loss
from .loss_extra import (binary_cross_entropy, binary_cross_entropy_with_logits, kl_div,
                         l1_loss, label_smooth, nll_loss, smooth_l1_loss,
                         softmax_with_cross_entropy, square_error_cost)
from .norm import (cosine_similarity, group_norm, instance_norm, layer_norm,
                   local_response_norm, normalize, rms_norm)
from .padding import pad, zeropad2d
from .resample import interpolate, upsample
from .sampling import affine_grid, grid_sample
from .unpool import max_unpool1d, max_unpool2d, max_unpool3d
from .vision import channel_shuffle, pixel_shuffle, pixel_unshuffle, temporal_shift
from .pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d,
                      adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d, avg_pool1d,
                      fractional_max_pool2d, fractional_max_pool3d, max_pool1d)

__all__ = ["relu", "leaky_relu", "gelu", "silu", "swish", "sigmoid", "tanh", "softmax",
           "log_softmax", "cross_entropy", "mse_loss", "linear", "dropout", "embedding",
           "one_hot", "elu", "selu", "celu", "relu6", "hardtanh", "hardsigmoid", "hardswish",
           "softplus", "softsign", "tanhshrink", "log_sigmoid", "mish", "prelu", "l1_loss",
           "smooth_l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "nll_loss", "kl_div", "layer_norm", "normalize", "hardshrink", "softshrink",
           "thresholded_relu", "glu", "logsigmoid", "cosine_similarity", "square_error_cost",
           "label_smooth", "softmax_with_cross_entropy", "relu_", "elu_", "leaky_relu_",
           "hardtanh_", "softmax_", "thresholded_relu_", "tanh_", "conv1d", "conv2d",
           "max_pool2d", "avg_pool2d", "batch_norm", "max_pool1d", "avg_pool1d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "group_norm",
           "instance_norm", "pad", "zeropad2d", "interpolate", "upsample", *_LOSS_METRIC,
           "bilinear", "maxout", *_DROPOUT_EXTRA, "unfold", "fold", "conv1d_transpose",
           "conv2d_transpose", "rms_norm", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
           "ctc_loss", "adaptive_log_softmax_with_loss", "hsigmoid_loss",
           "rnnt_loss", "local_response_norm", "lp_pool1d",
           "lp_pool2d", "temporal_shift", "max_pool3d", "avg_pool3d",
           "conv3d", "scaled_dot_product_attention", "sequence_mask", "swiglu",
           "conv3d_transpose", "max_unpool1d", "max_unpool2d", "max_unpool3d", "affine_grid",
           "grid_sample", "fractional_max_pool2d", "fractional_max_pool3d"]


def _in_place(fn, name):
    from ...functional.inplace import inplace_method
    method = inplace_method(fn, name)
    method.__doc__ = f"{fn.__name__}(x, ...) written into x (Paddle's {name})."
    return method


# Paddle's in-place activations: the result written into x, which takes its place in the graph
relu_ = _in_place(relu, "relu_")
elu_ = _in_place(elu, "elu_")
leaky_relu_ = _in_place(leaky_relu, "leaky_relu_")
hardtanh_ = _in_place(hardtanh, "hardtanh_")
softmax_ = _in_place(softmax, "softmax_")
thresholded_relu_ = _in_place(thresholded_relu, "thresholded_relu_")
tanh_ = _in_place(tanh, "tanh_")

# Paddle 3.3.1's keyword-only out= (op_args.with_out; softmax_ and tanh_ above keep the plain ops)
from ...functional.op_args import with_out as _with_out  # noqa: E402
sigmoid, tanh, softmax = (_with_out(f, n) for f, n in ((sigmoid, "sigmoid"), (tanh, "tanh"),
                                                       (softmax, "softmax")))
