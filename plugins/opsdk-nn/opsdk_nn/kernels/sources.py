"""The hand-written C and CUDA sources of the pack (softmax, norms, cross_entropy): where they live,
their declarations, how they compile. The activations' kernels are written by the SDK from scalar
bodies (kernels/activations.py)."""
import hashlib
import os

from opsdk.kernels import CSource, CudaSource

C_TYPES = (("float", "f32"), ("double", "f64"))

# -O3 for vectorizing; no errno and no FP traps so libm calls and selects vectorize (results
# stay IEEE: no -ffast-math, so inf and nan behave)
C_FLAGS = ("-O3", "-fno-math-errno", "-fno-trapping-math")

_CUDA_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "cuda"))


# The C sources define their functions with macros (one body per dtype), which opsdk cannot read
# from the source, so their declarations are written here.
def _both(template):
    """A cdef line per dtype: template uses {T} (C type) and {S} (suffix)."""
    return "".join(template.format(T=t, S=s) for t, s in C_TYPES)


def _c_source(path, cdef):
    return CSource(path, cdef=cdef, extra_compile_args=C_FLAGS, libraries=("m",), openmp=True,
                   _depth=1)


SOFTMAX_C = _c_source("../csrc/softmax.c", _both(
    "void nn_softmax_fwd_{S}(const {T} *x, {T} *y, int64_t outer, int64_t n, int64_t inner, int as_log);\n"
    "void nn_softmax_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t outer, int64_t n, "
    "int64_t inner, int as_log);\n"))
NORMS_C = _c_source("../csrc/norms.c", _both(
    "void nn_layer_norm_fwd_{S}(const {T} *x, const {T} *w, const {T} *b, {T} *y, {T} *mean, "
    "{T} *rstd, int64_t rows, int64_t n, double eps);\n"
    "int nn_layer_norm_bwd_{S}(const {T} *x, const {T} *w, const {T} *mean, const {T} *rstd, "
    "const {T} *dy, {T} *dx, {T} *dw, {T} *db, int64_t rows, int64_t n);\n"
    "void nn_rms_norm_fwd_{S}(const {T} *x, const {T} *w, {T} *y, {T} *rstd, int64_t rows, "
    "int64_t n, double eps);\n"
    "int nn_rms_norm_bwd_{S}(const {T} *x, const {T} *w, const {T} *rstd, const {T} *dy, "
    "{T} *dx, {T} *dw, int64_t rows, int64_t n);\n"))
CROSS_ENTROPY_C = _c_source("../csrc/cross_entropy.c", _both(
    "void nn_cross_entropy_fwd_{S}(const {T} *x, const int64_t *label, {T} *loss, {T} *rowmax, "
    "{T} *logsum, int64_t rows, int64_t n, int64_t ignore_index);\n"
    "void nn_cross_entropy_bwd_{S}(const {T} *x, const int64_t *label, const {T} *rowmax, "
    "const {T} *logsum, const {T} *g, int64_t g_stride, {T} *dx, int64_t rows, int64_t n, "
    "int64_t ignore_index);\n"))


def _cuda_options():
    """NVRTC sees the shared header through -I; CuPy caches by source text and options only, so a
    digest of the header rides along as a macro to invalidate that cache on edits (a digest, not
    the file's date: the wheel's prebuilt PTX and cubins are keyed by these options too, and an
    installed copy of the header has a date of its own)."""
    header = os.path.join(_CUDA_DIR, "nn_common.cuh")
    try:
        with open(header, "rb") as f:
            stamp = hashlib.blake2b(f.read(), digest_size=8).hexdigest()
    except OSError:
        stamp = "missing"
    return (f"-I{_CUDA_DIR}", f"-DNN_COMMON_STAMP={stamp}")


def _cuda_names(stages, families):
    return tuple(f"nn_{f}_{stage}_{s}" for f in families for stage in stages for _, s in C_TYPES)


def _cuda_source(path, names):
    return CudaSource(path, names=names, options=_cuda_options(), _depth=1)


SOFTMAX_CUDA = _cuda_source("../cuda/softmax.cu", _cuda_names(
    ("rows_fwd", "rows_bwd", "block_fwd", "block_bwd", "cols_fwd", "cols_bwd"), ("softmax",)))
NORMS_CUDA = _cuda_source("../cuda/norms.cu", _cuda_names(
    ("rows_fwd", "block_fwd", "rows_bwd", "block_bwd", "bwd_weight"), ("layer_norm", "rms_norm")))
CROSS_ENTROPY_CUDA = _cuda_source("../cuda/cross_entropy.cu", _cuda_names(
    ("rows_fwd", "block_fwd", "rows_bwd", "block_bwd"), ("cross_entropy",)))

C_SOURCES = (SOFTMAX_C, NORMS_C, CROSS_ENTROPY_C)
CUDA_SOURCES = (SOFTMAX_CUDA, NORMS_CUDA, CROSS_ENTROPY_CUDA)
