"""Correct ops of every kind `opsdk check` meets: it must pass all of them, on every seed.

relu (Paddle's custom relu, python and C, a kink at 0), leaky (a float attribute with a range),
mul (binary, broadcasting, double backward), bias_add (a bias that broadcasts, C forward),
softplus (C, unrolled with its tail, chunked above 65536 elements), rms_norm (rows with a
weight, python and C), lltm (5 inputs, 2 outputs, C cell), max_last (a value and an integer
index output), gather (an integer index input), sqrt (an infinite derivative at the domain's
end). The fixture good pack (tests/fixtures/packs) adds sincos (two outputs, None gradients)
and swish (a positional float argument, double backward), checked by the same checks.
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel, c_pointer

from fixtures.packs import load as load_fixture_pack

from ._common import (DTYPES, arr, binary_c, c_source, kernel_op, reduce_to, sigmoid, softplus, softplus_op,
                      suffix, ten, unary_c)

SOURCE = c_source("csrc/correct.c", [
    "void relu_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void relu_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
    "void softplus_fwd_{S}(const {T} *x, {T} *y, int64_t n, double beta);",
    "void softplus_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n, double beta);",
    "void rms_fwd_{S}(const {T} *x, const {T} *w, {T} *y, {T} *rstd, int64_t rows, int64_t n, "
    "double eps);",
    "void rms_bwd_{S}(const {T} *x, const {T} *w, const {T} *rstd, const {T} *dy, {T} *dx, "
    "{T} *dw, int64_t rows, int64_t n);",
    "void cell_fwd_{S}(const {T} *g, const {T} *old_cell, {T} *new_h, {T} *new_cell, int64_t b, "
    "int64_t s);",
])

# -- relu: Paddle's custom relu, python and C -----------------------------------------------

relu_fwd = unary_c("adv.relu_fwd", SOURCE, "relu_fwd", lambda x: np.maximum(x, 0).astype(x.dtype))
relu_bwd = binary_c("adv.relu_bwd", SOURCE, "relu_bwd", lambda x, dy: np.where(x > 0, dy, 0).astype(x.dtype))


Relu = kernel_op("Relu", relu_fwd, relu_bwd, "max(x, 0); the gradient at 0 is 0.")


def relu_reference(x):
    return opsdk.maximum(x, opsdk.zeros_like(x))


# -- leaky: a float attribute with a declared range ----------------------------------------

class Leaky(opsdk.PyLayer):
    """x where x > 0, alpha * x elsewhere."""

    @staticmethod
    def forward(ctx, x, alpha=0.1):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        xa = arr(x)
        return ten(np.where(xa > 0, xa, alpha * xa).astype(xa.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        xa = arr(x)
        return ten((arr(dy) * np.where(xa > 0, 1.0, ctx.alpha)).astype(xa.dtype))


# -- mul: binary, broadcasting, double backward: the fixture good pack's, registered here too --

Mul = load_fixture_pack("good_pack").Mul


# -- bias_add: the bias broadcasts over rows; C forward --------------------------------------

bias_fwd = Kernel("adv.bias_fwd", dtypes=DTYPES)
bias_fwd.python(lambda x, b: (x + b).astype(x.dtype))


@bias_fwd.c(SOURCE)
def _(lib, ffi, x, b):
    # the C side adds a full row: broadcast the bias to one first (it may be [1] or 0-d)
    full = np.ascontiguousarray(np.broadcast_to(b, x.shape[-1:]))
    rows = np.ascontiguousarray(np.broadcast_to(full, x.shape))
    y = np.empty_like(x)
    np.add(x, rows, out=y)
    return y


class BiasAdd(opsdk.PyLayer):
    """x + b, b broadcast over the leading dimensions."""

    @staticmethod
    def forward(ctx, x, b):
        ctx.shapes = (x.shape, b.shape)
        return ten(bias_fwd(arr(x), arr(b)))

    @staticmethod
    def backward(ctx, dy):
        g = arr(dy)
        return ten(reduce_to(g, ctx.shapes[0])), ten(reduce_to(g, ctx.shapes[1]))


# -- softplus: C, unrolled with its tail, chunked above 65536 elements -----------------------

softplus_fwd = unary_c("adv.softplus_fwd", SOURCE, "softplus_fwd",
                       lambda x, *, beta: softplus(x, beta), params=("beta",))
softplus_bwd = binary_c("adv.softplus_bwd", SOURCE, "softplus_bwd",
                        lambda x, dy, *, beta: (dy * sigmoid(beta * x)).astype(x.dtype),
                        params=("beta",))


Softplus = softplus_op("Softplus", softplus_fwd, softplus_bwd, 1.0)


def softplus_reference(x, beta=1.0):
    z = beta * x
    return (opsdk.maximum(z, opsdk.zeros_like(z)) + opsdk.log(1 + opsdk.exp(-opsdk.abs(z)))) / beta


# -- rms_norm: rows with a weight, python and C ---------------------------------------------

rms_fwd = Kernel("adv.rms_fwd", dtypes=DTYPES)
rms_bwd = Kernel("adv.rms_bwd", dtypes=DTYPES)


@rms_fwd.python
def _(x, w, *, eps):
    rstd = 1 / np.sqrt(np.mean(x.astype(np.float64) ** 2, axis=1) + eps)
    return (x * rstd[:, None] * w).astype(x.dtype), rstd.astype(x.dtype)


@rms_fwd.c(SOURCE)
def _(lib, ffi, x, w, *, eps):
    y, rstd = np.empty_like(x), np.empty(x.shape[0], x.dtype)
    getattr(lib, f"rms_fwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, w),
                                         c_pointer(ffi, y, writable=True),
                                         c_pointer(ffi, rstd, writable=True), x.shape[0],
                                         x.shape[1], eps)
    return y, rstd


@rms_bwd.python
def _(x, w, rstd, dy):
    x64, g, r = x.astype(np.float64), dy.astype(np.float64), rstd.astype(np.float64)[:, None]
    dot = np.sum(g * w * x64, axis=1, keepdims=True)
    dx = g * w * r - x64 * dot * r ** 3 / x.shape[1]
    return dx.astype(x.dtype), np.sum(g * x64 * r, axis=0).astype(x.dtype)


@rms_bwd.c(SOURCE)
def _(lib, ffi, x, w, rstd, dy):
    dx, dw = np.empty_like(x), np.empty_like(w)
    getattr(lib, f"rms_bwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, w), c_pointer(ffi, rstd),
                                         c_pointer(ffi, dy), c_pointer(ffi, dx, writable=True),
                                         c_pointer(ffi, dw, writable=True), x.shape[0], x.shape[1])
    return dx, dw


class RMSNorm(opsdk.PyLayer):
    """x / sqrt(mean(x^2) + epsilon) * weight over the last axis."""

    @staticmethod
    def forward(ctx, x, weight, epsilon=1e-6):
        xa = arr(x)
        rows = xa.reshape(-1, xa.shape[-1])
        w = arr(weight).astype(xa.dtype)
        if w.shape != xa.shape[-1:]:
            raise ValueError(f"rms_norm: weight must have shape {list(xa.shape[-1:])}; "
                             f"got: {list(w.shape)}")
        y, rstd = rms_fwd(np.ascontiguousarray(rows), w, eps=float(epsilon))
        ctx.save_for_backward(x, weight)
        ctx.rstd = rstd
        return ten(y.reshape(xa.shape))

    @staticmethod
    def backward(ctx, dy):
        x, weight = ctx.saved_tensor()
        xa = arr(x)
        rows = np.ascontiguousarray(xa.reshape(-1, xa.shape[-1]))
        g = np.ascontiguousarray(arr(dy).reshape(rows.shape))
        dx, dw = rms_bwd(rows, arr(weight), ctx.rstd, g)
        return ten(dx.reshape(xa.shape)), ten(dw)


def rms_reference(x, weight, epsilon=1e-6):
    return x * opsdk.rsqrt(opsdk.mean(x * x, axis=-1, keepdim=True) + epsilon) * weight


# -- lltm: 5 inputs, 2 outputs; the elementwise cell in C -----------------------------------

cell_fwd = Kernel("adv.cell_fwd", dtypes=DTYPES)


@cell_fwd.python
def _(gates, old_cell):
    s = old_cell.shape[-1]
    i, o = 1 / (1 + np.exp(-gates[:, :s])), 1 / (1 + np.exp(-gates[:, s:2 * s]))
    z = gates[:, 2 * s:]
    c = np.where(z > 0, z, np.expm1(np.minimum(z, 0)))
    new_cell = old_cell + c * i
    return (np.tanh(new_cell) * o).astype(gates.dtype), new_cell.astype(gates.dtype)


@cell_fwd.c(SOURCE)
def _(lib, ffi, gates, old_cell):
    b, s = old_cell.shape
    new_h, new_cell = np.empty_like(old_cell), np.empty_like(old_cell)
    getattr(lib, f"cell_fwd_{suffix(gates)}")(c_pointer(ffi, gates), c_pointer(ffi, old_cell),
                                              c_pointer(ffi, new_h, writable=True),
                                              c_pointer(ffi, new_cell, writable=True), b, s)
    return new_h, new_cell


def lltm_gates(x, w, b, old_h):
    """The gate pre-activations [B, 3S] (arrays)."""
    return np.concatenate([old_h, x], axis=1) @ w.T + b


class LLTM(opsdk.PyLayer):
    """The LLTM cell of PyTorch's custom-op tutorial: (new_h, new_cell)."""

    @staticmethod
    def forward(ctx, input, weights, bias, old_h, old_cell):
        x, w, b, h, c = (arr(t) for t in (input, weights, bias, old_h, old_cell))
        gates = np.ascontiguousarray(lltm_gates(x, w, b, h).astype(x.dtype))
        new_h, new_cell = cell_fwd(gates, np.ascontiguousarray(c))
        ctx.save_for_backward(input, weights, bias, old_h, old_cell)
        ctx.gates, ctx.new_cell = gates, new_cell
        return ten(new_h), ten(new_cell)

    @staticmethod
    def backward(ctx, grad_h, grad_cell):
        input, weights, bias, old_h, old_cell = ctx.saved_tensor()
        x, w, h = arr(input), arr(weights), arr(old_h)
        gates, new_cell = ctx.gates, ctx.new_cell
        s = h.shape[1]
        i, o = 1 / (1 + np.exp(-gates[:, :s])), 1 / (1 + np.exp(-gates[:, s:2 * s]))
        z = gates[:, 2 * s:]
        cand = np.where(z > 0, z, np.expm1(np.minimum(z, 0)))
        gh, gc = arr(grad_h), arr(grad_cell)
        t = np.tanh(new_cell)
        d_o = t * gh
        d_new_cell = (1 - t * t) * o * gh + gc
        d_i, d_cand = cand * d_new_cell, i * d_new_cell
        d_gates = np.concatenate([d_i * i * (1 - i), d_o * o * (1 - o),
                                  d_cand * np.where(z > 0, 1.0, np.exp(np.minimum(z, 0)))], axis=1)
        d_x_all = d_gates @ w
        dtype = x.dtype
        return (ten(d_x_all[:, s:].astype(dtype)), ten((d_gates.T @ np.concatenate([h, x], 1)).astype(dtype)),
                ten(d_gates.sum(axis=0).astype(dtype)), ten(d_x_all[:, :s].astype(dtype)),
                ten(d_new_cell.astype(dtype)))


def lltm_reference(input, weights, bias, old_h, old_cell):
    gates = opsdk.matmul(opsdk.concat([old_h, input], axis=1), weights, transpose_y=True) + bias
    s = old_h.shape[1]
    i = opsdk.sigmoid(gates[:, :s])
    o = opsdk.sigmoid(gates[:, s:2 * s])
    z = gates[:, 2 * s:]
    cand = opsdk.where(z > 0, z, opsdk.exp(opsdk.minimum(z, opsdk.zeros_like(z))) - 1)
    new_cell = old_cell + cand * i
    return opsdk.tanh(new_cell) * o, new_cell


# -- max_last: a value and an integer index -------------------------------------------------

class MaxLast(opsdk.PyLayer):
    """(max over the last axis, its index); the index is not differentiable."""

    @staticmethod
    def forward(ctx, x):
        xa = arr(x)
        index = np.argmax(xa, axis=-1)
        ctx.index, ctx.shape = index, xa.shape
        values = ten(np.take_along_axis(xa, index[..., None], -1)[..., 0].copy())
        indices = ten(index.astype(np.int64))
        ctx.mark_non_differentiable(indices)
        return values, indices

    @staticmethod
    def backward(ctx, dvalues, dindices):
        g = np.zeros(ctx.shape, arr(dvalues).dtype)
        np.put_along_axis(g, ctx.index[..., None], arr(dvalues)[..., None], -1)
        return ten(g)


# -- gather: an integer index input ---------------------------------------------------------

class Gather(opsdk.PyLayer):
    """x[index] along the first axis."""

    @staticmethod
    def forward(ctx, x, index):
        ctx.index, ctx.shape = arr(index).copy(), x.shape
        return ten(arr(x)[arr(index)])

    @staticmethod
    def backward(ctx, dy):
        g = np.zeros(ctx.shape, arr(dy).dtype)
        np.add.at(g, ctx.index, arr(dy))
        return ten(g), None


# -- sqrt: the derivative is infinite at the domain's lower end -----------------------------

class Sqrt(opsdk.PyLayer):
    """sqrt(x) on [0, 4]; at 0 the gradient is inf, as the maths says."""

    @staticmethod
    def forward(ctx, x):
        y = ten(np.sqrt(arr(x)))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        with np.errstate(divide="ignore"):
            return ten((arr(dy) / (2 * arr(y))).astype(arr(y).dtype))


X34 = TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))


def register(register):
    """Register the correct ops."""
    kink = [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0), avoid=(0.0,), min_distance=0.05)]
    register(Relu, name="relu", inputs=kink, kernels=(relu_fwd, relu_bwd), reference=relu_reference)
    register(Leaky, name="leaky", inputs=kink, attrs={"alpha": 0.1},
             attr_ranges={"alpha": (0.01, 0.5)})
    register(Mul, name="mul", inputs=[X34, X34], double_backward=True,
             reference=lambda x, y: x * y)
    register(BiasAdd, name="bias_add", inputs=[X34, TensorSpec(shape=(4,))],
             kernels=(bias_fwd,), reference=lambda x, b: x + b)
    register(Softplus, name="softplus", inputs=[TensorSpec(shape=(3, 4), domain=(-20.0, 20.0))],
             attrs={"beta": 1.5}, kernels=(softplus_fwd, softplus_bwd),
             reference=softplus_reference)
    register(RMSNorm, name="rms_norm",
             inputs=[TensorSpec(shape=(4, 6)), TensorSpec(shape=(6,), domain=(0.5, 1.5))],
             attrs={"epsilon": 1e-6}, kernels=(rms_fwd, rms_bwd), reference=rms_reference)
    register(LLTM, name="lltm",
             inputs=[TensorSpec(shape=(3, 4)), TensorSpec(shape=(15, 9), domain=(-0.5, 0.5)),
                     TensorSpec(shape=(15,), domain=(-0.5, 0.5)), TensorSpec(shape=(3, 5)),
                     TensorSpec(shape=(3, 5))],
             kernels=(cell_fwd,), reference=lltm_reference)
    register(MaxLast, name="max_last", inputs=[X34])
    register(Gather, name="gather",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(4,), integer=True, high=5)])
    register(Sqrt, name="sqrt", inputs=[TensorSpec(shape=(3, 4), domain=(0.0, 4.0),
                                                   avoid=(0.0,), min_distance=0.05)])
