"""realops.chamfer: nearest-neighbour (Chamfer) distances between point sets, with indices.

Ported from ThibaultGROUEIX/ChamferDistancePytorch, chamfer3D/dist_chamfer_3D.py
(``chamfer_3DFunction``) and chamfer3D/chamfer3D.cu, with chamfer_python.py as the NumPy
form: the maths and the structure, written anew with python, C (chamfer.c) and CUDA
(chamfer.cu) kernels::

    x [B, N, D], y [B, M, D] (y may be one template [1, M, D] for the whole batch)
    dist1[b, i] = min_j |x[b, i] - y[b, j]|^2,  idx1 = its argmin (first on ties), int64
    dist2[b, j] = min_i |y[b, j] - x[b, i]|^2,  idx2 likewise
    backward: gx[b, i] += 2 g1 (x_i - y_idx1[i]), gy[b, idx1[i]] -= the same; and for direction 2

Returns ``(dist1, dist2, idx1, idx2)`` as the source does (its indices are int32 there; int64
here, as numpy.argmin and torch.min give).

Bug variants:

- ``chamfer_bug_nn_shared``: the python backward scatters with ``gy[b, idx] -= t``, NumPy's
  buffered fancy-index update, which keeps one contribution when several points share a nearest
  neighbour (``numpy.subtract.at`` accumulates): wrong only in that regime.
- ``chamfer_bug_c_tie_last``: the C search keeps ``d <= best``: ties go to the last index.
- ``chamfer_bug_cuda_tie_last``: the same in the CUDA kernel.
- ``chamfer_bug_c_tail``: the C tail loop after the part unrolled by four stops one short.
- ``chamfer_bug_c_idx_int32``: the C adapter returns the indices as int32, as the source's
  IntTensor does, while python returns int64.
- ``chamfer_bug_idx_buffer``: the python forward writes the indices into module-level buffers
  (one per shape) and returns them: every call hands out the same memory.
- ``chamfer_bug_template_slice``: with a template y [1, M, D], backward returns ``gy[:1]`` (the
  first cloud's gradient) instead of the sum over the batch.
- ``chamfer_bug_cuda_no_atomic``: the CUDA backward adds into the neighbour's gradient with a plain
  ``+=``: a race when several points share a neighbour.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import (CSource, CudaSource, Kernel, array_module, array_of, c_function, c_pointer,
                           cuda_function, launch_1d, outputs, tensor_of)

_CDEF = "\n".join(f"""
void chamfer_nn_{s}(const {t} *x, const {t} *y, {t} *dist, int64_t *idx, int64_t batch, int64_t n, int64_t m,
                    int64_t dim);
void chamfer_grad_{s}(const {t} *x, const {t} *y, const {t} *gdist, const int64_t *idx, {t} *gx, {t} *gy,
                      int64_t batch, int64_t n, int64_t m, int64_t dim);
""" for s, t in (("f32", "float"), ("f64", "double")))

VARIANTS = {
    "chamfer": (),
    "chamfer_bug_nn_shared": ("nn_shared",),
    "chamfer_bug_c_tie_last": ("c_tie_last",),
    "chamfer_bug_cuda_tie_last": ("cuda_tie_last",),
    "chamfer_bug_c_tail": ("c_tail",),
    "chamfer_bug_c_idx_int32": ("c_idx_int32",),
    "chamfer_bug_idx_buffer": ("idx_buffer",),
    "chamfer_bug_template_slice": ("template_slice",),
    "chamfer_bug_cuda_no_atomic": ("cuda_no_atomic",),
}
_C_MACROS = {"c_tie_last": "REALOPS_BUG_TIE_LAST", "c_tail": "REALOPS_BUG_TAIL"}
_CUDA_MACROS = {"cuda_tie_last": "REALOPS_BUG_TIE_LAST", "cuda_no_atomic": "REALOPS_BUG_NO_ATOMIC"}
_IDX_BUFFERS = {}   # chamfer_bug_idx_buffer: (name, shape) -> the index array it hands out


def _kernels(name, bugs):
    """nn (one direction: x -> y) and grad (both directions), python, C and CUDA."""
    nn = Kernel(f"realops.{name}_nn")
    grad = Kernel(f"realops.{name}_grad", arg_dtypes={"idx1": ("int64",), "idx2": ("int64",)})

    @nn.python
    def _(x, y):
        xp = array_module(x)
        d = ((x[:, :, None, :] - y[:, None, :, :]) ** 2).sum(axis=-1)      # [B, N, M]
        idx = d.argmin(axis=2)
        if "idx_buffer" in bugs:       # BUG: the index output lives in a module-level buffer
            idx = _IDX_BUFFERS.setdefault((name, idx.shape), numpy.empty(idx.shape, numpy.int64))
            idx[...] = d.argmin(axis=2)
        return xp.take_along_axis(d, idx[:, :, None], axis=2)[:, :, 0], idx.astype(xp.int64, copy=False)

    @grad.python
    def _(x, y, g1, idx1, g2, idx2):
        xp = array_module(x)
        gx, gy = xp.zeros_like(x), xp.zeros_like(y)
        for (p, q, g, idx, gp, gq) in ((x, y, g1, idx1, gx, gy), (y, x, g2, idx2, gy, gx)):
            b = xp.arange(p.shape[0])[:, None]
            t = 2 * g[:, :, None] * (p - q[b, idx])                       # [B, N, D]
            gp += t
            if "nn_shared" in bugs:
                gq[b, idx] -= t         # BUG: buffered: one contribution per shared neighbour
            else:
                numpy.subtract.at(gq, (b, idx), t) if xp is numpy else xp.subtract.at(gq, (b, idx), t)
        return gx, gy

    c_macros = tuple((_C_MACROS[bug], "1") for bug in bugs if bug in _C_MACROS)
    source = CSource("chamfer.c", cdef=_CDEF, define_macros=c_macros, extra_compile_args=("-O2",))

    @nn.c(source)
    def _(lib, ffi, x, y):
        batch, n, dim = x.shape
        dist, idx = outputs.empty((batch, n), x.dtype), outputs.empty((batch, n), numpy.int64)
        c_function(lib, "chamfer_nn", x.dtype)(c_pointer(ffi, x), c_pointer(ffi, y), c_pointer(ffi, dist, writable=True),
                                               c_pointer(ffi, idx, writable=True), batch, n, y.shape[1], dim)
        if "c_idx_int32" in bugs:
            idx = idx.astype(numpy.int32)      # BUG: the source's IntTensor indices
        return dist, idx

    @grad.c(source)
    def _(lib, ffi, x, y, g1, idx1, g2, idx2):
        batch, n, dim = x.shape
        m = y.shape[1]
        gx, gy = numpy.zeros_like(x), numpy.zeros_like(y)
        fn = c_function(lib, "chamfer_grad", x.dtype)
        fn(c_pointer(ffi, x), c_pointer(ffi, y), c_pointer(ffi, g1), c_pointer(ffi, idx1),
           c_pointer(ffi, gx, writable=True), c_pointer(ffi, gy, writable=True), batch, n, m, dim)
        fn(c_pointer(ffi, y), c_pointer(ffi, x), c_pointer(ffi, g2), c_pointer(ffi, idx2),
           c_pointer(ffi, gy, writable=True), c_pointer(ffi, gx, writable=True), batch, m, n, dim)
        return gx, gy

    cuda_macros = tuple(f"-D{_CUDA_MACROS[bug]}=1" for bug in bugs if bug in _CUDA_MACROS)
    cuda = CudaSource("chamfer.cu", options=cuda_macros)

    @nn.cuda(cuda)
    def _(module, x, y):
        batch, n, dim = x.shape
        dist, idx = outputs.empty((batch, n), x.dtype, like=x), outputs.empty((batch, n), numpy.int64, like=x)
        launch_1d(cuda_function(module, "chamfer_nn", x.dtype), batch * n,
                  (x, y, dist, idx, numpy.int64(batch), numpy.int64(n), numpy.int64(y.shape[1]), numpy.int64(dim)))
        return dist, idx

    @grad.cuda(cuda)
    def _(module, x, y, g1, idx1, g2, idx2):
        cupy = array_module(x)
        batch, n, dim = x.shape
        m = y.shape[1]
        gx, gy = cupy.zeros_like(x), cupy.zeros_like(y)
        fn = cuda_function(module, "chamfer_grad", x.dtype)
        i64 = numpy.int64
        launch_1d(fn, batch * n, (x, y, g1, idx1, gx, gy, i64(batch), i64(n), i64(m), i64(dim)))
        launch_1d(fn, batch * m, (y, x, g2, idx2, gy, gx, i64(batch), i64(m), i64(n), i64(dim)))
        return gx, gy

    return nn, grad


def _function(name, bugs):
    nn, grad = _kernels(name, bugs)
    qualname = f"realops.{name}"

    class Chamfer(opsdk.Function):
        """(dist1, dist2, idx1, idx2): squared distances to the nearest neighbour each way, and its index."""

        _opsdk_qualname = qualname

        @staticmethod
        def forward(ctx, x, y):
            if x.ndim != 3 or y.ndim != 3 or x.shape[2] != y.shape[2] or y.shape[0] not in (1, x.shape[0]) \
                    or x.dtype != y.dtype or x.dtype not in (opsdk.float32, opsdk.float64) \
                    or min(x.shape[1], y.shape[1], x.shape[2]) < 1:
                raise OpArgumentError(f"{qualname}: arguments 'x' and 'y' must be float32/float64 point sets "
                                      f"[B, N, D] and [B or 1, M, D] of one dtype, N, M, D >= 1; "
                                      f"got: x {x.dtype} {x.shape}, y {y.dtype} {y.shape}")
            a, b = array_of(x), array_of(y)
            if b.shape[0] != a.shape[0]:                     # one template for the whole batch
                b = array_module(b).ascontiguousarray(array_module(b).broadcast_to(b, (a.shape[0],) + b.shape[1:]))
            dist1, idx1 = nn(a, b)
            dist2, idx2 = nn(b, a)
            ctx.save_for_backward(x, y)
            ctx.idx = (idx1, idx2)
            i1, i2 = tensor_of(idx1), tensor_of(idx2)
            ctx.mark_non_differentiable(i1, i2)
            return tensor_of(dist1), tensor_of(dist2), i1, i2

        @staticmethod
        @once_differentiable
        def backward(ctx, g1, g2, gi1, gi2):
            x, y = ctx.saved_tensor()
            a, b = array_of(x), array_of(y)
            xp = array_module(a)
            template = b.shape[0] != a.shape[0]
            if template:
                b = xp.ascontiguousarray(xp.broadcast_to(b, (a.shape[0],) + b.shape[1:]))
            g1 = array_of(g1).astype(a.dtype, copy=False)
            g2 = array_of(g2).astype(a.dtype, copy=False)
            gx, gy = grad(a, b, g1, ctx.idx[0].astype(numpy.int64), g2, ctx.idx[1].astype(numpy.int64))
            if template:
                gy = gy[:1] if "template_slice" in bugs else gy.sum(axis=0, keepdims=True)
            return tensor_of(gx), tensor_of(gy)

    return Chamfer, (nn, grad)


def reference(x, y):
    """The distances in core opsdk ops: all pairs, min and argmin each way (chamfer_python.py)."""
    d = opsdk.sum((opsdk.unsqueeze(x, 2) - opsdk.unsqueeze(y, 1)) ** 2, axis=-1)      # [B, N, M]
    return opsdk.min(d, axis=2), opsdk.min(d, axis=1), opsdk.argmin(d, axis=2), opsdk.argmin(d, axis=1)


def register_op(register):
    """chamfer and its bug variants on two small clouds of 3-D points (5 and 6 points, batch 2)."""
    for name, bugs in VARIANTS.items():
        function, kernels = _function(name, bugs)
        register(function, name=name,
                 inputs=[TensorSpec(shape=(2, 5, 3), domain=(-1.0, 1.0)), TensorSpec(shape=(2, 6, 3), domain=(-1.0, 1.0))],
                 dtypes=("float32", "float64"), kernels=kernels, reference=reference)
