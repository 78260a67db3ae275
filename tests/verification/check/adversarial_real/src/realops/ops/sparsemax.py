"""realops.sparsemax: sparsemax over the last axis (Martins & Astudillo, 2016).

Ported from deep-spin/entmax, entmax/activations.py (``_sparsemax_threshold_and_support``,
``SparsemaxFunction``): the maths and the structure, written anew for opsdk. Like
``SparsemaxFunction`` it returns the probabilities and the support size of each row (an int64
output, shape ``[..., 1]``, not differentiable)::

    z = x - max(x);  zs = z sorted descending;  cs = cumsum(zs) - 1
    k = #{j : (j + 1) zs[j] > cs[j]},  tau = cs[k - 1] / k,  p = max(z - tau, 0)
    backward:  dx = dp - sum(dp over the support) / k  on the support, 0 elsewhere

The forward has python and C kernels (sparsemax.c); the backward is NumPy, written over the
original N-d shape as the source does (its ``supp_size`` keeps a trailing axis of size 1).

Bug variants (each registered as its own op, see ``VARIANTS``):

- ``sparsemax_bug_c_top2``: the C forward takes the threshold from the two largest values only
  (a fast path without entmax's fallback for rows whose support fills the partial sort); wrong
  when three or more elements of a row are active (selection regime).
- ``sparsemax_bug_squeeze``: backward divides by ``supp_size.squeeze()``, which squeezes every
  axis of size 1, not only the last: with an inner axis of size 1 (x ``[2, 1, 7]``) the gradient
  broadcasts to ``[2, 2, 7]`` and the engine sums it back. The bug of entmax PR #18
  ("if the input to the sparsemax has dimensions with size=1, they are squeezed by accident in
  the backward pass").
- ``sparsemax_bug_inplace_input``: forward subtracts the row max from the input array in place
  (``z = array_of(x); z -= z.max(...)``), a port of ``X = X - max_val`` to NumPy gone wrong.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CSource, Kernel, array_module, array_of, c_function, c_pointer, outputs, tensor_of

from ._checks import check_rows

_CDEF = """
int sparsemax_forward_f32(const float *x, float *p, int64_t *support, int64_t rows, int64_t n);
int sparsemax_forward_f64(const double *x, double *p, int64_t *support, int64_t rows, int64_t n);
"""

VARIANTS = {
    "sparsemax": (),
    "sparsemax_bug_c_top2": ("c_top2",),
    "sparsemax_bug_squeeze": ("squeeze",),
    "sparsemax_bug_inplace_input": ("inplace_input",),
}


def _threshold(z):
    """tau [rows, 1] and the support size [rows] of rows z whose max is 0."""
    xp = array_module(z)
    zs = -xp.sort(-z, axis=1)
    cs = xp.cumsum(zs, axis=1) - 1
    rho = xp.arange(1, z.shape[1] + 1, dtype=z.dtype)
    k = (rho * zs > cs).sum(axis=1)
    tau = xp.take_along_axis(cs, (k - 1)[:, None], axis=1) / k[:, None].astype(z.dtype)
    return tau, k.astype(numpy.int64)


def _kernels(name, bugs):
    forward = Kernel(f"realops.{name}_forward")

    @forward.python
    def _(x):
        if "inplace_input" in bugs:
            z = x
            z -= x.max(axis=1, keepdims=True)        # BUG: writes into the caller's array
        else:
            z = x - x.max(axis=1, keepdims=True)
        tau, k = _threshold(z)
        return array_module(z).maximum(z - tau, 0), k

    macros = (("REALOPS_BUG_TOP2", "1"),) if "c_top2" in bugs else ()
    source = CSource("sparsemax.c", cdef=_CDEF, define_macros=macros, extra_compile_args=("-O2",))

    @forward.c(source)
    def _(lib, ffi, x):
        rows, n = x.shape
        p, k = outputs.empty_like(x), outputs.empty((rows,), numpy.int64)
        status = c_function(lib, "sparsemax_forward", x.dtype)(
            c_pointer(ffi, x), c_pointer(ffi, p, writable=True), c_pointer(ffi, k, writable=True), rows, n)
        if status:
            raise MemoryError(f"realops.{name}: the C kernel could not allocate its row buffer ({n} doubles)")
        return p, k

    return forward


def _backward(p, k, dp, bugs):
    """The gradient of sparsemax at output p (N-d, support sizes k [..., 1]) for dp."""
    xp = array_module(p)
    grad = xp.where(p != 0, dp, 0)
    if "squeeze" in bugs:
        v_hat = grad.sum(axis=-1) / k.squeeze().astype(p.dtype)       # BUG: every size-1 axis goes
    else:
        v_hat = grad.sum(axis=-1) / k[..., 0].astype(p.dtype)
    return xp.where(p != 0, grad - v_hat[..., None], grad)


def _function(name, bugs):
    forward = _kernels(name, bugs)

    class Sparsemax(opsdk.Function):
        """sparsemax over the last axis: (probabilities, support size per row)."""

        _opsdk_qualname = f"realops.{name}"

        @staticmethod
        def forward(ctx, x):
            check_rows(f"realops.{name}", x)
            a = array_of(x)
            shape = a.shape
            p, k = forward(a.reshape(-1, shape[-1]))
            ctx.p, ctx.k = p.reshape(shape), k.reshape(shape[:-1] + (1,))
            support = tensor_of(ctx.k.copy())
            ctx.mark_non_differentiable(support)
            return tensor_of(ctx.p), support

        @staticmethod
        @once_differentiable
        def backward(ctx, dp, dsupport):
            g = array_of(dp).astype(ctx.p.dtype, copy=False)
            return tensor_of(_backward(ctx.p, ctx.k, g, bugs))

    return Sparsemax, (forward,)


def reference(x):
    """sparsemax in core opsdk ops: sort, cumsum and a gather; its autograd differentiates tau."""
    z = x - opsdk.max(x, axis=-1, keepdim=True)
    zs = opsdk.sort(z, axis=-1, descending=True)
    cs = opsdk.cumsum(zs, axis=-1) - 1
    n = x.shape[-1]
    rho = opsdk.arange(1, n + 1, dtype=x.dtype)
    k = opsdk.sum(opsdk.cast(rho * zs > cs, "int64"), axis=-1, keepdim=True)
    tau = opsdk.take_along_axis(cs, k - 1, axis=-1) / opsdk.cast(k, x.dtype)
    return opsdk.maximum(z - tau, opsdk.zeros_like(z)), k


def register_op(register):
    """sparsemax and its bug variants, on attention-shaped scores [batch, heads, keys]."""
    for name, bugs in VARIANTS.items():
        function, kernels = _function(name, bugs)
        register(function, name=name, inputs=[TensorSpec(shape=(2, 3, 7), domain=(-2.0, 2.0))],
                 dtypes=("float32", "float64"), kernels=kernels, reference=reference)
