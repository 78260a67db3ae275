/* example.swish, C backend: y = x * sigmoid(beta * x) and its gradient, over contiguous arrays.
 *
 * One function per dtype and direction. opsdk reads these declarations (no cdef to keep in
 * step) and calls them on NumPy buffers without copies: const pointers are inputs, the other
 * pointer the output it allocates, n the element count, beta an attribute.
 *
 * Each function hands a range [lo, hi) to a loop of its own: OPSDK_PARALLEL runs it on the
 * calling thread for small arrays and on OpenMP threads, chunk by chunk, for large ones;
 * OPSDK_SIMD vectorizes the loop, which works because opsdk_sigmoid_f32 (opsdk/maths.h) is
 * branch-free, unlike libm's expf; OPSDK_CLONES compiles it for AVX-512, AVX2 and plain
 * x86-64 and picks the widest the CPU has. swish_kernels.py compiles this file with OpenMP
 * and -O3 -fno-math-errno -fno-trapping-math (no -ffast-math: inf and nan keep their meaning).
 */
#include "opsdk/elementwise.h"

/* -- forward: y = x * sigmoid(beta * x) ------------------------------------------------------ */

OPSDK_CLONES static void swish_fwd_range_f32(const float *restrict x, float *restrict y,
                                             int64_t lo, int64_t hi, float beta)
{
    OPSDK_SIMD for (int64_t i = lo; i < hi; i++)
        y[i] = x[i] * opsdk_sigmoid_f32(beta * x[i]);
}

OPSDK_CLONES static void swish_fwd_range_f64(const double *restrict x, double *restrict y,
                                             int64_t lo, int64_t hi, double beta)
{
    OPSDK_SIMD for (int64_t i = lo; i < hi; i++)
        y[i] = x[i] * opsdk_sigmoid_f64(beta * x[i]);
}

void swish_fwd_f32(const float *x, float *y, int64_t n, float beta)
{
    OPSDK_PARALLEL(n, lo, hi, swish_fwd_range_f32(x, y, lo, hi, beta));
}

void swish_fwd_f64(const double *x, double *y, int64_t n, double beta)
{
    OPSDK_PARALLEL(n, lo, hi, swish_fwd_range_f64(x, y, lo, hi, beta));
}

/* -- backward: dx = dy * (s + beta * x * s * (1 - s)), s = sigmoid(beta * x) ----------------- */

OPSDK_CLONES static void swish_bwd_range_f32(const float *restrict x, const float *restrict dy,
                                             float *restrict dx, int64_t lo, int64_t hi,
                                             float beta)
{
    OPSDK_SIMD for (int64_t i = lo; i < hi; i++) {
        float s = opsdk_sigmoid_f32(beta * x[i]);
        dx[i] = dy[i] * (s + beta * x[i] * s * (1.0f - s));
    }
}

OPSDK_CLONES static void swish_bwd_range_f64(const double *restrict x, const double *restrict dy,
                                             double *restrict dx, int64_t lo, int64_t hi,
                                             double beta)
{
    OPSDK_SIMD for (int64_t i = lo; i < hi; i++) {
        double s = opsdk_sigmoid_f64(beta * x[i]);
        dx[i] = dy[i] * (s + beta * x[i] * s * (1.0 - s));
    }
}

void swish_bwd_f32(const float *x, const float *dy, float *dx, int64_t n, float beta)
{
    OPSDK_PARALLEL(n, lo, hi, swish_bwd_range_f32(x, dy, dx, lo, hi, beta));
}

void swish_bwd_f64(const double *x, const double *dy, double *dx, int64_t n, double beta)
{
    OPSDK_PARALLEL(n, lo, hi, swish_bwd_range_f64(x, dy, dx, lo, hi, beta));
}
