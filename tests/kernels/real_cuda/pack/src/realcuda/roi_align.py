"""realcuda.roi_align: mmcv's RoIAlign, average mode (cuda/roi_align.cu).

    fwd(x[N, C, H, W], rois[K, 5], *, pooled, scale, ratio, aligned) -> out[K, C, pooled, pooled]
    bwd(grad_out, rois, *, shape, pooled, scale, ratio, aligned) -> grad_x    (atomicAdd scatter)

rois[k] = (batch index, x1, y1, x2, y2) in input coordinates; ``ratio`` > 0 sample points per
bin side (mmcv's adaptive ratio 0 is not offered).
"""
import numpy

import opsdk
import opsdk.errors
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, cuda_function, launch_1d, tensor_of

from ._common import FLOATS, shipped, variant

NAMES = ("roi_align_fwd_f32", "roi_align_bwd_f32", "roi_align_fwd_f64", "roi_align_bwd_f64")
DEFAULTS = {"zero_grad_input": True}


def _samples(rois, pooled, scale, ratio, aligned, dtype):
    """Per roi: batch index, and the sample grid's y [pooled * ratio] and x [pooled * ratio]."""
    offset = 0.5 if aligned else 0.0
    for r in numpy.asarray(rois, dtype=numpy.float64):
        start_w, start_h = r[1] * scale - offset, r[2] * scale - offset
        width, height = r[3] * scale - offset - start_w, r[4] * scale - offset - start_h
        if not aligned:
            width, height = max(width, 1.0), max(height, 1.0)
        bin_h, bin_w = height / pooled, width / pooled
        steps = (numpy.arange(ratio) + 0.5) / ratio
        ys = start_h + (numpy.arange(pooled)[:, None] + steps[None, :]) * bin_h
        xs = start_w + (numpy.arange(pooled)[:, None] + steps[None, :]) * bin_w
        yield int(r[0]), ys.reshape(-1), xs.reshape(-1)


def _corners(v, size):
    """mmcv's clamping of one coordinate: (low, high, fraction, inside) per sample."""
    inside = (v >= -1.0) & (v <= size)
    v = numpy.maximum(v, 0.0)
    low = numpy.floor(v).astype(numpy.int64)
    edge = low >= size - 1
    low = numpy.where(edge, size - 1, low)
    high = numpy.where(edge, size - 1, low + 1)
    frac = numpy.where(edge, 0.0, v - low)
    return low, high, frac, inside


def _weights(ys, xs, height, width):
    yl, yh, ly, yin = _corners(ys, height)
    xl, xh, lx, xin = _corners(xs, width)
    inside = (yin[:, None] & xin[None, :]).astype(numpy.float64)
    corners = ((yl, xl, (1 - ly)[:, None] * (1 - lx)[None, :]), (yl, xh, (1 - ly)[:, None] * lx[None, :]),
               (yh, xl, ly[:, None] * (1 - lx)[None, :]), (yh, xh, ly[:, None] * lx[None, :]))
    return [(y, x, w * inside) for y, x, w in corners]


def _fwd_python(x, rois, *, pooled, scale, ratio, aligned):
    xh = numpy.asarray(x.get() if hasattr(x, "get") else x, dtype=numpy.float64)
    n, c, height, width = xh.shape
    out = numpy.zeros((len(rois), c, pooled, pooled))
    for k, (b, ys, xs) in enumerate(_samples(_host(rois), pooled, scale, ratio, aligned, x.dtype)):
        acc = numpy.zeros((c, ys.size, xs.size))
        for y, xx, w in _weights(ys, xs, height, width):
            acc += xh[b][:, y[:, None], xx[None, :]] * w
        out[k] = acc.reshape(c, pooled, ratio, pooled, ratio).mean(axis=(2, 4))
    return array_module(x).asarray(out.astype(x.dtype))


def _bwd_python(grad_out, rois, *, shape, pooled, scale, ratio, aligned):
    g = numpy.asarray(_host(grad_out), dtype=numpy.float64)
    n, c, height, width = shape
    grad = numpy.zeros(shape)
    for k, (b, ys, xs) in enumerate(_samples(_host(rois), pooled, scale, ratio, aligned, grad_out.dtype)):
        per_sample = numpy.repeat(numpy.repeat(g[k], ratio, axis=1), ratio, axis=2) / (ratio * ratio)
        for y, xx, w in _weights(ys, xs, height, width):
            numpy.add.at(grad[b], (slice(None), y[:, None], xx[None, :]), per_sample * w)
    return array_module(grad_out).asarray(grad.astype(grad_out.dtype))


def _host(a):
    return a.get() if hasattr(a, "get") else a


def kernels(source=None, options=None, tag=""):
    """The op's two Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("roi_align.cu"), names=NAMES)
    fwd = Kernel(f"realcuda.roi_align_fwd{tag}", dtypes=FLOATS)
    bwd = Kernel(f"realcuda.roi_align_bwd{tag}", dtypes=FLOATS)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    def geometry(dtype, pooled, scale, ratio, aligned, c, h, w):
        return (numpy.int32(pooled), numpy.int32(pooled), numpy.dtype(dtype).type(scale), numpy.int32(ratio),
                numpy.int32(bool(aligned)), numpy.int32(c), numpy.int32(h), numpy.int32(w))

    @fwd.cuda(src)
    def _(module, x, rois, *, pooled, scale, ratio, aligned):
        import cupy

        n, c, h, w = x.shape
        out = cupy.empty((rois.shape[0], c, pooled, pooled), x.dtype)
        if out.size:
            launch_1d(cuda_function(module, "roi_align_fwd", x.dtype), out.size,
                      (numpy.int32(out.size), x, rois, out) + geometry(x.dtype, pooled, scale, ratio, aligned, c, h, w))
        return out

    @bwd.cuda(src)
    def _(module, grad_out, rois, *, shape, pooled, scale, ratio, aligned):
        import cupy

        n, c, h, w = shape
        alloc = cupy.zeros if opts["zero_grad_input"] else cupy.empty
        grad = alloc(tuple(shape), grad_out.dtype)
        if grad_out.size:
            launch_1d(cuda_function(module, "roi_align_bwd", grad_out.dtype), grad_out.size,
                      (numpy.int32(grad_out.size), grad_out, rois, grad)
                      + geometry(grad_out.dtype, pooled, scale, ratio, aligned, c, h, w))
        return grad

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("roi_align"))


class RoIAlign(opsdk.Function):
    """Average of bilinear samples in each of pooled x pooled bins of every roi."""

    _opsdk_qualname = "realcuda.roi_align"

    @staticmethod
    def forward(ctx, x, rois, pooled=3, scale=1.0, ratio=2, aligned=True):
        xa, ra = array_of(x), array_of(rois)
        if xa.ndim != 4 or ra.ndim != 2 or ra.shape[1] != 5:
            raise opsdk.errors.ShapeError(f"realcuda.roi_align: expected x [N, C, H, W] and rois [K, 5]; "
                                          f"got: {list(xa.shape)} and {list(ra.shape)}")
        if int(ratio) < 1:
            raise opsdk.errors.OpArgumentError(f"realcuda.roi_align: ratio must be at least 1; got: {ratio}")
        ctx.attrs = dict(pooled=int(pooled), scale=float(scale), ratio=int(ratio), aligned=bool(aligned))
        ctx.shape, ctx.rois = xa.shape, ra.astype(xa.dtype)
        return tensor_of(K.fwd(xa, ctx.rois, **ctx.attrs))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        g = array_of(dy).astype(ctx.rois.dtype, copy=False)
        return tensor_of(K.bwd(g, ctx.rois, shape=ctx.shape, **ctx.attrs)), None


def calls(rng, dtype, n=2, c=3, h=9, w=11):
    """Kernel calls for the simulator matrix: 5 rois on a 9 x 11 map, two reaching past its edges."""
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    rois = numpy.array([[0, 1.2, 0.7, 6.3, 5.1], [1, 0.0, 0.0, 10.9, 8.9], [1, 6.5, 4.2, 11.6, 9.8],
                        [0, -0.8, 2.0, 3.0, 8.7], [0, 2.5, 2.5, 4.0, 3.1]], dtype=dtype)
    attrs = dict(pooled=3, scale=1.0, ratio=2, aligned=True)
    g = rng.standard_normal((len(rois), c, 3, 3)).astype(dtype)
    return [("fwd", (x, rois), attrs), ("bwd", (g, rois), dict(attrs, shape=(n, c, h, w)))]


def _samples_for_check(rng, dtype):
    from opsdk.packs.registry import Sample

    (_, (x, rois), attrs), _ = calls(rng, dtype, n=2, c=2, h=6, w=7)
    rois = rois * numpy.array([1, 0.6, 0.6, 0.6, 0.6], dtype=dtype)   # inside a 6 x 7 map, mostly
    return [Sample((x, opsdk.to_tensor(rois)), attrs)]


def register(register):
    register(RoIAlign, name="roi_align", samples=_samples_for_check, dtypes=FLOATS, double_backward=False,
             kernels=(K.fwd, K.bwd))
