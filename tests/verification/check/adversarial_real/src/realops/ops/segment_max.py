"""realops.segment_max and realops.segment_mean: reductions over CSR segments of rows.

Ported from rusty1s/pytorch_scatter: csrc/cpu/segment_csr_cpu.cpp with csrc/cpu/reducer.h (the
forward) and csrc/segment_csr.cpp (the autograd Functions ``SegmentMaxCSR`` and
``SegmentMeanCSR``): the maths and the structure, written anew with python and C
(segment_max.c) kernels::

    src [E, F], indptr [S + 1] int64 (0 = indptr[0] <= ... <= indptr[S] = E)
    segment_max:  out[s] = max of src[indptr[s]:indptr[s + 1]] per feature, arg[s] its row
                  (the first on ties; an empty segment gives out 0 and arg E), int64
                  backward: grad_src = zeros(E + 1, F) with grad_out scattered at arg, then [:E]
                  (the source's ``scatter_`` into one extra row that takes the empty segments)
    segment_mean: out[s] = the mean of the segment's rows (0 for an empty segment)
                  backward: each row gets grad_out of its segment / the segment's length

Bug variants:

- ``segment_max_bug_c_tie_last``: the C max keeps ``>=``: ties go to the last row.
- ``segment_max_bug_grad_all_ties``: backward sends the gradient to every row equal to the
  segment's max (a mask ``src == out``) instead of the argmax row: at ties the gradient is
  duplicated (the max-gradient tie conventions of HIPS/autograd #141 and jax #13600, and
  pytorch_scatter #399, "only one index gets the gradient").
- ``segment_max_bug_c_empty``: the C write step lacks the source's ``count > 0`` branch: an empty
  segment gets the lowest float and a wrong argmax (selection regime: only with empty segments).
- ``segment_max_bug_grad_buffer``: backward scatters into a module-level zero buffer per shape and
  returns a view of it: every call hands out the same memory.
- ``segment_mean_bug_c_f32``: the C mean of float32 sums in a float accumulator.
- ``segment_mean_bug_c_empty_nan``: the C mean divides by the count, 0 for an empty segment.
"""
import numpy

import opsdk
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import CSource, Kernel, array_of, c_function, c_pointer, outputs, tensor_of
from opsdk.packs.registry import Sample

_CDEF = "\n".join(f"""
void segment_max_{s}(const {t} *src, const int64_t *indptr, {t} *out, int64_t *arg, int64_t segments,
                     int64_t features);
void segment_mean_{s}(const {t} *src, const int64_t *indptr, {t} *out, int64_t segments, int64_t features);
""" for s, t in (("f32", "float"), ("f64", "double")))

MAX_VARIANTS = {
    "segment_max": (),
    "segment_max_bug_c_tie_last": ("c_tie_last",),
    "segment_max_bug_grad_all_ties": ("grad_all_ties",),
    "segment_max_bug_c_empty": ("c_empty",),
    "segment_max_bug_grad_buffer": ("grad_buffer",),
}
MEAN_VARIANTS = {
    "segment_mean": (),
    "segment_mean_bug_c_f32": ("c_mean_f32",),
    "segment_mean_bug_c_empty_nan": ("c_mean_empty",),
}
_MACROS = {"c_tie_last": "REALOPS_BUG_TIE_LAST", "c_empty": "REALOPS_BUG_EMPTY_INIT",
           "c_mean_f32": "REALOPS_BUG_MEAN_FLOAT", "c_mean_empty": "REALOPS_BUG_MEAN_EMPTY"}
_GRAD_BUFFERS = {}   # segment_max_bug_grad_buffer: (name, shape, dtype) -> the buffer it hands out


def _segment_ids(indptr):
    """The segment of each row: [E] int64."""
    return numpy.repeat(numpy.arange(len(indptr) - 1), numpy.diff(indptr))


def _kernels(name, bugs):
    seg_max = Kernel(f"realops.{name}_max", arg_dtypes={"indptr": ("int64",)})
    seg_mean = Kernel(f"realops.{name}_mean", arg_dtypes={"indptr": ("int64",)})

    @seg_max.python
    def _(src, indptr):
        segments, (rows, features) = len(indptr) - 1, src.shape
        out = numpy.zeros((segments, features), src.dtype)
        arg = numpy.full((segments, features), rows, numpy.int64)
        for s in range(segments):
            lo, hi = indptr[s], indptr[s + 1]
            if hi > lo:
                arg[s] = lo + src[lo:hi].argmax(axis=0)
                out[s] = src[lo:hi].max(axis=0)
        return out, arg

    @seg_mean.python
    def _(src, indptr):
        counts = numpy.maximum(numpy.diff(indptr), 1)
        sums = numpy.zeros((len(indptr) - 1, src.shape[1]), numpy.float64)
        numpy.add.at(sums, _segment_ids(indptr), src)
        return (sums / counts[:, None]).astype(src.dtype)

    macros = tuple((_MACROS[bug], "1") for bug in bugs if bug in _MACROS)
    source = CSource("segment_max.c", cdef=_CDEF, define_macros=macros, extra_compile_args=("-O2",))

    @seg_max.c(source)
    def _(lib, ffi, src, indptr):
        segments, features = len(indptr) - 1, src.shape[1]
        out, arg = outputs.empty((segments, features), src.dtype), outputs.empty((segments, features), numpy.int64)
        c_function(lib, "segment_max", src.dtype)(c_pointer(ffi, src), c_pointer(ffi, indptr), c_pointer(ffi, out, writable=True),
                                                  c_pointer(ffi, arg, writable=True), segments, features)
        return out, arg

    @seg_mean.c(source)
    def _(lib, ffi, src, indptr):
        segments, features = len(indptr) - 1, src.shape[1]
        out = outputs.empty((segments, features), src.dtype)
        c_function(lib, "segment_mean", src.dtype)(c_pointer(ffi, src), c_pointer(ffi, indptr),
                                                   c_pointer(ffi, out, writable=True), segments, features)
        return out

    return seg_max, seg_mean


def _check(qualname, src, indptr):
    """OpArgumentError unless indptr is a valid CSR pointer over the rows of src."""
    p = array_of(indptr)
    if src.ndim != 2 or src.dtype not in (opsdk.float32, opsdk.float64) or p.ndim != 1 or p.dtype != numpy.int64 \
            or len(p) < 2 or p[0] != 0 or p[-1] != src.shape[0] or (numpy.diff(p) < 0).any():
        raise OpArgumentError(f"{qualname}: arguments 'src' [E, F] (float32/float64) and 'indptr' [S + 1] (int64, "
                              f"non-decreasing from 0 to E) do not fit; got: src {src.dtype} {src.shape}, "
                              f"indptr {p.dtype} {list(p[:8])}{'...' if len(p) > 8 else ''}")
    return p


def _max_function(name, bugs):
    seg_max, _ = _kernels(name, bugs)
    qualname = f"realops.{name}"

    class SegmentMaxCSR(opsdk.Function):
        """(out, arg): the max of each CSR segment of rows, and the row it came from."""

        _opsdk_qualname = qualname

        @staticmethod
        def forward(ctx, src, indptr):
            p = _check(qualname, src, indptr)
            a = array_of(src)
            out, arg = seg_max(a, p)
            ctx.rows, ctx.arg, ctx.indptr = a.shape[0], arg, p.copy()
            if "grad_all_ties" in bugs:
                ctx.src, ctx.out = a.copy(), out
            arg_t = tensor_of(arg)
            ctx.mark_non_differentiable(arg_t)
            return tensor_of(out), arg_t

        @staticmethod
        @once_differentiable
        def backward(ctx, dout, darg):
            g = array_of(dout)
            features = g.shape[1]
            if "grad_all_ties" in bugs:    # BUG: every row equal to its segment's max gets the gradient
                ids = _segment_ids(ctx.indptr)
                mask = ctx.src == ctx.out[ids]
                return tensor_of(numpy.where(mask, g[ids], 0).astype(g.dtype)), None
            if "grad_buffer" in bugs:      # BUG: one zero buffer per shape, handed out by every call
                key = (name, ctx.rows, features, g.dtype.str)
                grad = _GRAD_BUFFERS.setdefault(key, numpy.zeros((ctx.rows + 1, features), g.dtype))
                grad[...] = 0
            else:
                grad = numpy.zeros((ctx.rows + 1, features), g.dtype)
            numpy.put_along_axis(grad, ctx.arg, g, axis=0)
            return tensor_of(grad[:ctx.rows]), None

    return SegmentMaxCSR, (seg_max,)


def _mean_function(name, bugs):
    _, seg_mean = _kernels(name, bugs)
    qualname = f"realops.{name}"

    class SegmentMeanCSR(opsdk.Function):
        """The mean of each CSR segment of rows (0 for an empty segment)."""

        _opsdk_qualname = qualname

        @staticmethod
        def forward(ctx, src, indptr):
            p = _check(qualname, src, indptr)
            ctx.indptr = p.copy()
            return tensor_of(seg_mean(array_of(src), p))

        @staticmethod
        @once_differentiable
        def backward(ctx, dout):
            g = array_of(dout)
            counts = numpy.maximum(numpy.diff(ctx.indptr), 1)
            return tensor_of((g / counts[:, None].astype(g.dtype))[_segment_ids(ctx.indptr)]), None

    return SegmentMeanCSR, (seg_mean,)


def samples(rng, dtype):
    """Two batches of segments of 0 to 3 rows each (the first segment never empty)."""
    for segments, features in ((4, 3), (6, 2)):
        lengths = rng.integers(0, 4, size=segments)
        lengths[0] = max(lengths[0], 1)
        indptr = numpy.concatenate([[0], numpy.cumsum(lengths)]).astype(numpy.int64)
        src = rng.uniform(-2.0, 2.0, size=(int(indptr[-1]), features)).astype(dtype)
        yield Sample(args=(src, indptr))


def reference_max(src, indptr):
    """segment max in core opsdk ops: one segment at a time (empty ones 0, arg E)."""
    rows, features = src.shape
    outs, args = [], []
    p = indptr.numpy()
    for s in range(len(p) - 1):
        lo, hi = int(p[s]), int(p[s + 1])
        if hi > lo:
            seg = src[lo:hi]
            outs.append(opsdk.max(seg, axis=0))
            args.append(opsdk.argmax(seg, axis=0) + lo)
        else:
            outs.append(opsdk.zeros([features], dtype=src.dtype))
            args.append(opsdk.full([features], rows, dtype="int64"))
    return opsdk.stack(outs), opsdk.stack(args)


def reference_mean(src, indptr):
    """segment mean in core opsdk ops."""
    features = src.shape[1]
    p = indptr.numpy()
    outs = [opsdk.mean(src[int(p[s]):int(p[s + 1])], axis=0) if p[s + 1] > p[s]
            else opsdk.zeros([features], dtype=src.dtype) for s in range(len(p) - 1)]
    return opsdk.stack(outs)


def register_op(register):
    """segment_max, segment_mean and their bug variants."""
    for name, bugs in MAX_VARIANTS.items():
        function, kernels = _max_function(name, bugs)
        register(function, name=name, samples=samples, dtypes=("float32", "float64"), kernels=kernels,
                 reference=reference_max)
    for name, bugs in MEAN_VARIANTS.items():
        function, kernels = _mean_function(name, bugs)
        register(function, name=name, samples=samples, dtypes=("float32", "float64"), kernels=kernels,
                 reference=reference_mean)
