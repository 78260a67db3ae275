"""Classes 4 and 5, broadcasting along the leading axis only, and non-contiguous inputs.

mul_axis0          x * y whose backward sums a broadcast gradient over axis 0 only (python)
bias_mean_c        bias add whose C backward averages the bias gradient over rows
reshape_write      the python forward writes through out.reshape(-1): a copy on a transposed x
reshape_write_grad the python backward does the same with dx, wrong for non-contiguous dy
ravel_k_c          the Function hands the C kernel x.ravel(order="K") to skip a copy, then
                   reshapes the result in C order
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel, c_pointer

from ._common import DTYPES, arr, binary_c, c_source, reduce_to, suffix, ten, unary_c

SOURCE = c_source("csrc/bugs.c", [
    "void bias_mean_bwd_{S}(const {T} *dy, {T} *db, int64_t rows, int64_t n);",
    "void cube_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void cube_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
])


class MulAxis0(opsdk.PyLayer):
    """x * y; a broadcast gradient is summed over axis 0 only."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return ten(arr(x) * arr(y))

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        g = arr(dz)

        def reduce(grad, shape):
            if grad.shape != tuple(shape):
                grad = grad.sum(axis=0, keepdims=len(shape) == grad.ndim)  # BUG: axis 0 only
            return grad

        return ten(reduce(g * arr(y), x.shape)), ten(reduce(g * arr(x), y.shape))


bias_grad = Kernel("adv.bias_mean_bwd", dtypes=DTYPES)
bias_grad.python(lambda dy: dy.sum(axis=0))


@bias_grad.c(SOURCE)
def _(lib, ffi, dy):
    db = np.empty(dy.shape[1], dy.dtype)
    getattr(lib, f"bias_mean_bwd_{suffix(dy)}")(c_pointer(ffi, dy), c_pointer(ffi, db, writable=True),
                                                dy.shape[0], dy.shape[1])
    return db


class BiasMeanC(opsdk.PyLayer):
    """x + b (b over the rows of a 2-D x); the C bias gradient is a mean over rows."""

    @staticmethod
    def forward(ctx, x, b):
        ctx.shapes = (x.shape, b.shape)
        return ten(arr(x) + arr(b))

    @staticmethod
    def backward(ctx, dy):
        g = np.ascontiguousarray(arr(dy))
        if tuple(ctx.shapes[1]) == g.shape[-1:]:
            db = bias_grad(g.reshape(-1, g.shape[-1]))  # the common bias: one C pass over rows
        else:
            db = reduce_to(g, ctx.shapes[1])
        return ten(reduce_to(g, ctx.shapes[0])), ten(db)


def _softsign(x):
    out = np.empty_like(x)
    out.reshape(-1)[:] = (x / (1 + np.abs(x))).reshape(-1)  # BUG: a copy when x is not C-ordered
    return out


softsign = Kernel("adv.softsign_fwd", dtypes=DTYPES)
softsign.python(_softsign)


class ReshapeWrite(opsdk.PyLayer):
    """softsign x / (1 + |x|); the kernel writes through out.reshape(-1)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ten(softsign(arr(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy / ((1 + opsdk.abs(x)) * (1 + opsdk.abs(x)))


def _softsign_grad(x, dy):
    dx = np.empty_like(dy)
    dx.reshape(-1)[:] = (dy / (1 + np.abs(x)) ** 2).reshape(-1)  # BUG: as above, with dy's layout
    return dx


softsign_grad = Kernel("adv.softsign_grad", dtypes=DTYPES)
softsign_grad.python(_softsign_grad)


class ReshapeWriteGrad(opsdk.PyLayer):
    """softsign whose backward kernel writes through dx.reshape(-1), dx laid out like dy."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x / (1 + opsdk.abs(x))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(softsign_grad(arr(x), arr(dy)))


cube_fwd = unary_c("adv.ravel_cube_fwd", SOURCE, "cube_fwd", lambda x: (x * x * x).astype(x.dtype))
cube_bwd = binary_c("adv.ravel_cube_bwd", SOURCE, "cube_bwd",
                    lambda x, dy: (3 * x * x * dy).astype(x.dtype))


class RavelK(opsdk.PyLayer):
    """x**3 with a C kernel on the flat input, flattened in memory order to skip a copy."""

    @staticmethod
    def forward(ctx, x):
        xa = arr(x)
        ctx.save_for_backward(x)
        flat = xa.ravel(order="K")  # BUG: memory order, then reshaped in C order below
        return ten(cube_fwd(flat).reshape(xa.shape))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(cube_bwd(np.ascontiguousarray(arr(x)), np.ascontiguousarray(arr(dy))))


def register(register):
    """Register the broadcasting and layout bugs."""
    spec = TensorSpec(shape=(3, 4))
    register(MulAxis0, name="mul_axis0", inputs=[spec, spec], reference=lambda x, y: x * y)
    register(BiasMeanC, name="bias_mean_c", inputs=[spec, TensorSpec(shape=(4,))],
             kernels=(bias_grad,), reference=lambda x, b: x + b)
    register(ReshapeWrite, name="reshape_write", inputs=[spec], kernels=(softsign,))
    register(ReshapeWriteGrad, name="reshape_write_grad", inputs=[spec], kernels=(softsign_grad,))
    register(RavelK, name="ravel_k_c", inputs=[spec], kernels=(cube_fwd, cube_bwd))
