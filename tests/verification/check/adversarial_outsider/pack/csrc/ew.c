/* Elementwise kernels of the rt pack (float and double versions, contiguous arrays). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ---------------- relu (correct) ---------------- */
#define RELU(T, S)                                                                         \
    void rt_relu_fwd_##S(const T *x, T *y, int64_t n) {                                    \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;                        \
    }                                                                                      \
    void rt_relu_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                      \
        for (int64_t i = 0; i < n; i++) dx[i] = x[i] > 0 ? dy[i] : 0;                      \
    }
RELU(float, f32)
RELU(double, f64)

/* ---------------- sqrt (correct) ---------------- */
void rt_sqrt_fwd_f32(const float *x, float *y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = sqrtf(x[i]); }
void rt_sqrt_fwd_f64(const double *x, double *y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = sqrt(x[i]); }
void rt_sqrt_bwd_f32(const float *y, const float *dy, float *dx, int64_t n) { for (int64_t i = 0; i < n; i++) dx[i] = 0.5f * dy[i] / y[i]; }
void rt_sqrt_bwd_f64(const double *y, const double *dy, double *dx, int64_t n) { for (int64_t i = 0; i < n; i++) dx[i] = 0.5 * dy[i] / y[i]; }

/* ---------------- sin/cos, two outputs (correct) ---------------- */
#define SINCOS(T, S, SIN, COS)                                                             \
    void rt_sincos_fwd_##S(const T *x, T *s, T *c, int64_t n) {                            \
        for (int64_t i = 0; i < n; i++) { s[i] = SIN(x[i]); c[i] = COS(x[i]); }            \
    }                                                                                      \
    void rt_sincos_bwd_##S(const T *x, const T *ds, const T *dc, T *dx, int64_t n) {       \
        for (int64_t i = 0; i < n; i++) dx[i] = ds[i] * COS(x[i]) - dc[i] * SIN(x[i]);     \
    }
SINCOS(float, f32, sinf, cosf)
SINCOS(double, f64, sin, cos)

/* ---------------- gelu, exact erf form; f32 forward uses the tanh form for speed (BUG) ---- */
void rt_gelu_fwd_f64(const double *x, double *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = 0.5 * x[i] * (1.0 + erf(x[i] * 0.70710678118654752));
}
void rt_gelu_fwd_f32(const float *x, float *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
}
#define GELU_BWD(T, S)                                                                     \
    void rt_gelu_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                      \
        for (int64_t i = 0; i < n; i++) {                                                  \
            double v = x[i];                                                               \
            double cdf = 0.5 * (1.0 + erf(v * 0.70710678118654752));                       \
            double pdf = 0.3989422804014327 * exp(-0.5 * v * v);                           \
            dx[i] = (T)(dy[i] * (cdf + v * pdf));                                          \
        }                                                                                  \
    }
GELU_BWD(float, f32)
GELU_BWD(double, f64)

/* ---------------- softsign; the f32 version calls abs() (int) instead of fabsf (BUG) ------- */
void rt_softsign_fwd_f64(const double *x, double *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] / (1.0 + fabs(x[i]));
}
void rt_softsign_fwd_f32(const float *x, float *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] / (1.0f + abs(x[i]));
}
void rt_softsign_bwd_f64(const double *x, const double *dy, double *dx, int64_t n) {
    for (int64_t i = 0; i < n; i++) { double d = 1.0 + fabs(x[i]); dx[i] = dy[i] / (d * d); }
}
void rt_softsign_bwd_f32(const float *x, const float *dy, float *dx, int64_t n) {
    for (int64_t i = 0; i < n; i++) { float d = 1.0f + fabsf(x[i]); dx[i] = dy[i] / (d * d); }
}

/* ---------------- cubic y = x^3 - x, tiled by 64 (BUG: tile reads x[j], not x[b + j]) ----- */
#define CUBIC(T, S)                                                                        \
    void rt_cubic_fwd_##S(const T *x, T *y, int64_t n) {                                   \
        for (int64_t b = 0; b < n; b += 64)                                                \
            for (int64_t j = 0; j < 64 && b + j < n; j++) {                                \
                T v = x[j];                                                                \
                y[b + j] = v * v * v - v;                                                  \
            }                                                                              \
    }                                                                                      \
    void rt_cubic_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                     \
        for (int64_t i = 0; i < n; i++) dx[i] = dy[i] * (3 * x[i] * x[i] - 1);             \
    }
CUBIC(float, f32)
CUBIC(double, f64)

/* ---------------- poly3 = 1 + x + x^2/2 + x^3/6, unrolled by 4 (BUG: tail copies x) ------- */
#define POLY3(T, S)                                                                        \
    static inline T poly3_##S(T v) { return 1 + v * (1 + v * ((T)0.5 + v / 6)); }         \
    void rt_poly3_fwd_##S(const T *x, T *y, int64_t n) {                                   \
        int64_t i = 0;                                                                     \
        for (; i + 4 <= n; i += 4) {                                                       \
            y[i] = poly3_##S(x[i]); y[i + 1] = poly3_##S(x[i + 1]);                        \
            y[i + 2] = poly3_##S(x[i + 2]); y[i + 3] = poly3_##S(x[i + 3]);                \
        }                                                                                  \
        for (; i < n; i++) y[i] = x[i];                                                    \
    }                                                                                      \
    void rt_poly3_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                     \
        for (int64_t i = 0; i < n; i++) dx[i] = dy[i] * (1 + x[i] + x[i] * x[i] / 2);      \
    }
POLY3(float, f32)
POLY3(double, f64)

/* ---------------- softclip x / sqrt(1 + x^2); backward unrolled by 4, no tail (BUG) ------- */
#define SOFTCLIP(T, S, SQRT)                                                               \
    void rt_softclip_fwd_##S(const T *x, T *y, int64_t n) {                                \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] / SQRT(1 + x[i] * x[i]);               \
    }                                                                                      \
    static inline T softclip_slope_##S(T v) { T r = 1 / SQRT(1 + v * v); return r * r * r; } \
    void rt_softclip_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                  \
        for (int64_t i = 0; i + 4 <= n; i += 4) {                                          \
            dx[i] = dy[i] * softclip_slope_##S(x[i]);                                      \
            dx[i + 1] = dy[i + 1] * softclip_slope_##S(x[i + 1]);                          \
            dx[i + 2] = dy[i + 2] * softclip_slope_##S(x[i + 2]);                          \
            dx[i + 3] = dy[i + 3] * softclip_slope_##S(x[i + 3]);                          \
        }                                                                                  \
    }
SOFTCLIP(float, f32, sqrtf)
SOFTCLIP(double, f64, sqrt)

/* ---------------- relu with a mask output; the mask is only written where x > 0 (BUG) ----- */
#define RELU_MASK(T, S)                                                                    \
    void rt_relumask_fwd_##S(const T *x, T *y, T *mask, int64_t n) {                       \
        for (int64_t i = 0; i < n; i++) {                                                  \
            if (x[i] > 0) { y[i] = x[i]; mask[i] = 1; }                                    \
            else y[i] = 0;                                                                 \
        }                                                                                  \
    }
RELU_MASK(float, f32)
RELU_MASK(double, f64)

/* ---------------- sigmoid whose backward writes the gradient into dy (BUG, in the adapter) - */
#define SIGMOID(T, S, EXP)                                                                 \
    void rt_sigmoid_fwd_##S(const T *x, T *y, int64_t n) {                                 \
        for (int64_t i = 0; i < n; i++) y[i] = 1 / (1 + EXP(-x[i]));                       \
    }                                                                                      \
    void rt_sigmoid_bwd_inplace_##S(const T *y, T *dy, int64_t n) {                        \
        for (int64_t i = 0; i < n; i++) dy[i] *= y[i] * (1 - y[i]);                        \
    }
SIGMOID(float, f32, expf)
SIGMOID(double, f64, exp)

/* ---------------- square, output into a buffer the adapter keeps (BUG in the adapter) ----- */
#define SQUARE(T, S)                                                                       \
    void rt_square_fwd_##S(const T *x, T *y, int64_t n) {                                  \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] * x[i];                                \
    }                                                                                      \
    void rt_square_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                    \
        for (int64_t i = 0; i < n; i++) dx[i] = 2 * x[i] * dy[i];                          \
    }
SQUARE(float, f32)
SQUARE(double, f64)

/* ---------------- scaled softsign: scale * x / (1 + |x|); backward forgot scale (BUG) ----- */
#define SSOFTSIGN(T, S, FABS)                                                              \
    void rt_ssoftsign_fwd_##S(const T *x, T *y, int64_t n, double scale) {                 \
        for (int64_t i = 0; i < n; i++) y[i] = (T)scale * x[i] / (1 + FABS(x[i]));         \
    }                                                                                      \
    void rt_ssoftsign_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                 \
        for (int64_t i = 0; i < n; i++) { T d = 1 + FABS(x[i]); dx[i] = dy[i] / (d * d); } \
    }
SSOFTSIGN(float, f32, fabsf)
SSOFTSIGN(double, f64, fabs)

/* ---------------- division z = x / y; dy forgets the factor x (BUG) ---------------------- */
#define DIV(T, S)                                                                          \
    void rt_div_fwd_##S(const T *x, const T *y, T *z, int64_t n) {                         \
        for (int64_t i = 0; i < n; i++) z[i] = x[i] / y[i];                                \
    }                                                                                      \
    void rt_div_bwd_##S(const T *x, const T *y, const T *dz, T *dx, T *dy, int64_t n) {    \
        for (int64_t i = 0; i < n; i++) {                                                  \
            dx[i] = dz[i] / y[i];                                                          \
            dy[i] = -dz[i] / (y[i] * y[i]);                                                \
        }                                                                                  \
    }
DIV(float, f32)
DIV(double, f64)
