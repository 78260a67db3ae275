"""realops.logsumexp: log(sum(exp(x))) over the last axis, the normaliser of a softmax over a
long row (a language model's vocabulary).

Ported from karpathy/llm.c: train_gpt2.c (``softmax_forward``: a max pass, then a sum of
``expf(x - max)``) and llmc/fused_classifier.cuh (``prepare_softmax_blockwide3``: the online
max and sum, rescaled as the max grows), written anew with python and C (logsumexp.c) kernels::

    lse = m + log(sum(exp(x - m))),  m = max(x);   backward: dx = dy * exp(x - lse)

The first-order backward is a NumPy kernel; when the gradient will be differentiated again
(``create_graph``) it is written with opsdk ops, so every order works.

Bug variants:

- ``logsumexp_bug_c_f32_sum``: the float32 C kernel sums ``expf(x - max)`` in a float, as
  train_gpt2.c's softmax_forward does.
- ``logsumexp_bug_c_merge``: the C merge of a block whose max exceeds the running one forgets to
  rescale the running sum: wrong when a later block of 64 holds a larger value than every earlier
  one (a second-block, value-dependent regime).
- ``logsumexp_bug_grad_workspace``: the backward kernel computes into a module-level workspace per
  shape (``numpy.exp(x - lse, out=_WORKSPACE[...])``) and returns it.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import CSource, Kernel, array_module, array_of, c_function, c_pointer, outputs, tensor_of

from ._checks import check_rows

_CDEF = """
void logsumexp_forward_f32(const float *x, float *lse, int64_t rows, int64_t n);
void logsumexp_forward_f64(const double *x, double *lse, int64_t rows, int64_t n);
"""

VARIANTS = {
    "logsumexp": (),
    "logsumexp_bug_c_f32_sum": ("c_f32_sum",),
    "logsumexp_bug_c_merge": ("c_merge",),
    "logsumexp_bug_grad_workspace": ("grad_workspace",),
}
_MACROS = {"c_f32_sum": "REALOPS_BUG_FLOAT_SUM", "c_merge": "REALOPS_BUG_MERGE"}
_WORKSPACE = {}   # logsumexp_bug_grad_workspace: (shape, dtype) -> the gradient buffer


def _kernels(name, bugs):
    forward = Kernel(f"realops.{name}_forward")
    backward = Kernel(f"realops.{name}_backward")

    @forward.python
    def _(x):
        xp = array_module(x)
        m = x.max(axis=1)
        return m + xp.log(xp.exp(x - m[:, None]).sum(axis=1))

    @backward.python
    def _(x, lse, dy):
        xp = array_module(x)
        if "grad_workspace" in bugs:     # BUG: the same buffer for every call of this shape
            out = _WORKSPACE.setdefault((x.shape, x.dtype.str), numpy.empty_like(x))
            numpy.subtract(x, lse[:, None], out=out)
            numpy.exp(out, out=out)
            out *= dy[:, None]
            return out
        return dy[:, None] * xp.exp(x - lse[:, None])

    macros = tuple((_MACROS[bug], "1") for bug in bugs if bug in _MACROS)
    source = CSource("logsumexp.c", cdef=_CDEF, define_macros=macros, libraries=("m",), extra_compile_args=("-O2",))

    @forward.c(source)
    def _(lib, ffi, x):
        rows, n = x.shape
        lse = outputs.empty((rows,), x.dtype)
        c_function(lib, "logsumexp_forward", x.dtype)(c_pointer(ffi, x), c_pointer(ffi, lse, writable=True), rows, n)
        return lse

    return forward, backward


def _function(name, bugs):
    forward, backward = _kernels(name, bugs)
    qualname = f"realops.{name}"

    class LogSumExp(opsdk.Function):
        """log(sum(exp(x))) over the last axis: x [..., n] -> [...]."""

        _opsdk_qualname = qualname

        @staticmethod
        def forward(ctx, x):
            check_rows(qualname, x)
            a = array_of(x)
            lse = forward(a.reshape(-1, a.shape[-1]))
            ctx.save_for_backward(x)
            ctx.lse = lse
            return tensor_of(lse.reshape(a.shape[:-1]))

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            if opsdk.is_grad_enabled():     # create_graph: differentiable in x and dy
                return opsdk.unsqueeze(dy, -1) * opsdk.exp(x - opsdk.logsumexp(x, axis=-1, keepdim=True))
            a = array_of(x)
            g = array_of(dy).astype(a.dtype, copy=False).reshape(-1)
            return tensor_of(backward(a.reshape(-1, a.shape[-1]), ctx.lse, g).reshape(a.shape))

    return LogSumExp, (forward, backward)


def reference(x):
    """opsdk's own logsumexp over the last axis."""
    return opsdk.logsumexp(x, axis=-1)


def register_op(register):
    """logsumexp and its bug variants on a batch of logits [3, 40]."""
    for name, bugs in VARIANTS.items():
        function, kernels = _function(name, bugs)
        register(function, name=name, inputs=[TensorSpec(shape=(3, 40), domain=(-4.0, 4.0))],
                 dtypes=("float32", "float64"), double_backward=True, kernels=kernels, reference=reference)
