"""The pack's maths written with core opsdk ops: each op's ``reference=`` for ``opsdk check``.

`opsdk check` compares every op's forward, gradients and second derivatives with the autograd
of these, in float64: an independent derivation of what the fused kernels and hand-written
backward rules compute. Same signatures as the ops' forwards (without ctx).
"""
import math

import numpy

import opsdk as P


def gelu(x, approximate=False):
    if approximate in (True, "tanh"):
        return 0.5 * x * (1 + P.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)))
    return 0.5 * x * (1 + P.erf(x / math.sqrt(2)))


def silu(x):
    return x * P.sigmoid(x)


def _softplus(z):
    """log(1 + exp(z)) without overflow."""
    return P.maximum(z, P.zeros_like(z)) + P.log(1 + P.exp(-P.abs(z)))


def softplus(x, beta=1.0, threshold=20.0):
    z = beta * x
    return P.where(z > threshold, x, _softplus(z) / beta)


def mish(x):
    return x * P.tanh(P.where(x > 20.0, x, _softplus(x)))


def log_softmax(x, axis=-1):
    return x - P.logsumexp(x, axis=axis, keepdim=True)


def softmax(x, axis=-1):
    return P.exp(log_softmax(x, axis))


def _normalized_axes(x, normalized_shape):
    k = 1 if isinstance(normalized_shape, (int, numpy.integer)) else len(normalized_shape)
    return list(range(x.ndim - k, x.ndim)), [x.shape[a] for a in range(x.ndim - k, x.ndim)]


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05):
    axes, shape = _normalized_axes(x, normalized_shape)
    xc = x - P.mean(x, axis=axes, keepdim=True)
    y = xc * P.rsqrt(P.mean(xc * xc, axis=axes, keepdim=True) + epsilon)
    if weight is not None:
        y = y * P.reshape(weight, shape)
    if bias is not None:
        y = y + P.reshape(bias, shape)
    return y


def rms_norm(x, normalized_shape, weight=None, epsilon=1e-06):
    axes, shape = _normalized_axes(x, normalized_shape)
    y = x * P.rsqrt(P.mean(x * x, axis=axes, keepdim=True) + epsilon)
    return y if weight is None else y * P.reshape(weight, shape)


def cross_entropy(input, label, ignore_index=-100, reduction="mean", axis=-1):
    axis = axis % input.ndim
    labels = numpy.asarray(label.numpy())
    if labels.ndim == input.ndim:
        labels = labels.squeeze(axis)
    valid = labels != ignore_index
    classes = input.shape[axis]
    one_hot = numpy.moveaxis(numpy.eye(classes)[numpy.where(valid, labels, 0)] * valid[..., None],
                             -1, axis)
    picked = P.sum(log_softmax(input, axis) * P.to_tensor(one_hot.astype(input.numpy().dtype)),
                   axis=axis)
    loss = -picked
    if reduction == "none":
        return loss
    total = P.sum(loss)
    # Paddle's count: a negative ignore_index (the default) leaves the ignored rows in it
    count = float(valid.sum()) if ignore_index >= 0 else float(valid.size)
    return total if reduction == "sum" else total / max(count, 1.0)


REFERENCES = {"gelu": gelu, "silu": silu, "softplus": softplus, "mish": mish, "softmax": softmax,
              "log_softmax": log_softmax, "layer_norm": layer_norm, "rms_norm": rms_norm,
              "cross_entropy": cross_entropy}
