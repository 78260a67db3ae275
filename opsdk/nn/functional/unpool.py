"""max_unpool1d/2d/3d: the partial inverse of max pooling, with Paddle 3.3.1's sizes and checks.

Each value of x goes to its index (the flat position d * H * W + h * W + w in its own
(sample, channel) plane, as max_pool*d(return_mask=True) gives it) in a zero output. Where an
index repeats, the last value wins, as in Paddle's CPU kernel, and the gradient of every one of
them is the output gradient at that index (Paddle's rule). The op is one scatter whose gradient
is a gather (``take``), differentiable again.

The output's spatial size is ``(in - 1) * stride + kernel - 2 * padding`` per axis, or
``output_size`` (the spatial sizes, or those with N and C in front), which must lie strictly
within ``stride`` of that size. max_unpool1d runs as a 2-D unpool over a height of 1, as Paddle
does, so its padding forms and output_size keep Paddle's quirks: an asymmetric pair, 'SAME' and
'VALID' count as no padding, and output_size must be [N, C, L].
"""
import numpy as np

from ...autograd.record import record
from ...errors import DTypeError, NoKernelDTypeError, OpArgumentError, ShapeError
from ...functional.flat_index import taken
from ...functional.shape import squeeze, unsqueeze
from ...tensor import tensor_arg
from .pooling import _padding_1d as _pool_padding_1d

_LAYOUT = {1: ("NCL", "[N, C, L]"), 2: ("NCHW", "[N, C, H, W]"), 3: ("NCDHW", "[N, C, D, H, W]")}


def _ints(v, n, op, arg):
    """Paddle's convert_to_list: an int for every axis, or n ints."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [int(v)] * n
    if not isinstance(v, (list, tuple)) or len(v) != n or not all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in v):
        raise OpArgumentError(f"{op}: argument '{arg}' must be an int or {n} ints; got: {v!r}")
    return [int(i) for i in v]


def _padding_1d(padding, op):
    """The length axis' padding as Paddle's max_unpool1d counts it (see the module docstring):
    a symmetric pair's pad, 0 for an asymmetric pair, 'SAME' or 'VALID'."""
    before, after, algorithm = _pool_padding_1d(padding, 1, 1, 1, False, op)
    return before if algorithm == "EXPLICIT" and before == after else 0


def _output_size(sizes, kernel, stride, padding, output_size, op):
    default = [(s - 1) * st + k - 2 * p for s, k, st, p in zip(sizes, kernel, stride, padding)]
    if output_size is None:
        return default
    if not isinstance(output_size, (list, tuple)):
        raise OpArgumentError(f"{op}: argument 'output_size' must be None, a list or a tuple; "
                              f"got: {output_size!r}")
    out = [int(v.item()) if hasattr(v, "item") else int(v) for v in output_size]
    n = len(kernel)
    if len(out) == n + 2:
        out = out[2:]
    if len(out) != n:
        raise OpArgumentError(f"{op}: argument 'output_size' must hold {n} or {n + 2} sizes; "
                              f"got: {list(output_size)}")
    for d, (o, base, st) in enumerate(zip(out, default, stride)):
        if not base - st < o < base + st:
            raise OpArgumentError(f"{op}: invalid output_size {out}: dim {d} must lie strictly "
                                  f"between {base - st} and {base + st}")
    return out


def _unpool(x, indices, kernel_size, stride, padding, output_size, op, nd):
    """x [N, C, *S] scattered to indices in zero planes of the output's spatial size."""
    x, indices = tensor_arg(x, op, "x"), tensor_arg(indices, op, "indices")
    for arg, t in (("x", x), ("indices", indices)):
        if t.ndim != nd + 2:
            raise ShapeError(f"{op}: argument '{arg}' must be {_LAYOUT[nd][1]}; got: shape "
                             f"{list(t.shape)}")
    if list(x.shape) != list(indices.shape):
        raise ShapeError(f"{op}: x and indices must have one shape; got: {list(x.shape)} and "
                         f"{list(indices.shape)}")
    if x.array.dtype.name not in ("float32", "float64", "int64"):
        raise NoKernelDTypeError(f"{op}: argument 'x' must be float32, float64 or int64 (Paddle "
                                 f"has no other kernel); got: {x.array.dtype}")
    if indices.array.dtype.kind not in "iu":
        raise DTypeError(f"{op}: argument 'indices' must be an integer tensor (the mask of "
                         f"max_pool with return_mask=True); got: {indices.array.dtype}")
    kernel = _ints(kernel_size, nd, op, "kernel_size")
    stride = kernel if stride is None else _ints(stride, nd, op, "stride")
    sizes = _output_size(list(x.shape[2:]), kernel, stride, padding, output_size, op)
    plane = int(np.prod(sizes, dtype=np.int64))
    idx = np.asarray(indices.numpy(), dtype=np.int64)
    bad = (idx < 0) | (idx >= plane)
    if bad.any():
        raise OpArgumentError(f"{op}: every index must lie in [0, {plane}) (the output's "
                              f"spatial size {sizes}); got: {int(idx[bad].flat[0])}")
    n, c = x.shape[0], x.shape[1]
    flat = idx + (np.arange(n * c, dtype=np.int64) * plane).reshape([n, c] + [1] * nd)
    # the last value written to a position wins, as in Paddle's kernel
    order = flat.reshape(-1)[::-1]
    _, last = np.unique(order, return_index=True)
    keep = order.size - 1 - last
    out = np.zeros(n * c * plane, dtype=x.array.dtype)
    out[flat.reshape(-1)[keep]] = x.array.reshape(-1)[keep]
    return record(op, out.reshape([n, c] + sizes), (x,), _UNPOOL, (flat, op))


# every value's gradient is the output gradient at its index (repeated indices included)
_UNPOOL = (lambda g, flat, op: taken(g, flat, unique=False, name=op),)


def _layout(data_format, nd, op):
    if data_format != _LAYOUT[nd][0]:
        raise OpArgumentError(f"{op}: argument 'data_format' must be {_LAYOUT[nd][0]!r}; got: "
                              f"{data_format!r}")


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """x [N, C, L] put at its indices (from max_pool1d(..., return_mask=True)) in zeros of
    length (L - 1) * stride + kernel_size - 2 * padding, or output_size [N, C, L_out].

    Example:
        >>> y, i = F.max_pool1d(opsdk.to_tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2, return_mask=True)
        >>> F.max_unpool1d(y, i, 2).numpy().tolist()
        [[[0.0, 3.0, 2.0, 0.0]]]
    """
    op = "max_unpool1d"
    _layout(data_format, 1, op)
    x = tensor_arg(x, op, "x")
    if x.ndim != 3:
        raise ShapeError(f"{op}: argument 'x' must be [N, C, L]; got: shape {list(x.shape)}")
    k = [1, _ints(kernel_size, 1, op, "kernel_size")[0]]
    s = k if stride is None else [1, _ints(stride, 1, op, "stride")[0]]
    if output_size is not None and isinstance(output_size, (list, tuple)):
        output_size = list(output_size[:2]) + [1] + list(output_size[2:])
    y = _unpool(unsqueeze(x, 2), unsqueeze(tensor_arg(indices, op, "indices"), 2), k, s,
                [0, _padding_1d(padding, op)], output_size, op, 2)
    return squeeze(y, 2)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """x [N, C, H, W] put at its indices (flat h * W_out + w, from max_pool2d(...,
    return_mask=True)) in zeros of the spatial size (in - 1) * stride + kernel_size
    - 2 * padding per axis, or output_size ([H, W] or [N, C, H, W]).

    Example:
        >>> x = opsdk.to_tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
        >>> y, i = F.max_pool2d(x, 2, return_mask=True)
        >>> F.max_unpool2d(y, i, 2).numpy().tolist()
        [[[[0.0, 0.0], [4.0, 0.0]]]]
    """
    op = "max_unpool2d"
    _layout(data_format, 2, op)
    return _unpool(x, indices, kernel_size, stride, _ints(padding, 2, op, "padding"),
                   output_size, op, 2)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """x [N, C, D, H, W] put at its indices (flat (d * H_out + h) * W_out + w, from
    max_pool3d(..., return_mask=True)) in zeros, sized as max_unpool2d's."""
    op = "max_unpool3d"
    _layout(data_format, 3, op)
    return _unpool(x, indices, kernel_size, stride, _ints(padding, 3, op, "padding"),
                   output_size, op, 3)


__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]
