"""The pack's C sources, their declarations, and adapters shared by its C kernels."""
import numpy

from opsdk.kernels import CSource, c_pointer

_TYPES = (("float", "f32"), ("double", "f64"))


def _both(template):
    return "".join(template.format(T=t, S=s) for t, s in _TYPES)


EW = CSource("csrc/ew.c", libraries=("m",), cdef=_both("""
    void rt_relu_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_relu_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_sqrt_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_sqrt_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t n);
    void rt_sincos_fwd_{S}(const {T} *x, {T} *s, {T} *c, int64_t n);
    void rt_sincos_bwd_{S}(const {T} *x, const {T} *ds, const {T} *dc, {T} *dx, int64_t n);
    void rt_gelu_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_gelu_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_softsign_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_softsign_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_cubic_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_cubic_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_poly3_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_poly3_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_softclip_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_softclip_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_relumask_fwd_{S}(const {T} *x, {T} *y, {T} *mask, int64_t n);
    void rt_sigmoid_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_sigmoid_bwd_inplace_{S}(const {T} *y, {T} *dy, int64_t n);
    void rt_square_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_square_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_ssoftsign_fwd_{S}(const {T} *x, {T} *y, int64_t n, double scale);
    void rt_ssoftsign_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
    void rt_div_fwd_{S}(const {T} *x, const {T} *y, {T} *z, int64_t n);
    void rt_div_bwd_{S}(const {T} *x, const {T} *y, const {T} *dz, {T} *dx, {T} *dy, int64_t n);
"""))

ROWS = CSource("csrc/rows.c", libraries=("m",), cdef=_both("""
    void rt_rmsnorm_fwd_{S}(const {T} *x, const {T} *w, {T} *y, {T} *rstd, int64_t rows, int64_t cols, double eps);
    void rt_rmsnorm_bwd_{S}(const {T} *x, const {T} *w, const {T} *rstd, const {T} *dy, {T} *dx, {T} *dw, int64_t rows, int64_t cols);
    void rt_rowmean_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t cols);
    void rt_rowsum_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t cols);
    void rt_softmax_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t cols);
    void rt_softmax_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t rows, int64_t cols);
    void rt_softmax_bwd_stale_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t rows, int64_t cols);
    void rt_lse_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t cols);
    void rt_gather_fwd_{S}(const {T} *w, const int32_t *idx, {T} *out, int64_t n, int64_t cols);
    void rt_biasact_fwd_{S}(const {T} *x, const {T} *b, {T} *y, int64_t rows, int64_t cols);
    void rt_biasact_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, {T} *db, int64_t rows, int64_t cols);
"""))

PARALLEL = CSource("csrc/parallel.c", libraries=("m",), openmp=True,
                   extra_compile_args=("-O2",), cdef=_both("""
    void rt_tanhp_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_tanhp_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t n);
    void rt_sigp_fwd_{S}(const {T} *x, {T} *y, int64_t n, int64_t par_min);
    void rt_sigp_bwd_{S}(const {T} *y, const {T} *dy, {T} *dx, int64_t n);
    void rt_softplusp_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_softplusp_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
"""))


def suffix(array):
    return "f32" if array.dtype == numpy.float32 else "f64"


def fn(lib, name, array):
    """The C function `name` for the array's dtype."""
    return getattr(lib, f"{name}_{suffix(array)}")


def ptr(ffi, array, out=False):
    return c_pointer(ffi, array, writable=out)


def unary(kernel, source, name):
    """Register a C adapter y = name(x) on `kernel`."""
    @kernel.c(source)
    def _(lib, ffi, x):
        y = numpy.empty_like(x)
        fn(lib, name, x)(ptr(ffi, x), ptr(ffi, y, True), x.size)
        return y
    return _


def unary_grad(kernel, source, name):
    """Register a C adapter dx = name(a, dy) on `kernel` (a: x or y, as the kernel takes)."""
    @kernel.c(source)
    def _(lib, ffi, a, dy):
        dx = numpy.empty_like(a)
        fn(lib, name, a)(ptr(ffi, a), ptr(ffi, dy), ptr(ffi, dx, True), a.size)
        return dx
    return _

EXTRA = CSource("csrc/extra.c", libraries=("m",), openmp=True, define_macros=(("PAR_N", "150000"),),
                cdef=_both("""
    void rt_meansq_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t cols);
    void rt_meansq_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t rows, int64_t cols);
    void rt_sqrowsum_fwd_{S}(const {T} *x, {T} *y, int64_t rows, int64_t cols);
    void rt_leakyp_fwd_{S}(const {T} *x, {T} *y, int64_t n);
    void rt_leakyp_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);
"""))
