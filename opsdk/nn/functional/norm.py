"""layer_norm and normalize, composed of differentiable opsdk ops."""
from ...errors import ShapeError
from ...functional.elementwise import clip, rsqrt
from ...functional.reduction import mean, norm
from ._graph import float_arg


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-5, name=None):
    """Normalize over the trailing dims given by normalized_shape, then scale and shift.

    y = (x - mean) / sqrt(var + epsilon) * weight + bias, mean and (biased) variance taken over
    the last len(normalized_shape) dims.

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
        y = y * float_arg(weight, "layer_norm", "weight")
    if bias is not None:
        y = y + float_arg(bias, "layer_norm", "bias")
    return y


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
