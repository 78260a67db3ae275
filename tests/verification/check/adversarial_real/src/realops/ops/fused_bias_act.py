"""realops.fused_bias_act: bias + activation + gain, fused, with a second-order backward.

Ported from NVlabs/stylegan2-ada-pytorch, torch_utils/ops/bias_act.py and bias_act.cu
(``_bias_act_cuda``: ``BiasActCuda`` whose backward is ``BiasActCudaGrad``, a Function of its
own whose backward gives the second-order terms): the maths and the structure, written anew with
python, C (fused_bias_act.c) and CUDA (fused_bias_act.cu) kernels::

    y  = act(x + b) * gain             b [C] along axis 1 of x [N, C, ...]
    dx = dy * act'(x + b) * gain;      db = dx summed over every axis but 1
    second order (BiasActGrad's backward): d_dy = d_dx * act'(x + b) * gain,
                                           d_x  = d_dx * dy * act''(x + b) * gain,  d_b = sum of d_x

act is ``"linear"``, ``"lrelu"`` (slope alpha below 0) or ``"swish"`` (x sigmoid(x)), with the
source's codes 1, 3, 9. Like the source it supports first and second order, not third
(``BiasActGrad.backward`` is once_differentiable).

Bug variants:

- ``fused_bias_act_bug_grad2_gain``: the second-order term forgets the gain (every backend).
- ``fused_bias_act_bug_db_channels_last``: the python bias gradient is
  ``dx.reshape(-1, C).sum(0)``, right for channels-last activations, silently wrong for x
  ``[N, C, S]`` (a broadcast reduction over the wrong axes).
- ``fused_bias_act_bug_c_db_f32``: the C bias gradient of float32 sums in a float accumulator.
- ``fused_bias_act_bug_c_dx_buffer``: the C backward adapter hands out one module-level dx buffer
  per shape (allocated once, "to save allocations"), so every call returns the same memory.
- ``fused_bias_act_bug_swish_unguarded``: swish' as ``c (z + d) / d^2`` with ``c = exp(z)``
  (the source's form) without the source's ``z > 40`` guard: NaN for large pre-activations, in
  python and C.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import (CSource, CudaSource, Kernel, array_module, array_of, c_function, c_pointer,
                           cuda_function, launch_1d, outputs, tensor_of)

ACTS = {"linear": 1, "lrelu": 3, "swish": 9}

_CDEF = "\n".join(f"""
void bias_act_forward_{s}(const {t} *x, const {t} *b, {t} *y, int64_t n, int64_t step, int64_t channels,
                          int act, double alpha, double gain);
void bias_act_grad_{s}(const {t} *dy, const {t} *x, const {t} *b, {t} *dx, int64_t n, int64_t step,
                       int64_t channels, int act, double alpha, double gain);
void bias_act_grad2_{s}(const {t} *ddx, const {t} *dy, const {t} *x, const {t} *b, {t} *out, int64_t n,
                        int64_t step, int64_t channels, int act, double alpha, double gain);
void bias_act_bias_grad_{s}(const {t} *dx, {t} *db, int64_t batch, int64_t channels, int64_t step);
""" for s, t in (("f32", "float"), ("f64", "double")))

VARIANTS = {
    "fused_bias_act": (),
    "fused_bias_act_bug_grad2_gain": ("grad2_gain",),
    "fused_bias_act_bug_db_channels_last": ("db_channels_last",),
    "fused_bias_act_bug_c_db_f32": ("c_db_f32",),
    "fused_bias_act_bug_c_dx_buffer": ("c_dx_buffer",),
    "fused_bias_act_bug_swish_unguarded": ("swish_unguarded",),
}
_MACROS = {"grad2_gain": "REALOPS_BUG_GRAD2_NO_GAIN", "c_db_f32": "REALOPS_BUG_DB_FLOAT",
           "swish_unguarded": "REALOPS_BUG_SWISH_UNGUARDED"}
_DX_BUFFERS = {}   # fused_bias_act_bug_c_dx_buffer: shape and dtype -> the dx it hands out


def _sigmoid(xp, z):
    e = xp.exp(-xp.abs(z))
    return xp.where(z >= 0, 1 / (1 + e), e / (1 + e))


def _act(xp, z, act, alpha):
    if act == 3:
        return xp.where(z > 0, z, alpha * z)
    if act == 9:
        return z * _sigmoid(xp, z)
    return z


def _act_grad(xp, z, act, alpha, bugs):
    if act == 3:
        return xp.where(z > 0, 1.0, alpha).astype(z.dtype)
    if act == 9:
        if "swish_unguarded" in bugs:
            c = xp.exp(z)
            d = c + 1
            return c * (z + d) / (d * d)
        s = _sigmoid(xp, z)
        return s * (1 + z * (1 - s))
    return xp.ones_like(z)


def _act_grad2(xp, z, act):
    if act == 9:
        s = _sigmoid(xp, z)
        return s * (1 - s) * (2 + z * (1 - 2 * s))
    return xp.zeros_like(z)


def _kernels(name, bugs):
    """forward, grad, grad2 and bias_grad: python, C and CUDA, on x viewed as [N, C, S]."""
    fwd = Kernel(f"realops.{name}_forward")
    grad = Kernel(f"realops.{name}_grad")
    grad2 = Kernel(f"realops.{name}_grad2")
    bias_grad = Kernel(f"realops.{name}_bias_grad")

    @fwd.python
    def _(x, b, *, act, alpha, gain):
        xp = array_module(x)
        return (_act(xp, x + b[None, :, None], act, alpha) * gain).astype(x.dtype, copy=False)

    @grad.python
    def _(dy, x, b, *, act, alpha, gain):
        xp = array_module(x)
        return (dy * _act_grad(xp, x + b[None, :, None], act, alpha, bugs) * gain).astype(x.dtype, copy=False)

    @grad2.python
    def _(ddx, dy, x, b, *, act, alpha, gain):
        xp = array_module(x)
        out = ddx * dy * _act_grad2(xp, x + b[None, :, None], act)
        return (out if "grad2_gain" in bugs else out * gain).astype(x.dtype, copy=False)

    @bias_grad.python
    def _(dx):
        if "db_channels_last" in bugs:
            return dx.reshape(-1, dx.shape[1]).sum(axis=0)      # BUG: assumes channels last
        return dx.sum(axis=(0, 2))

    macros = tuple((_MACROS[bug], "1") for bug in bugs if bug in _MACROS)
    source = CSource("fused_bias_act.c", cdef=_CDEF, define_macros=macros, libraries=("m",),
                     extra_compile_args=("-O2",))

    def params(x):
        return x.size, x.shape[2], x.shape[1]

    @fwd.c(source)
    def _(lib, ffi, x, b, *, act, alpha, gain):
        y = outputs.empty_like(x)
        c_function(lib, "bias_act_forward", x.dtype)(c_pointer(ffi, x), c_pointer(ffi, b), c_pointer(ffi, y, writable=True),
                                                     *params(x), act, alpha, gain)
        return y

    @grad.c(source)
    def _(lib, ffi, dy, x, b, *, act, alpha, gain):
        if "c_dx_buffer" in bugs:       # BUG: one buffer per shape, handed out by every call
            dx = _DX_BUFFERS.get((x.shape, x.dtype.str))
            if dx is None:
                dx = _DX_BUFFERS[(x.shape, x.dtype.str)] = numpy.empty_like(x)
        else:
            dx = outputs.empty_like(x)
        c_function(lib, "bias_act_grad", x.dtype)(c_pointer(ffi, dy), c_pointer(ffi, x), c_pointer(ffi, b),
                                                  c_pointer(ffi, dx, writable=True), *params(x), act, alpha, gain)
        return dx

    @grad2.c(source)
    def _(lib, ffi, ddx, dy, x, b, *, act, alpha, gain):
        out = outputs.empty_like(x)
        c_function(lib, "bias_act_grad2", x.dtype)(c_pointer(ffi, ddx), c_pointer(ffi, dy), c_pointer(ffi, x),
                                                   c_pointer(ffi, b), c_pointer(ffi, out, writable=True), *params(x),
                                                   act, alpha, gain)
        return out

    @bias_grad.c(source)
    def _(lib, ffi, dx):
        db = outputs.empty((dx.shape[1],), dx.dtype)
        c_function(lib, "bias_act_bias_grad", dx.dtype)(c_pointer(ffi, dx), c_pointer(ffi, db, writable=True),
                                                        dx.shape[0], dx.shape[1], dx.shape[2])
        return db

    cuda = CudaSource("fused_bias_act.cu")

    def scalars(x, act, alpha, gain):
        return (numpy.int64(x.size), numpy.int64(x.shape[2]), numpy.int64(x.shape[1]), numpy.int32(act),
                numpy.float64(alpha), numpy.float64(gain))

    @fwd.cuda(cuda)
    def _(module, x, b, *, act, alpha, gain):
        y = outputs.empty_like(x)
        launch_1d(cuda_function(module, "bias_act_forward", x.dtype), x.size, (x, b, y, *scalars(x, act, alpha, gain)))
        return y

    @grad.cuda(cuda)
    def _(module, dy, x, b, *, act, alpha, gain):
        dx = outputs.empty_like(x)
        launch_1d(cuda_function(module, "bias_act_grad", x.dtype), x.size,
                  (dy, x, b, dx, *scalars(x, act, alpha, gain)))
        return dx

    @grad2.cuda(cuda)
    def _(module, ddx, dy, x, b, *, act, alpha, gain):
        out = outputs.empty_like(x)
        launch_1d(cuda_function(module, "bias_act_grad2", x.dtype), x.size,
                  (ddx, dy, x, b, out, *scalars(x, act, alpha, 1.0 if "grad2_gain" in bugs else gain)))
        return out

    @bias_grad.cuda(cuda)
    def _(module, dx):
        db = outputs.empty((dx.shape[1],), dx.dtype, like=dx)
        launch_1d(cuda_function(module, "bias_act_bias_grad", dx.dtype), dx.shape[1],
                  (dx, db, numpy.int64(dx.shape[0]), numpy.int64(dx.shape[1]), numpy.int64(dx.shape[2])))
        return db

    return fwd, grad, grad2, bias_grad


def _function(name, bugs):
    fwd, grad, grad2, bias_grad = _kernels(name, bugs)
    qualname = f"realops.{name}"

    def as3d(t, like):
        """The array of Tensor t as [N, C, S] (S = 1 for a 2-D x), in like's dtype."""
        a = array_of(t).astype(array_of(like).dtype, copy=False)
        return a.reshape(a.shape[0], a.shape[1], -1)

    def reduce_axes(ndim):
        return [i for i in range(ndim) if i != 1]

    class BiasActGrad(opsdk.Function):
        """dx = dy * act'(x + b) * gain, differentiable once more (in dy, x and b)."""

        _opsdk_qualname = qualname

        @staticmethod
        def forward(ctx, dy, x, b, act, alpha, gain):
            ctx.save_for_backward(dy, x, b)
            ctx.params = dict(act=act, alpha=alpha, gain=gain)
            return tensor_of(grad(as3d(dy, x), as3d(x, x), array_of(b), **ctx.params).reshape(array_of(x).shape))

        @staticmethod
        @once_differentiable       # as the source: second order, not third
        def backward(ctx, d_dx):
            dy, x, b = ctx.saved_tensor()
            shape = array_of(x).shape
            dd, x3, b_ = as3d(d_dx, x), as3d(x, x), array_of(b)
            d_dy = grad(dd, x3, b_, **ctx.params)
            d_x = grad2(dd, as3d(dy, x), x3, b_, **ctx.params)
            return tensor_of(d_dy.reshape(shape)), tensor_of(d_x.reshape(shape)), tensor_of(bias_grad(d_x))

    class BiasAct(opsdk.Function):
        """act(x + b) * gain, b along axis 1 of x; differentiable twice."""

        _opsdk_qualname = qualname

        @staticmethod
        def forward(ctx, x, b, act="swish", alpha=0.2, gain=1.0):
            if act not in ACTS:
                raise OpArgumentError(f"{qualname}: argument 'act' must be one of {sorted(ACTS)}; got: {act!r}")
            if x.ndim < 2 or b.ndim != 1 or b.shape[0] != x.shape[1] or b.dtype != x.dtype \
                    or x.dtype not in (opsdk.float32, opsdk.float64):
                raise OpArgumentError(f"{qualname}: argument 'b' must be one float32/float64 value per channel "
                                      f"(axis 1) of 'x', in x's dtype; expected: [{x.shape[1] if x.ndim > 1 else '?'}] "
                                      f"{x.dtype}; got: {b.shape} {b.dtype} (x: {x.shape})")
            ctx.save_for_backward(x, b)
            ctx.params = dict(act=ACTS[act], alpha=float(alpha), gain=float(gain))
            return tensor_of(fwd(as3d(x, x), array_of(b), **ctx.params).reshape(array_of(x).shape))

        @staticmethod
        def backward(ctx, dy):
            x, b = ctx.saved_tensor()
            p = ctx.params
            if opsdk.is_grad_enabled():    # create_graph: the gradient will be differentiated
                dx = BiasActGrad.apply(dy, x, b, p["act"], p["alpha"], p["gain"])
                return dx, opsdk.sum(dx, axis=reduce_axes(x.ndim))
            dx = grad(as3d(dy, x), as3d(x, x), array_of(b), **p)
            return tensor_of(dx.reshape(array_of(x).shape)), tensor_of(bias_grad(dx))

    return BiasAct, (fwd, grad, grad2, bias_grad)


def reference(x, b, act="swish", alpha=0.2, gain=1.0):
    """The same maths in core opsdk ops (the source's ``_bias_act_ref``)."""
    z = x + opsdk.reshape(b, [-1 if i == 1 else 1 for i in range(x.ndim)])
    if act == "lrelu":
        z = opsdk.where(z > 0, z, alpha * z)
    elif act == "swish":
        z = z * opsdk.sigmoid(z)
    return z * gain


def register_op(register):
    """fused_bias_act and its bug variants: swish with StyleGAN2's gain sqrt(2) on x [N, C, S]."""
    for name, bugs in VARIANTS.items():
        function, kernels = _function(name, bugs)
        register(function, name=name,
                 inputs=[TensorSpec(shape=(2, 4, 5), domain=(-3.0, 3.0)), TensorSpec(shape=(4,), domain=(-1.0, 1.0))],
                 attrs={"act": "swish", "gain": 2 ** 0.5}, dtypes=("float32", "float64"), double_backward=True,
                 kernels=kernels, reference=reference)
