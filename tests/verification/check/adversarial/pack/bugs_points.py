"""Classes 6 and 7, special points of the domain and attributes verified at one value.

tanhx_nan0         x tanh(x) whose backward writes tanh(x) as y / x: NaN at x = 0
sinc_nan0          sin(x) / x without the limit at 0: a removable NaN in forward
softplus_overflow_c  log(1 + exp(x)) in float32 C: inf for x > 88.7, in the declared domain
softplus_overflow  the same in the python kernel, which also runs in float32
leaky_hardcoded    leaky relu whose backward hard-codes the registered alpha = 0.2
softplus_beta_c    the C backward adapter passes the registered beta = 1.5, not ctx.beta
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel, c_pointer

from ._common import (DTYPES, arr, binary_c, c_source, kernel_op, sigmoid, softplus, softplus_op, suffix, ten,
                      unary_c)

SOURCE = c_source("csrc/bugs.c", [
    "void softplus_naive_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void softplus_naive_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
    "void spb_fwd_{S}(const {T} *x, {T} *y, int64_t n, double beta);",
    "void spb_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n, double beta);",
])


class TanhXNan0(opsdk.PyLayer):
    """x * tanh(x)."""

    @staticmethod
    def forward(ctx, x):
        y = x * opsdk.tanh(x)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, y = ctx.saved_tensor()
        t = y / x  # BUG: tanh(x) recovered as y / x, 0 / 0 at x = 0
        return dy * (t + x * (1 - t * t))


class SincNan0(opsdk.PyLayer):
    """sin(x) / x (1 at 0)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(invalid="ignore"):
            return ten((np.sin(arr(x)) / arr(x)).astype(arr(x).dtype))  # BUG: nan at 0

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        xa = arr(x)
        safe = np.where(xa == 0, 1.0, xa)
        d = np.where(xa == 0, 0.0, (np.cos(safe) * safe - np.sin(safe)) / (safe * safe))
        return ten((arr(dy) * d).astype(xa.dtype))


naive_fwd = unary_c("adv.softplus_naive_fwd", SOURCE, "softplus_naive_fwd", softplus)
naive_bwd = binary_c("adv.softplus_naive_bwd", SOURCE, "softplus_naive_bwd",
                     lambda x, dy: (dy * sigmoid(x)).astype(x.dtype))


SoftplusOverflowC = kernel_op("SoftplusOverflowC", naive_fwd, naive_bwd,
                              "softplus; the C kernel uses log(1 + exp(x)).")


class SoftplusOverflow(opsdk.PyLayer):
    """softplus written as log(1 + exp(x)) in NumPy."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(over="ignore"):
            return ten(np.log(1 + np.exp(arr(x))))  # BUG: exp overflows float32 at 88.7

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten((arr(dy) * sigmoid(arr(x))).astype(arr(x).dtype))


class LeakyHardcoded(opsdk.PyLayer):
    """leaky relu; the backward uses 0.2, the value the pack registers, instead of alpha."""

    @staticmethod
    def forward(ctx, x, alpha=0.2):
        ctx.save_for_backward(x)
        xa = arr(x)
        return ten(np.where(xa > 0, xa, alpha * xa).astype(xa.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        xa = arr(x)
        return ten((arr(dy) * np.where(xa > 0, 1.0, 0.2)).astype(xa.dtype))  # BUG


spb_fwd = unary_c("adv.spb_fwd", SOURCE, "spb_fwd", lambda x, *, beta: softplus(x, beta),
                  params=("beta",))
spb_bwd = Kernel("adv.spb_bwd", dtypes=DTYPES)
spb_bwd.python(lambda x, dy, *, beta: (dy * sigmoid(beta * x)).astype(x.dtype))


@spb_bwd.c(SOURCE)
def _(lib, ffi, x, dy, *, beta):
    dx = np.empty_like(x)
    getattr(lib, f"spb_bwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, dy),
                                         c_pointer(ffi, dx, writable=True), x.size,
                                         1.5)  # BUG: the registered beta, not the argument
    return dx


SoftplusBetaC = softplus_op("SoftplusBetaC", spb_fwd, spb_bwd, 1.5)


def register(register):
    """Register the special-point and attribute bugs."""
    spec = [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))]
    wide = [TensorSpec(shape=(3, 4), domain=(-20.0, 100.0))]
    kink = [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0), avoid=(0.0,), min_distance=0.05)]
    register(TanhXNan0, name="tanhx_nan0", inputs=spec, double_backward=True)
    register(SincNan0, name="sinc_nan0", inputs=spec)
    register(SoftplusOverflowC, name="softplus_overflow_c", inputs=wide,
             kernels=(naive_fwd, naive_bwd))
    register(SoftplusOverflow, name="softplus_overflow", inputs=wide)
    register(LeakyHardcoded, name="leaky_hardcoded", inputs=kink, attrs={"alpha": 0.2})
    register(SoftplusBetaC, name="softplus_beta_c", inputs=spec, attrs={"beta": 1.5},
             kernels=(spb_fwd, spb_bwd))
