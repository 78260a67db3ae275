"""Drop-in replacements for ``paddle.nn.functional`` ops, backed by the pack's fused kernels.

Same names, arguments and defaults as Paddle (and ``opsdk.nn.functional``)::

    import opsdk_nn.functional as F
    y = F.gelu(x)                                   # erf form; approximate=True: tanh form
    loss = F.cross_entropy(logits, labels)          # fused log_softmax + NLL

``opsdk.ops.nn.<name>`` reaches the same ops through the plugin registry.
"""
import opsdk
from opsdk.errors import OpArgumentError
from opsdk.functional.inplace import inplace_method
from opsdk.functional.op_args import with_out

from .ops.activations import Gelu, Mish, Silu, Softplus
from .ops.cross_entropy import CrossEntropy
from .ops.norms import LayerNorm, RMSNorm
from .ops.softmax import LogSoftmax, Softmax

__all__ = ["gelu", "silu", "softplus", "mish", "softmax", "log_softmax", "layer_norm", "rms_norm",
           "cross_entropy"]


def gelu(x, approximate=False, name=None):
    """GELU activation: ``x * Phi(x)``, or its tanh approximation with ``approximate=True``.

    Args:
        x: float Tensor.
        approximate: False for the exact (erf) form, True for the tanh form.

    Returns:
        Tensor like x.

    Example:
        >>> F.gelu(opsdk.to_tensor([-1.0, 0.0, 1.0])).numpy()
        array([-0.15865526,  0.        ,  0.8413447 ], dtype=float32)
    """
    return Gelu.apply(x, approximate)


def silu(x, inplace=False, name=None):
    """SiLU (swish) activation ``x * sigmoid(x)``.

    Args:
        x: float Tensor.
        inplace: write the result into x (Paddle refuses a leaf that needs a gradient).

    Returns:
        Tensor like x.

    Example:
        >>> F.silu(opsdk.to_tensor([0.0, 1.0])).numpy()
        array([0.       , 0.7310586], dtype=float32)
    """
    if inplace:
        return _silu_(x)
    return Silu.apply(x)


_silu_ = inplace_method(lambda x: Silu.apply(x), "silu_")


def softplus(x, beta=1, threshold=20, name=None):
    """Softplus ``log(1 + exp(beta x)) / beta``; x itself where ``beta x > threshold``.

    Args:
        x: float Tensor.
        beta: non-zero scale.
        threshold: above ``beta x > threshold`` the function is the identity.

    Returns:
        Tensor like x.

    Example:
        >>> F.softplus(opsdk.to_tensor([0.0])).numpy()
        array([0.6931472], dtype=float32)
    """
    return Softplus.apply(x, beta, threshold)


def mish(x, name=None):
    """Mish activation ``x * tanh(softplus(x))``.

    Args:
        x: float Tensor.

    Returns:
        Tensor like x.

    Example:
        >>> round(F.mish(opsdk.to_tensor([1.0])).item(), 6)
        0.865098
    """
    return Mish.apply(x)


def _cast(x, dtype):
    import opsdk

    return x if dtype is None else opsdk.cast(x, dtype)


def _softmax(x, axis=-1, dtype=None, name=None):
    """Softmax along ``axis``, stable for inputs of any magnitude.

    Args:
        x: float Tensor.
        axis: the axis that sums to 1.
        dtype: cast x to this dtype first (as Paddle does).

    Returns:
        Tensor like x.

    Example:
        >>> F.softmax(opsdk.to_tensor([1e4, 0.0])).numpy()
        array([1., 0.], dtype=float32)
    """
    return Softmax.apply(_cast(x, dtype), axis)


# Paddle 3.3.1's keyword-only out= (the result written into a given tensor), as the core's
softmax = with_out(_softmax, "softmax")


def log_softmax(x, axis=-1, dtype=None, name=None):
    """Log of softmax along ``axis``, computed without taking the log of an underflowed 0.

    Args:
        x: float Tensor.
        axis: the softmax axis.
        dtype: cast x to this dtype first.

    Returns:
        Tensor like x.

    Example:
        >>> F.log_softmax(opsdk.to_tensor([1e4, 0.0])).numpy()
        array([     0., -10000.], dtype=float32)
    """
    return LogSoftmax.apply(_cast(x, dtype), axis)


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Layer normalization over the trailing ``normalized_shape`` dimensions.

    Args:
        x: float Tensor.
        normalized_shape: int or list: the trailing dims to normalize over.
        weight: optional scale, one value per normalized element.
        bias: optional shift, one value per normalized element.
        epsilon: added to the variance.

    Returns:
        Tensor like x.

    Example:
        >>> F.layer_norm(opsdk.to_tensor([[1.0, 3.0]]), 2).numpy()
        array([[-0.999995,  0.999995]], dtype=float32)
    """
    return LayerNorm.apply(x, normalized_shape, weight, bias, epsilon)


def rms_norm(input, normalized_shape, weight=None, eps=1e-05, name=None):
    """RMS normalization ``input * invvar * weight``, ``invvar = 1 / sqrt(mean(input^2) + eps)``
    over the trailing dims, as Paddle's (and the core's) ``rms_norm``.

    Args:
        input: float Tensor.
        normalized_shape: int or list: the trailing dims to normalize over.
        weight: optional scale, one value per normalized element.
        eps: added to the mean square.

    Returns:
        ``(out, invvar)``: out like input (the fused kernel), invvar shaped like input without
        the normalized dims (composed of core ops, as the core's).

    Example:
        >>> out, invvar = F.rms_norm(opsdk.to_tensor([[3.0, 4.0]]), 2, eps=1e-6)
        >>> out.numpy(), invvar.shape
        (array([[0.8485281, 1.1313708]], dtype=float32), paddle.Size([1]))
    """
    out = RMSNorm.apply(input, normalized_shape, weight, eps)
    k = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    axes = list(range(input.ndim - k, input.ndim))
    return out, opsdk.rsqrt(opsdk.mean(input * input, axis=axes) + eps)


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                  axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Cross entropy of logits and integer labels: fused log_softmax + negative log-likelihood.

    Args:
        input: float Tensor of logits, classes along ``axis``.
        label: int Tensor of class indices: input's shape without ``axis`` (or with 1 there).
        ignore_index: rows with this label add no loss; the mean leaves them out of its count
            when ignore_index >= 0 and counts them when it is negative (the default), as Paddle.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (per-row losses, label's shape).
        axis: the class axis.
        weight, soft_label, use_softmax, label_smoothing: only their defaults are supported.

    Returns:
        0-D Tensor (mean, sum) or a Tensor of label's shape (none).

    Example:
        >>> logits = opsdk.to_tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> float(F.cross_entropy(logits, opsdk.to_tensor([0, 1])))
        0.12692804634571075
    """
    for arg, value, default in (("weight", weight, None), ("soft_label", soft_label, False),
                                ("use_softmax", use_softmax, True),
                                ("label_smoothing", label_smoothing, 0.0)):
        if value != default if default is not None else value is not None:
            raise OpArgumentError(f"nn.cross_entropy: argument '{arg}' is not supported by the fused "
                                  f"kernel; expected: {default!r}; got: {value!r}")
    return CrossEntropy.apply(input, label, ignore_index, reduction, axis)
