"""layer_norm and normalize, composed of differentiable opsdk ops."""
from ...autograd.record import output_read_by_backward
from ...errors import ShapeError
from ...functional.elementwise import clip, rsqrt
from ...functional.reduction import mean, norm
from ...functional.shape import reshape
from ._graph import float_arg


def _affine_arg(t, arg, shape):
    """layer_norm's weight or bias: 1-D with prod(normalized_shape) elements, as Paddle's
    kernel takes it, returned in normalized_shape to broadcast over x."""
    t = float_arg(t, "layer_norm", arg)
    n = 1
    for s in shape:
        n *= s
    if t.ndim != 1 or t.shape[0] != n:
        raise ShapeError(f"layer_norm: argument '{arg}' must be 1-D with prod(normalized_shape) "
                         f"elements; expected: shape [{n}]; got: {list(t.shape)}")
    return t if len(shape) == 1 else reshape(t, shape)


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-5, name=None):
    """Normalize over the trailing dims given by normalized_shape, then scale and shift.

    y = (x - mean) / sqrt(var + epsilon) * weight + bias, mean and (biased) variance taken over
    the last len(normalized_shape) dims; weight and bias are 1-D with prod(normalized_shape)
    elements (the layout of Paddle's kernel and of LayerNorm's parameters).

    Example:
        >>> y = F.layer_norm(opsdk.to_tensor([[1.0, 2.0, 3.0]]), [3])
        >>> [round(v, 4) for v in y.numpy()[0].tolist()]
        [-1.2247, 0.0, 1.2247]
    """
    x = float_arg(x, "layer_norm")
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    k = len(shape)
    if k == 0 or list(x.shape[x.ndim - k:]) != shape:
        raise ShapeError(f"layer_norm: the last dims of x must be normalized_shape; expected: "
                         f"[..., {', '.join(map(str, shape))}]; got: {list(x.shape)}")
    axes = list(range(x.ndim - k, x.ndim))
    centered = x - mean(x, axis=axes, keepdim=True)
    var = mean(centered * centered, axis=axes, keepdim=True)
    y = centered * rsqrt(var + epsilon)
    if weight is not None:
        y = y * _affine_arg(weight, "weight", shape)
    if bias is not None:
        y = y + _affine_arg(bias, "bias", shape)
    # Paddle's layer_norm backward reads its output: a write into it makes backward refuse
    return output_read_by_backward(y)


def normalize(x, p=2, axis=1, epsilon=1e-12, name=None):
    """x / max(||x||_p along axis, epsilon)."""
    x = float_arg(x, "normalize")
    return x / clip(norm(x, p=p, axis=axis, keepdim=True), min=epsilon)


__all__ = ["layer_norm", "normalize"]


def cosine_similarity(x1, x2, axis=1, eps=1e-8, name=None):
    """sum(x1 * x2) / max(||x1|| ||x2||, eps) along axis."""
    from ...functional.reduction import sum as _sum
    a = float_arg(x1, "cosine_similarity", "x1")
    b = float_arg(x2, "cosine_similarity", "x2")
    denom = clip(norm(a, p=2, axis=axis) * norm(b, p=2, axis=axis), min=eps)
    return _sum(a * b, axis=axis) / denom


__all__ += ["cosine_similarity"]
