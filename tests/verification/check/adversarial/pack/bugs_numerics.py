"""Classes 2 and 9, tolerances and a reference: errors small enough to pass loose tolerances.

gelu_bwd_const    the python backward types sqrt(2/pi) as 0.7979 (the forward is right)
sigmoid_f32_c     the float32 C forward uses a cheap exp, 0.3 % off
rms_acc32_c       the float64 C forward sums squares in a float
gelu_const_c      0.7979 for sqrt(2/pi) in forward and backward alike, python and C: only the
                  reference sees it
half_inside       the python kernel computes float32 inputs in float16 and casts back
swish_second      double backward whose hand-derived second derivative misses a term
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel, c_pointer

from ._common import DTYPES, arr, binary_c, c_source, suffix, ten, unary_c

SOURCE = c_source("csrc/bugs.c", [
    "void gelu_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void gelu_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
    "void sigmoid_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void rms32_fwd_{S}(const {T} *x, const {T} *w, {T} *y, {T} *rstd, int64_t rows, int64_t n, "
    "double eps);",
])
C = 0.7978845608028654  # sqrt(2 / pi)
A = 0.044715


def _gelu(x, c=C):
    return (0.5 * x * (1 + np.tanh(c * (x + A * x ** 3)))).astype(x.dtype)


def _gelu_grad(x, dy, c=C):
    t = np.tanh(c * (x + A * x ** 3))
    return (dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * A * x * x))).astype(x.dtype)


def gelu_reference(x):
    return 0.5 * x * (1 + opsdk.tanh(C * (x + A * x * x * x)))


class GeluBwdConst(opsdk.PyLayer):
    """gelu (tanh form); the backward's constant is wrong in its 4th digit."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ten(_gelu(arr(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(_gelu_grad(arr(x), arr(dy), c=0.7979))  # BUG: 0.7978845608...


sigmoid_fwd = unary_c("adv.sigmoid_f32_fwd", SOURCE, "sigmoid_fwd",
                      lambda x: (1 / (1 + np.exp(-x))).astype(x.dtype))


class SigmoidF32C(opsdk.PyLayer):
    """sigmoid; the float32 C kernel uses an approximate exp."""

    @staticmethod
    def forward(ctx, x):
        y = ten(sigmoid_fwd(arr(x)))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * y * (1 - y)


rms32_fwd = Kernel("adv.rms32_fwd", dtypes=DTYPES)


@rms32_fwd.python
def _(x, w, *, eps):
    rstd = 1 / np.sqrt(np.mean(x.astype(np.float64) ** 2, axis=1) + eps)
    return (x * rstd[:, None] * w).astype(x.dtype), rstd.astype(x.dtype)


@rms32_fwd.c(SOURCE)
def _(lib, ffi, x, w, *, eps):
    y, rstd = np.empty_like(x), np.empty(x.shape[0], x.dtype)
    getattr(lib, f"rms32_fwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, w),
                                           c_pointer(ffi, y, writable=True),
                                           c_pointer(ffi, rstd, writable=True), x.shape[0],
                                           x.shape[1], eps)
    return y, rstd


class RmsAcc32C(opsdk.PyLayer):
    """rms_norm over the last axis (no weight gradient); the float64 C kernel sums in float."""

    @staticmethod
    def forward(ctx, x, epsilon=1e-6):
        xa = np.ascontiguousarray(arr(x))
        w = np.ones(xa.shape[-1], xa.dtype)
        y, rstd = rms32_fwd(xa.reshape(-1, xa.shape[-1]), w, eps=float(epsilon))
        ctx.save_for_backward(x)
        ctx.rstd = rstd.reshape(xa.shape[:-1] + (1,))
        return ten(y.reshape(xa.shape))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        xa, g, r = arr(x), arr(dy), ctx.rstd
        dot = np.sum(g * xa, axis=-1, keepdims=True)
        return ten((g * r - xa * dot * r ** 3 / xa.shape[-1]).astype(xa.dtype))


gelu_c_fwd = unary_c("adv.gelu_const_fwd", SOURCE, "gelu_fwd", lambda x: _gelu(x, c=0.7979))
gelu_c_bwd = binary_c("adv.gelu_const_bwd", SOURCE, "gelu_bwd",
                      lambda x, dy: _gelu_grad(x, dy, c=0.7979))


class GeluConstC(opsdk.PyLayer):
    """gelu whose forward and backward (python and C) share a constant wrong in its 4th digit."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ten(gelu_c_fwd(arr(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(gelu_c_bwd(arr(x), arr(dy)))


class HalfInside(opsdk.PyLayer):
    """tanh(x) * x; for float32 the kernel computes in float16 ("fast enough")."""

    @staticmethod
    def forward(ctx, x):
        xa = arr(x)
        work = xa.astype(np.float16) if xa.dtype == np.float32 else xa  # BUG: float16 inside
        ctx.save_for_backward(x)
        return ten((np.tanh(work) * work).astype(xa.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        t = opsdk.tanh(x)
        return dy * (t + x * (1 - t * t))


class SwishSecond(opsdk.PyLayer):
    """swish with double backward; the gradient Function's own backward misses a term."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * opsdk.sigmoid(x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return SwishSecondGrad.apply(x, dy)


class SwishSecondGrad(opsdk.PyLayer):
    """dy * swish'(x), differentiable in x and dy."""

    @staticmethod
    def forward(ctx, x, dy):
        ctx.save_for_backward(x, dy)
        s = opsdk.sigmoid(x)
        return dy * (s + x * s * (1 - s))

    @staticmethod
    def backward(ctx, g):
        x, dy = ctx.saved_tensor()
        s = opsdk.sigmoid(x)
        ds = s * (1 - s)
        second = ds * (2 - x * (1 - 2 * s))  # BUG: swish'' = ds (2 + x (1 - 2 s))
        return g * dy * second, g * (s + x * ds)


def register(register):
    """Register the tolerance and reference bugs."""
    spec = [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))]
    register(GeluBwdConst, name="gelu_bwd_const", inputs=spec, reference=gelu_reference)
    register(SigmoidF32C, name="sigmoid_f32_c", inputs=spec, kernels=(sigmoid_fwd,))
    register(RmsAcc32C, name="rms_acc32_c", inputs=[TensorSpec(shape=(4, 6))],
             attrs={"epsilon": 1e-6}, kernels=(rms32_fwd,))
    register(GeluConstC, name="gelu_const_c", inputs=spec, kernels=(gelu_c_fwd, gelu_c_bwd),
             reference=gelu_reference)
    register(HalfInside, name="half_inside", inputs=spec,
             reference=lambda x: opsdk.tanh(x) * x)
    register(SwishSecond, name="swish_second", inputs=spec, double_backward=True,
             reference=lambda x: x * opsdk.sigmoid(x))
