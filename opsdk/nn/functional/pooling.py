"""max_pool1d, avg_pool1d, the adaptive pools (adaptive_avg_pool1d/2d/3d,
adaptive_max_pool1d/2d/3d) and the fractional max pools (fractional_max_pool2d/3d), with Paddle
3.3.1's windows, divisors and masks.

Like the 2-D pools in conv.py these are references written in core ops, so they differentiate
to any order:

- an average is, along each spatial axis, a matmul with a constant 0/1 window matrix (the
  windows are products of intervals, so summing one axis after the other is exact), then a
  division by Paddle's divisor;
- a maximum is a gather (``take``, whose adjoint ``put`` is a scatter-add, and back) of the
  input at the window's first maximum in scan order, found in NumPy: Paddle's choice, so
  values, gradients and ``return_mask`` indices agree with it, ties included.

The windows along an axis of length L, as Paddle's CPU kernels build them:

- adaptive bins: ``[floor(o * L / out), ceil((o + 1) * L / out))``;
- sliding windows: ``start = o * stride - pad_before``,
  ``end = min(start + kernel, L + pad_before)`` (``L`` for the ``return_mask`` kernel), both
  clipped to ``[0, L)``; the output has ``(L + pads - kernel [+ stride - 1 with ceil_mode]) /
  stride + 1`` places (C division). An average divides by ``end - start`` clipped
  (``exclusive``) or unclipped; a window with no input (possible with ``ceil_mode`` or a pad
  of a whole kernel) averages to NaN and maxes to -FLT_MAX with mask -1, as in Paddle.

Speed: the argmax search and the pooling matrices cost O(N * C * output * window) in NumPy,
fine for tests and small models (write a kernel for more: ``opsdk new-op``).
"""
import math
import numbers

import numpy as np

from ...errors import DTypeError, OpArgumentError, ShapeError
from ...functional.creation import full, to_tensor
from ...functional.flat_index import take
from ...functional.linalg import matmul
from ...functional.logic import where
from ...functional.op_args import aliases
from ...functional.shape import transpose
from ...autograd.record import needs_grad
from ...tensor import Tensor, int_result
from ._graph import float_arg

# Paddle's max kernels start from -FLT_MAX (in every dtype): a window with nothing above it
# gives that value and mask -1
_LOWEST = -float(np.finfo(np.float32).max)

_LAYOUTS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _int(v, op, arg, allow_none=False):
    if v is None and allow_none:
        return None
    if isinstance(v, Tensor) and v.size == 1 and v.array.dtype.kind in "iu":
        return int(v.item())
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return int(v)
    raise DTypeError(f"{op}: argument '{arg}' must hold ints{' or None' if allow_none else ''}; "
                     f"got: {v!r} ({type(v).__name__})")


def _ints(v, n, op, arg, allow_none=False):
    """v (an int, or a list/tuple of n entries) as a list of n ints (None kept if allowed)."""
    if isinstance(v, (list, tuple)):
        if len(v) != n:
            raise OpArgumentError(f"{op}: argument '{arg}' must be an int or {n} ints; "
                                  f"got: {list(v)} ({len(v)} entries)")
        return [_int(i, op, arg, allow_none) for i in v]
    return [_int(v, op, arg)] * n


def _input(x, nd, op):
    x = float_arg(x, op, "x")
    if x.ndim != nd + 2:
        raise ShapeError(f"{op}: expected: x with {nd + 2} dims {_LAYOUTS[nd][0]}; got: shape "
                         f"{list(x.shape)} ({x.ndim} dims)")
    return x


def _spatial_axes(data_format, nd, op):
    first, last = _LAYOUTS[nd]
    if data_format == first:
        return list(range(2, nd + 2))
    if data_format == last:
        return list(range(1, nd + 1))
    raise OpArgumentError(f"{op}: argument 'data_format' must be '{first}' or '{last}'; got: "
                          f"{data_format!r}")


def _adaptive_bins(length, out):
    o = np.arange(out)
    return o * length // out, -(-(o + 1) * length // out)


def _out_sizes(output_size, sizes, op):
    """Adaptive output sizes: an int for every axis, or one entry per axis (None: the input's)."""
    out = _ints(output_size, len(sizes), op, "output_size", allow_none=len(sizes) > 1)
    out = [s if o is None else o for o, s in zip(out, sizes)]
    if any(o < 0 for o in out):
        raise OpArgumentError(f"{op}: argument 'output_size' must be >= 0; got: {output_size}")
    return out


# -- sliding windows (the 1-D pools) ----------------------------------------------------------

def _padding_1d(padding, kernel, stride, length, ceil_mode, op):
    """(pad_before, pad_after, algorithm) from Paddle's 1-D padding forms."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            if ceil_mode:
                raise OpArgumentError(f"{op}: padding='VALID' needs ceil_mode=False; got: "
                                      f"ceil_mode=True")
            return 0, 0, mode
        if mode == "SAME":
            out = -(-length // stride)
            total = max((out - 1) * stride + kernel - length, 0)
            return total // 2, total - total // 2, mode
        raise OpArgumentError(f"{op}: argument 'padding' must be 'SAME', 'VALID', an int or a "
                              f"list; got: {padding!r}")
    if isinstance(padding, (list, tuple)):
        p = list(padding)
        if len(p) == 3 and all(isinstance(i, (list, tuple)) for i in p):
            if any(list(i) != [0, 0] for i in p[:2]):
                raise OpArgumentError(f"{op}: argument 'padding' may not pad the batch or "
                                      f"channel axis; got: {padding}")
            p = list(p[2])
        if len(p) == 1:
            p = p * 2
        if len(p) != 2:
            raise OpArgumentError(f"{op}: argument 'padding' must be an int, [pad], [before, "
                                  f"after] or [[0, 0], [0, 0], [before, after]]; got: {padding}")
        before, after = (_int(i, op, "padding") for i in p)
        return before, after, "EXPLICIT"
    p = _int(padding, op, "padding")
    return p, p, "EXPLICIT"


def _sliding(x, kernel_size, stride, padding, ceil_mode, op, mask_kernel=False):
    """The windows of a 1-D pool: (start0, end0, start, end) arrays over the output places."""
    kernel = _ints(kernel_size, 1, op, "kernel_size")[0]
    stride = kernel if stride is None else _ints(stride, 1, op, "stride")[0]
    if kernel < 1 or stride < 1:
        raise OpArgumentError(f"{op}: arguments 'kernel_size' and 'stride' must be >= 1; got: "
                              f"kernel_size={kernel_size}, stride={stride}")
    length = x.shape[2]
    before, after, algorithm = _padding_1d(padding, kernel, stride, length, ceil_mode, op)
    return sliding_axis(length, kernel, stride, (before, after), algorithm, ceil_mode, op,
                        padding, mask_kernel)


def sliding_axis(length, kernel, stride, pads, algorithm, ceil_mode, op, padding,
                 mask_kernel=False):
    """The windows along one axis of length ``length``, padded by ``pads`` (before, after):
    (start0, end0, start, end) arrays over the output places (see the module docstring)."""
    before, after = pads
    if mask_kernel:
        # Paddle's max-with-index kernel takes one symmetric pad and ignores 'SAME'
        if algorithm == "SAME":
            before = after = 0
        if before != after:
            raise OpArgumentError(f"{op}: return_mask=True needs a symmetric padding; got: "
                                  f"{padding}")
    span = length + before + after - kernel + (stride - 1 if ceil_mode else 0)
    out = int(span / stride) + 1  # C division: toward zero
    if out < 0:
        raise ShapeError(f"{op}: the output would have {out} places (input length {length}, "
                         f"kernel_size {kernel}, stride {stride}, padding {[before, after]})")
    start0 = np.arange(out) * stride - before
    end0 = np.minimum(start0 + kernel, length if mask_kernel else length + before)
    return start0, end0, np.maximum(start0, 0), np.minimum(end0, length)


# -- averages ---------------------------------------------------------------------------------

def _window_matrix(start, end, length):
    """[out, length]: 1 where start[o] <= j < end[o]."""
    j = np.arange(length)
    return ((j >= start[:, None]) & (j < end[:, None])).astype(np.float64)


def _along(x, axis, matrix):
    """x summed along axis by matrix [out, length] (a matmul: exact to any order)."""
    perm = list(range(x.ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    if axis != x.ndim - 1:
        x = transpose(x, perm)
    y = matmul(x, to_tensor(np.ascontiguousarray(matrix.T), dtype=x.dtype))
    return transpose(y, perm) if axis != x.ndim - 1 else y


def _average(x, axes, bins):
    """x averaged over the windows, bins[k] = (start, end, divisor) along axes[k]: the sum
    over the window, then divided by the product of the divisors, as Paddle (0 / 0 is NaN
    there, and no gradient flows through such a window)."""
    divisor = np.ones([1] * x.ndim)
    for axis, (start, end, div) in zip(axes, bins):
        x = _along(x, axis, _window_matrix(start, end, x.shape[axis]))
        shape = [1] * x.ndim
        shape[axis] = len(div)
        divisor = divisor * div.reshape(shape)
    zero = divisor == 0
    y = x / to_tensor(np.where(zero, 1.0, divisor), dtype=x.dtype)
    if zero.any():
        y = where(zero, full([1], np.nan, dtype=x.dtype), y)
    return y


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    """The mean over each window of x [N, C, L]; with ``exclusive`` (the default) the padded
    places are not counted, as in Paddle.

    Example:
        >>> x = opsdk.to_tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]])
        >>> F.avg_pool1d(x, 2).numpy().tolist()
        [[[1.5, 3.5]]]
    """
    op = "avg_pool1d"
    x = _input(x, 1, op)
    start0, end0, start, end = _sliding(x, kernel_size, stride, padding, ceil_mode, op)
    divisor = end - start if exclusive else end0 - start0
    return _average(x, [2], [(start, end, divisor)])


@aliases(input="x")
def adaptive_avg_pool1d(x, output_size, name=None):
    """The mean over ``output_size`` bins of x [N, C, L]: bin o covers
    ``[floor(o * L / out), ceil((o + 1) * L / out))`` (neighbouring bins may overlap).

    Example:
        >>> x = opsdk.to_tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]])
        >>> F.adaptive_avg_pool1d(x, 2).numpy().tolist()
        [[[2.0, 4.0]]]
    """
    return _adaptive_avg(x, output_size, "NCL", 1, "adaptive_avg_pool1d")


@aliases(input="x")
def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """adaptive_avg_pool1d over H and W of x [N, C, H, W] (or NHWC); an output_size entry of
    None keeps that axis' size."""
    return _adaptive_avg(x, output_size, data_format, 2, "adaptive_avg_pool2d")


@aliases(input="x")
def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """adaptive_avg_pool1d over D, H and W of x [N, C, D, H, W] (or NDHWC); an output_size
    entry of None keeps that axis' size."""
    return _adaptive_avg(x, output_size, data_format, 3, "adaptive_avg_pool3d")


def _adaptive_avg(x, output_size, data_format, nd, op):
    axes = _spatial_axes(data_format, nd, op)
    x = _input(x, nd, op)
    sizes = [x.shape[a] for a in axes]
    bins = []
    for length, out in zip(sizes, _out_sizes(output_size, sizes, op)):
        start, end = _adaptive_bins(length, out)
        bins.append((start, end, end - start))
    return _average(x, axes, bins)


# -- maxima -----------------------------------------------------------------------------------

def _argmax(data, windows):
    """For data [N, C, *S] and per spatial axis (start, end) arrays: the flat spatial index
    of each window's first maximum in scan order ([N, C, *out] int64, -1 where no value
    exceeds -FLT_MAX, NaN never does), as Paddle's max kernels choose."""
    n, c, sizes = data.shape[0], data.shape[1], data.shape[2:]
    outs = [len(s) for s, _ in windows]
    if 0 in outs or n * c == 0:
        return np.zeros((n, c, *outs), dtype=np.int64)
    gathered, places, valid = data, [], np.ones((), dtype=bool)
    nd = len(windows)
    for k, ((start, end), length) in enumerate(zip(windows, sizes)):
        width = max(int((end - start).max()), 1)
        pos = start[:, None] + np.arange(width)  # [out_k, width_k]
        ok = pos < end[:, None]
        pos = np.clip(pos, 0, max(length - 1, 0))
        places.append(pos)
        # axis 2 + 2k of gathered becomes (out_k, width_k)
        gathered = np.take(gathered, pos, axis=2 + 2 * k)
        shape = [1] * (2 * nd)
        shape[2 * k], shape[2 * k + 1] = ok.shape
        valid = valid & ok.reshape(shape)
    # [N, C, out_1, w_1, ..., out_d, w_d] -> [N, C, out_1..out_d, w_1..w_d]
    order = [0, 1] + [2 + 2 * k for k in range(nd)] + [3 + 2 * k for k in range(nd)]
    gathered = gathered.transpose(order).reshape(n, c, *outs, -1)
    vorder = [2 * k for k in range(nd)] + [2 * k + 1 for k in range(nd)]
    valid = np.broadcast_to(valid, [d for k in range(nd) for d in places[k].shape])
    valid = valid.transpose(vorder).reshape(*outs, -1)
    lowest = np.asarray(_LOWEST).astype(data.dtype)
    live = valid & (gathered > lowest)  # NaN compares False, as in Paddle's `max < value`
    scores = np.where(live, gathered, -np.inf)
    best = np.argmax(scores, axis=-1)
    found = np.take_along_axis(live, best[..., None], -1)[..., 0]
    widths = [p.shape[1] for p in places]
    offsets = np.unravel_index(best, widths)
    flat = np.zeros(best.shape, dtype=np.int64)
    for k in range(nd):
        grid = [1] * nd
        grid[k] = outs[k]
        out_index = np.arange(outs[k]).reshape(grid)
        flat = flat * sizes[k] + places[k][out_index, offsets[k]]
    return np.where(found, flat, -1)


def _max(x, windows, return_mask, op):
    """x's maxima over windows (per spatial axis (start, end)), and the int32 mask if asked."""
    mask = _argmax(x.numpy(), windows)
    n, c = x.shape[0], x.shape[1]
    spatial = math.prod(x.shape[2:])
    base = (np.arange(n * c, dtype=np.int64) * spatial).reshape(n, c, *[1] * len(windows))
    found = mask >= 0
    y = take(op, x, base + np.where(found, mask, 0), unique=False)
    if not found.all():
        y = where(found, y, full([1], _LOWEST, dtype=x.dtype))
    if return_mask:
        # an int result of an input that needs gradients reports stop_gradient=False in Paddle
        mask = mask.astype(np.int32)
        return y, (int_result(mask) if needs_grad(x) else to_tensor(mask))
    return y


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """The maximum over each window of x [N, C, L] (padding never wins); with
    ``return_mask`` also the int32 index of each maximum along L.

    Example:
        >>> x = opsdk.to_tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]])
        >>> y, mask = F.max_pool1d(x, 2, return_mask=True)
        >>> y.numpy().tolist(), mask.numpy().tolist()
        ([[[3.0, 5.0]]], [[[1, 3]]])
    """
    op = "max_pool1d"
    x = _input(x, 1, op)
    _, _, start, end = _sliding(x, kernel_size, stride, padding, ceil_mode, op,
                                mask_kernel=bool(return_mask))
    return _max(x, [(start, end)], return_mask, op)


@aliases(input="x", return_indices="return_mask")
def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """The maximum over ``output_size`` bins of x [N, C, L] (the bins of adaptive_avg_pool1d);
    with ``return_mask`` also the int32 index of each maximum along L."""
    return _adaptive_max(x, output_size, return_mask, 1, "adaptive_max_pool1d")


@aliases(input="x", return_indices="return_mask")
def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """adaptive_max_pool1d over H and W of x [N, C, H, W]; the mask holds flat indices
    h * W + w. An output_size entry of None keeps that axis' size."""
    return _adaptive_max(x, output_size, return_mask, 2, "adaptive_max_pool2d")


@aliases(input="x", return_indices="return_mask")
def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """adaptive_max_pool1d over D, H and W of x [N, C, D, H, W]; the mask holds flat indices
    (d * H + h) * W + w. An output_size entry of None keeps that axis' size."""
    return _adaptive_max(x, output_size, return_mask, 3, "adaptive_max_pool3d")


def _adaptive_max(x, output_size, return_mask, nd, op):
    x = _input(x, nd, op)
    sizes = x.shape[2:]
    windows = [_adaptive_bins(length, out)
               for length, out in zip(sizes, _out_sizes(output_size, sizes, op))]
    return _max(x, windows, return_mask, op)


# -- fractional max pools ----------------------------------------------------------------------

def _fractional_axis(length, out, kernel, u):
    """The windows (start, end) along an axis of Paddle's fractional max pool: a step
    alpha = (L - kernel) / (out - 1) with a kernel, L / out-ish without (then u is rescaled so
    the windows cover the axis), start_i = int((i + u) alpha) - int(u alpha), end_i = start_i +
    kernel or the next start, both clipped to [0, L]."""
    alpha = (length - kernel) / (out - (1 if kernel > 0 else 0)) if out - (kernel > 0) else 0.0
    if kernel <= 0:
        base = length // out
        u = u * min((base + 2) / alpha - 1, (length + 1 - base) / alpha - (out - 1))
    i = np.arange(out)
    start = ((i + u) * alpha).astype(np.int64) - int(u * alpha)
    if kernel > 0:
        end = start + kernel
    else:
        end = ((i + 1 + u) * alpha).astype(np.int64) - int(u * alpha)
    return np.maximum(start, 0), np.minimum(end, length)


def _fractional_max(x, output_size, kernel_size, random_u, return_mask, nd, op):
    x = _input(x, nd, op)
    if random_u is None:
        from ...functional.creation import get_rng
        random_u = float(get_rng().uniform(np.nextafter(0.0, 1.0), 1.0))
    elif not 0 < random_u < 1:
        raise OpArgumentError(f"{op}: argument 'random_u' must be a float in (0, 1); got: "
                              f"{random_u!r}")
    sizes = list(x.shape[2:])
    kernel = [0] * nd if kernel_size is None else _ints(kernel_size, nd, op, "kernel_size")
    out = _out_sizes(output_size, sizes, op)
    for length, o, k in zip(sizes, out, kernel):
        if length < o - 1 + max(k, 1):
            raise OpArgumentError(f"{op}: an input axis of {length} is too short for "
                                  f"output_size {out} with kernel_size {kernel}; expected: "
                                  f"input >= output - 1 + kernel on each axis")
    windows = [_fractional_axis(length, o, k, float(random_u))
               for length, o, k in zip(sizes, out, kernel)]
    return _max(x, windows, return_mask, op)


def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """The maximum over Graham's fractional windows of x [N, C, H, W] -> output_size (an int,
    or [H_out, W_out] with None keeping an axis): pseudo-random windows of 1 or 2 places (or
    of kernel_size, overlapping) set by random_u in (0, 1) (drawn when None); with
    return_mask also the int32 flat index h * W + w of each maximum.

    Example:
        >>> x = opsdk.to_tensor([[[[2.0, 4.0, 3.0, 1.0, 5.0, 2.0, 3.0]]]])
        >>> F.fractional_max_pool2d(x, [1, 5], random_u=0.3).numpy().ravel().tolist()
        [2.0, 4.0, 1.0, 5.0, 3.0]
    """
    return _fractional_max(x, output_size, kernel_size, random_u, return_mask, 2,
                           "fractional_max_pool2d")


def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """fractional_max_pool2d over D, H and W of x [N, C, D, H, W]; the mask holds flat indices
    (d * H + h) * W + w."""
    return _fractional_max(x, output_size, kernel_size, random_u, return_mask, 3,
                           "fractional_max_pool3d")
