"""The pack's C source and the adapters its ops share: row kernels on a (rows, n) view."""
import os

import numpy as np

from opsdk.kernels import Kernel, c_pointer
from opsdk_adversarial._common import DTYPES, c_source, suffix

SOURCE = c_source(os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc", "regimes.c"), [
    "void rowmax_first_fwd_{S}(const {T} *x, {T} *y, int64_t *idx, int64_t rows, int64_t n);",
    "void rowmax_last_fwd_{S}(const {T} *x, {T} *y, int64_t *idx, int64_t rows, int64_t n);",
    "void nearest_first_fwd_{S}(const {T} *x, const {T} *y, {T} *dist, int64_t *idx, int64_t n, "
    "int64_t m, int64_t d);",
    "void nearest_last_fwd_{S}(const {T} *x, const {T} *y, {T} *dist, int64_t *idx, int64_t n, "
    "int64_t m, int64_t d);",
    "void nearest_bwd_{S}(const {T} *x, const {T} *y, const int64_t *idx, const {T} *g, {T} *gx, "
    "{T} *gy, int64_t n, int64_t m, int64_t d);",
    "void rowsum_wide_{S}(const {T} *x, {T} *y, int64_t rows, int64_t n);",
    "void rowsum_narrow_{S}(const {T} *x, {T} *y, int64_t rows, int64_t n);",
    "void softmax_wide_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t n);",
    "void softmax_wide_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t rows, int64_t n);",
    "void softmax_narrow_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t n);",
    "void softmax_narrow_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t rows, int64_t n);",
    "void softmax_pair_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t n);",
    "void center_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t n);",
    "void huber_fwd_{S}(const {T} *x, {T} *y, int64_t n, double delta);",
    "void huber_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n, double delta);",
    # the table is float64 whatever the inputs' dtype: one function under both names
    "void soft_dtw_table_{S}(const double *D, double *R, int64_t m, int64_t n, double gamma);",
])


def _rows(x):
    """(rows, n) of an array whose last axis is the row."""
    n = x.shape[-1] if x.ndim else 1
    return (x.size // n if n else 0), n


def row_kernel(name, stem, python, inputs=1, outputs=("like",)):
    """A Kernel on ``inputs`` arrays of one shape, row by row along the last axis, calling
    ``<stem>_<f32|f64>(inputs..., outputs..., rows, n)``; each output is ``like`` (the inputs'
    shape), ``row`` (one value per row) or ``index`` (an int64 per row)."""
    kernel = Kernel(name, dtypes=DTYPES)
    kernel.python(python)

    @kernel.c(SOURCE)
    def _(lib, ffi, *arrays):
        arrays = [np.ascontiguousarray(a) for a in arrays[:inputs]]
        x = arrays[0]
        rows, n = _rows(x)
        outs = [np.empty(x.shape if kind == "like" else x.shape[:-1],
                         np.int64 if kind == "index" else x.dtype) for kind in outputs]
        getattr(lib, f"{stem}_{suffix(x)}")(*[c_pointer(ffi, a) for a in arrays],
                                            *[c_pointer(ffi, o, writable=True) for o in outs],
                                            rows, n)
        return outs[0] if len(outs) == 1 else tuple(outs)

    return kernel


def nearest_kernel(name, stem, python):
    """A Kernel on (x[n, d], y[m, d]) -> (squared distance to the nearest y, its index)."""
    kernel = Kernel(name, dtypes=DTYPES)
    kernel.python(python)

    @kernel.c(SOURCE)
    def _(lib, ffi, x, y):
        x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
        dist = np.empty(x.shape[0], x.dtype)
        idx = np.empty(x.shape[0], np.int64)
        getattr(lib, f"{stem}_fwd_{suffix(x)}")(
            c_pointer(ffi, x), c_pointer(ffi, y), c_pointer(ffi, dist, writable=True),
            c_pointer(ffi, idx, writable=True), x.shape[0], y.shape[0], x.shape[1])
        return dist, idx

    return kernel


def nearest_python(tie_last=False):
    """The python nearest neighbour: NumPy's argmin takes the first of equal distances."""
    def nearest(x, y):
        d = ((x[:, None, :].astype(np.float64) - y[None, :, :]) ** 2).sum(-1)
        idx = d.shape[1] - 1 - np.argmin(d[:, ::-1], axis=1) if tie_last else np.argmin(d, axis=1)
        return d[np.arange(len(x)), idx].astype(x.dtype), idx.astype(np.int64)
    return nearest


def nearest_grad_python(x, y, idx, g):
    """Gradients of sum(g * dist) w.r.t. x and y, scattered along the nearest indices."""
    t = 2 * (x - y[idx]) * g[:, None]
    gy = np.zeros_like(y)
    np.add.at(gy, idx, -t)
    return t.astype(x.dtype), gy


def nearest_grad_c(name, buffers=None):
    """A Kernel (x, y, idx, g) -> (gx, gy) whose C backward scatters into gy; ``buffers``: a
    dict the adapter keeps gy in between calls, by shape (the planted bug of nearest_buf_c)."""
    kernel = Kernel(name, dtypes=DTYPES, arg_dtypes={"idx": ("int64",)})
    kernel.python(nearest_grad_python)

    @kernel.c(SOURCE)
    def _(lib, ffi, x, y, idx, g):
        x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
        idx, g = np.ascontiguousarray(idx), np.ascontiguousarray(g)
        gx = np.empty_like(x)
        if buffers is None:
            gy = np.empty_like(y)
        else:
            gy = buffers.setdefault((y.shape, y.dtype.str), np.empty_like(y))
        getattr(lib, f"nearest_bwd_{suffix(x)}")(
            c_pointer(ffi, x), c_pointer(ffi, y), c_pointer(ffi, idx), c_pointer(ffi, g),
            c_pointer(ffi, gx, writable=True), c_pointer(ffi, gy, writable=True),
            x.shape[0], y.shape[0], x.shape[1])
        return gx, gy

    return kernel


def huber_kernels():
    """(forward, backward) Kernels of the Huber loss, python and C, ``delta=``."""
    fwd = Kernel("reg.huber_fwd", dtypes=DTYPES)
    bwd = Kernel("reg.huber_bwd", dtypes=DTYPES)

    @fwd.python
    def _(x, delta):
        a = np.abs(x)
        return np.where(a <= delta, 0.5 * x * x, delta * (a - 0.5 * delta)).astype(x.dtype)

    @bwd.python
    def _(x, dy, delta):
        return (dy * np.clip(x, -delta, delta)).astype(x.dtype)

    @fwd.c(SOURCE)
    def _(lib, ffi, x, delta):
        x = np.ascontiguousarray(x)
        y = np.empty_like(x)
        getattr(lib, f"huber_fwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, y, writable=True),
                                               x.size, float(delta))
        return y

    @bwd.c(SOURCE)
    def _(lib, ffi, x, dy, delta):
        x, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
        dx = np.empty_like(x)
        getattr(lib, f"huber_bwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, dy),
                                               c_pointer(ffi, dx, writable=True), x.size,
                                               float(delta))
        return dx

    return fwd, bwd


def soft_dtw_kernel(python):
    """A Kernel (D float64 [m, n], gamma) -> the soft-DTW table, python and C."""
    kernel = Kernel("reg.soft_dtw_table", dtypes=DTYPES)
    kernel.python(python)

    @kernel.c(SOURCE)
    def _(lib, ffi, D, gamma):
        D = np.ascontiguousarray(D, dtype=np.float64)
        m, n = D.shape
        R = np.empty((m + 2, n + 2))
        lib.soft_dtw_table_f64(c_pointer(ffi, D), c_pointer(ffi, R, writable=True), m, n,
                               float(gamma))
        return R

    return kernel
