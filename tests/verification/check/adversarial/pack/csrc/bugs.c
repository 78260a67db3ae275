#include <math.h>
#include <stdint.h>

/* Kernels of the adversarial pack with one planted bug each (see bugs_*.py). */

/* swish forward written in place: the output pointer is the input's (the adapter's slip) */
#define SWISH(T, S, EXP)                                                                  \
void swish_fwd_##S(const T *x, T *y, int64_t n) {                                         \
    for (int64_t i = 0; i < n; i++) y[i] = x[i] / ((T)1 + EXP(-x[i]));                    \
}                                                                                         \
void swish_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                           \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T s = (T)1 / ((T)1 + EXP(-x[i]));                                                 \
        dx[i] = dy[i] * (s + x[i] * s * ((T)1 - s));                                      \
    }                                                                                     \
}
SWISH(float, f32, expf)
SWISH(double, f64, exp)

/* cube written for blocks of 64: after the first block it reads x from the block's start */
#define CUBE64(T, S)                                                                      \
void cube64_fwd_##S(const T *x, T *y, int64_t n) {                                        \
    for (int64_t b = 0; b < n; b += 64)                                                   \
        for (int64_t i = b; i < n && i < b + 64; i++) y[i] = x[i - b] * x[i - b] * x[i - b]; \
}                                                                                         \
void cube_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                            \
    for (int64_t i = 0; i < n; i++) dx[i] = (T)3 * x[i] * x[i] * dy[i];                   \
}                                                                                         \
void cube_fwd_##S(const T *x, T *y, int64_t n) {                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[i] * x[i] * x[i];                            \
}
CUBE64(float, f32)
CUBE64(double, f64)

/* cube unrolled by 4, without the loop over the last n % 4 elements */
#define CUBE4(T, S)                                                                       \
void cube4_fwd_##S(const T *x, T *y, int64_t n) {                                         \
    for (int64_t i = 0; i + 3 < n; i += 4) {                                              \
        y[i] = x[i] * x[i] * x[i];         y[i + 1] = x[i + 1] * x[i + 1] * x[i + 1];     \
        y[i + 2] = x[i + 2] * x[i + 2] * x[i + 2]; y[i + 3] = x[i + 3] * x[i + 3] * x[i + 3]; \
    }                                                                                     \
}                                                                                         \
void cube4_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                           \
    int64_t i = 0;                                                                        \
    for (; i + 3 < n; i += 4)                                                             \
        for (int k = 0; k < 4; k++) dx[i + k] = (T)3 * x[i + k] * x[i + k] * dy[i + k];   \
}
CUBE4(float, f32)
CUBE4(double, f64)

/* cube split in two chunks above 65536 elements, the second starting one element late */
#define CUBEPAR(T, S)                                                                     \
void cubepar_fwd_##S(const T *x, T *y, int64_t n) {                                       \
    if (n > 65536) {                                                                      \
        int64_t half = n / 2;                                                             \
        for (int64_t i = 0; i < half; i++) y[i] = x[i] * x[i] * x[i];                     \
        for (int64_t i = half + 1; i < n; i++) y[i] = x[i] * x[i] * x[i];                 \
    } else {                                                                              \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] * x[i] * x[i];                        \
    }                                                                                     \
}
CUBEPAR(float, f32)
CUBEPAR(double, f64)

/* cube whose loop stops one element early */
#define CUBELAST(T, S)                                                                    \
void cubelast_fwd_##S(const T *x, T *y, int64_t n) {                                      \
    for (int64_t i = 0; i < n - 1; i++) y[i] = x[i] * x[i] * x[i];                        \
}
CUBELAST(float, f32)
CUBELAST(double, f64)

/* gelu (tanh form) with sqrt(2/pi) typed 0.7979, in forward and backward alike */
#define GELU(T, S, TANH)                                                                  \
void gelu_fwd_##S(const T *x, T *y, int64_t n) {                                          \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T u = (T)0.7979 * (x[i] + (T)0.044715 * x[i] * x[i] * x[i]);                      \
        y[i] = (T)0.5 * x[i] * ((T)1 + TANH(u));                                          \
    }                                                                                     \
}                                                                                         \
void gelu_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                            \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T u = (T)0.7979 * (x[i] + (T)0.044715 * x[i] * x[i] * x[i]);                      \
        T t = TANH(u);                                                                    \
        T du = (T)0.7979 * ((T)1 + (T)3 * (T)0.044715 * x[i] * x[i]);                     \
        dx[i] = dy[i] * ((T)0.5 * ((T)1 + t) + (T)0.5 * x[i] * ((T)1 - t * t) * du);      \
    }                                                                                     \
}
GELU(float, f32, tanhf)
GELU(double, f64, tanh)

/* sigmoid whose float32 version uses a cheap exp: (1 + z/256)^256, 0.3 % off near |z| = 1 */
static float cheap_expf(float z) {
    float r = 1.0f + z / 256.0f;
    for (int k = 0; k < 8; k++) r *= r;
    return r;
}
void sigmoid_fwd_f32(const float *x, float *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = 1.0f / (1.0f + cheap_expf(-x[i]));
}
void sigmoid_fwd_f64(const double *x, double *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = 1.0 / (1.0 + exp(-x[i]));
}

/* rms_norm whose double version sums the squares in a float */
#define RMS32(T, S)                                                                       \
void rms32_fwd_##S(const T *x, const T *w, T *y, T *rstd, int64_t rows, int64_t n,        \
                   double eps) {                                                          \
    for (int64_t r = 0; r < rows; r++) {                                                  \
        const T *xr = x + r * n;                                                          \
        float acc = 0;                                                                    \
        for (int64_t i = 0; i < n; i++) acc += (float)(xr[i] * xr[i]);                    \
        T inv = (T)(1.0 / sqrt((double)acc / n + eps));                                   \
        rstd[r] = inv;                                                                    \
        for (int64_t i = 0; i < n; i++) y[r * n + i] = xr[i] * inv * w[i];                \
    }                                                                                     \
}
RMS32(float, f32)
RMS32(double, f64)

/* softplus in the textbook form: exp overflows float32 above 88.7 (log(1 + inf) = inf) */
void softplus_naive_fwd_f32(const float *x, float *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = logf(1.0f + expf(x[i]));
}
void softplus_naive_fwd_f64(const double *x, double *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = log(1.0 + exp(x[i]));
}
#define SIGM(T, S, EXP)                                                                   \
void softplus_naive_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                  \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T e = EXP(-fabs(x[i]));                                                           \
        dx[i] = dy[i] * (x[i] >= 0 ? (T)1 / ((T)1 + e) : e / ((T)1 + e));                 \
    }                                                                                     \
}
SIGM(float, f32, expf)
SIGM(double, f64, exp)

/* scaled softplus backward: dy * sigmoid(beta x) (the bug is in its adapter) */
#define SPB(T, S, EXP)                                                                    \
void spb_bwd_##S(const T *x, const T *dy, T *dx, int64_t n, double beta) {                \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T z = (T)beta * x[i];                                                             \
        T e = EXP(-fabs(z));                                                              \
        dx[i] = dy[i] * (z >= 0 ? (T)1 / ((T)1 + e) : e / ((T)1 + e));                    \
    }                                                                                     \
}                                                                                         \
void spb_fwd_##S(const T *x, T *y, int64_t n, double beta) {                              \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T z = (T)beta * x[i];                                                             \
        y[i] = ((z > 0 ? z : (T)0) + log1p(EXP(-fabs(z)))) / (T)beta;                     \
    }                                                                                     \
}
SPB(float, f32, expf)
SPB(double, f64, exp)

/* bias gradient as column means instead of sums */
#define BIASMEAN(T, S)                                                                    \
void bias_mean_bwd_##S(const T *dy, T *db, int64_t rows, int64_t n) {                     \
    for (int64_t j = 0; j < n; j++) {                                                     \
        double acc = 0;                                                                   \
        for (int64_t r = 0; r < rows; r++) acc += dy[r * n + j];                          \
        db[j] = (T)(acc / rows);                                                          \
    }                                                                                     \
}
BIASMEAN(float, f32)
BIASMEAN(double, f64)

/* cube split in two chunks above its own threshold, the second starting one element late */
#define PAR_MIN 100000
#define CUBEBIG(T, S)                                                                     \
void cubebig_fwd_##S(const T *x, T *y, int64_t n) {                                       \
    int64_t half = n > PAR_MIN ? n / 2 : n;                                               \
    for (int64_t i = 0; i < half; i++) y[i] = x[i] * x[i] * x[i];                         \
    for (int64_t i = half + 1; i < n; i++) y[i] = x[i] * x[i] * x[i];                     \
}
CUBEBIG(float, f32)
CUBEBIG(double, f64)
