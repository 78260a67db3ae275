"""Independent float64 NumPy references for the pack's ops (formulas written afresh, not the
pack's: erf from the math module, softplus through logaddexp, tanh forms instead of sigmoid)."""
import math

import numpy

_erfc = numpy.frompyfunc(math.erfc, 1, 1)
_SQRT_2PI = math.sqrt(2 * math.pi)


def cdf(x):
    return _erfc(-x / math.sqrt(2)).astype(numpy.float64) / 2


def pdf(x):
    return numpy.exp(-x * x / 2) / _SQRT_2PI


def gelu(x):
    return x * cdf(x), cdf(x) + x * pdf(x), pdf(x) * (2 - x * x)


def gelu_tanh(x):
    c, a = math.sqrt(2 / math.pi), 0.044715
    k, dk, ddk = c * (x + a * x ** 3), c * (1 + 3 * a * x * x), 6 * c * a * x
    t = numpy.tanh(k)
    dt = (1 - t * t) * dk
    ddt = -2 * t * dt * dk + (1 - t * t) * ddk
    return 0.5 * x * (1 + t), 0.5 * (1 + t) + 0.5 * x * dt, dt + 0.5 * x * ddt


def _sigmoid(x):
    return numpy.exp(-numpy.logaddexp(0, -x))


def silu(x):
    s = _sigmoid(x)
    return x * s, s * (1 + x * (1 - s)), s * (1 - s) * (2 + x * (1 - 2 * s))


def softplus(x, beta=1.0, threshold=20.0):
    u = beta * x
    s = _sigmoid(u)
    linear = u > threshold
    return (numpy.where(linear, x, numpy.logaddexp(0, u) / beta), numpy.where(linear, 1.0, s),
            numpy.where(linear, 0.0, beta * s * (1 - s)))


def mish(x):
    t = numpy.tanh(numpy.logaddexp(0, x))
    s = _sigmoid(x)
    dt = (1 - t * t) * s
    ddt = -2 * t * dt * s + (1 - t * t) * s * (1 - s)
    return x * t, t + x * dt, 2 * dt + x * ddt


ACTIVATIONS = {"gelu": gelu, "gelu_tanh": gelu_tanh, "silu": silu, "softplus": softplus, "mish": mish}


def softmax(x, axis=-1):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=axis, keepdims=True))


def layer_norm(x, k, weight=None, bias=None, eps=1e-5):
    axes = tuple(range(x.ndim - k, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / numpy.sqrt(var + eps)
    return y * (1 if weight is None else weight) + (0 if bias is None else bias)


def rms_norm(x, k, weight=None, eps=1e-6):
    axes = tuple(range(x.ndim - k, x.ndim))
    y = x / numpy.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return y * (1 if weight is None else weight)


def cross_entropy(x, label, ignore_index=-100, reduction="mean"):
    """x [rows, n], label [rows]."""
    logp = log_softmax(x, -1)
    keep = label != ignore_index
    rows = numpy.arange(len(label))
    loss = numpy.where(keep, -logp[rows, numpy.where(keep, label, 0)], 0.0)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    # Paddle's count: a negative ignore_index (the default) leaves the ignored rows in it
    return loss.sum() / max(int(keep.sum()) if ignore_index >= 0 else len(label), 1)


def numeric_vjp(f, arrays, v, eps=1e-6):
    """d/d(arrays) of sum(f(*arrays) * v) by central differences, in float64."""
    grads = []
    for i, a in enumerate(arrays):
        g = numpy.zeros_like(a)
        for idx in numpy.ndindex(a.shape):
            plus = [b.copy() for b in arrays]
            minus = [b.copy() for b in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = ((f(*plus) * v).sum() - (f(*minus) * v).sum()) / (2 * eps)
        grads.append(g)
    return grads
