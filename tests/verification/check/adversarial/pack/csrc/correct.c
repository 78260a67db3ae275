#include <math.h>
#include <stdint.h>

/* Correct kernels of the adversarial pack: each in float and double. */

#define RELU(T, S)                                                                        \
void relu_fwd_##S(const T *x, T *y, int64_t n) {                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : (T)0;                        \
}                                                                                         \
void relu_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                            \
    for (int64_t i = 0; i < n; i++) dx[i] = x[i] > 0 ? dy[i] : (T)0;                      \
}
RELU(float, f32)
RELU(double, f64)

/* softplus: unrolled by 4 with its tail, in two chunks above 65536 elements (as an OpenMP
   kernel splits its loop), numerically stable: max(z, 0) + log1p(exp(-|z|)) */
#define SOFTPLUS(T, S, EXP, LOG1P)                                                        \
static void softplus_range_##S(const T *x, T *y, int64_t lo, int64_t hi, double beta) {   \
    int64_t i = lo;                                                                       \
    for (; i + 3 < hi; i += 4)                                                            \
        for (int k = 0; k < 4; k++) {                                                     \
            T z = (T)beta * x[i + k];                                                     \
            y[i + k] = ((z > 0 ? z : (T)0) + LOG1P(EXP(-fabs(z)))) / (T)beta;             \
        }                                                                                 \
    for (; i < hi; i++) {                                                                 \
        T z = (T)beta * x[i];                                                             \
        y[i] = ((z > 0 ? z : (T)0) + LOG1P(EXP(-fabs(z)))) / (T)beta;                     \
    }                                                                                     \
}                                                                                         \
void softplus_fwd_##S(const T *x, T *y, int64_t n, double beta) {                         \
    if (n > 65536) {                                                                      \
        int64_t half = n / 2;                                                             \
        softplus_range_##S(x, y, 0, half, beta);                                          \
        softplus_range_##S(x, y, half, n, beta);                                          \
    } else {                                                                              \
        softplus_range_##S(x, y, 0, n, beta);                                             \
    }                                                                                     \
}                                                                                         \
void softplus_bwd_##S(const T *x, const T *dy, T *dx, int64_t n, double beta) {           \
    for (int64_t i = 0; i < n; i++) {                                                     \
        T z = (T)beta * x[i];                                                             \
        T e = EXP(-fabs(z));                                                              \
        T s = z >= 0 ? (T)1 / ((T)1 + e) : e / ((T)1 + e);                                \
        dx[i] = dy[i] * s;                                                                \
    }                                                                                     \
}
SOFTPLUS(float, f32, expf, log1pf)
SOFTPLUS(double, f64, exp, log1p)

/* rms_norm over rows of n: y = x * w / sqrt(mean(x^2) + eps); accumulators in double */
#define RMS(T, S)                                                                         \
void rms_fwd_##S(const T *x, const T *w, T *y, T *rstd, int64_t rows, int64_t n,          \
                 double eps) {                                                            \
    for (int64_t r = 0; r < rows; r++) {                                                  \
        const T *xr = x + r * n;                                                          \
        double acc = 0;                                                                   \
        for (int64_t i = 0; i < n; i++) acc += (double)xr[i] * xr[i];                     \
        T inv = (T)(1.0 / sqrt(acc / n + eps));                                           \
        rstd[r] = inv;                                                                    \
        for (int64_t i = 0; i < n; i++) y[r * n + i] = xr[i] * inv * w[i];                \
    }                                                                                     \
}                                                                                         \
void rms_bwd_##S(const T *x, const T *w, const T *rstd, const T *dy, T *dx, T *dw,        \
                 int64_t rows, int64_t n) {                                               \
    for (int64_t i = 0; i < n; i++) dw[i] = 0;                                            \
    for (int64_t r = 0; r < rows; r++) {                                                  \
        const T *xr = x + r * n, *gr = dy + r * n;                                        \
        double dot = 0;                                                                   \
        for (int64_t i = 0; i < n; i++) dot += (double)gr[i] * w[i] * xr[i];              \
        double inv = rstd[r], c = dot * inv * inv * inv / n;                              \
        for (int64_t i = 0; i < n; i++) {                                                 \
            dx[r * n + i] = (T)(gr[i] * w[i] * inv - xr[i] * c);                          \
            dw[i] += (T)(gr[i] * xr[i] * inv);                                            \
        }                                                                                 \
    }                                                                                     \
}
RMS(float, f32)
RMS(double, f64)

/* the elementwise LLTM cell: gates [B, 3S] -> new_h, new_cell */
#define CELL(T, S, EXP, TANH)                                                             \
void cell_fwd_##S(const T *g, const T *old_cell, T *new_h, T *new_cell, int64_t b,         \
                  int64_t s) {                                                            \
    for (int64_t r = 0; r < b; r++)                                                       \
        for (int64_t j = 0; j < s; j++) {                                                 \
            const T *gr = g + r * 3 * s;                                                  \
            T i = (T)1 / ((T)1 + EXP(-gr[j]));                                            \
            T o = (T)1 / ((T)1 + EXP(-gr[s + j]));                                        \
            T z = gr[2 * s + j];                                                          \
            T c = z > 0 ? z : EXP(z) - (T)1;                                              \
            T nc = old_cell[r * s + j] + c * i;                                           \
            new_cell[r * s + j] = nc;                                                     \
            new_h[r * s + j] = TANH(nc) * o;                                              \
        }                                                                                 \
}
CELL(float, f32, expf, tanhf)
CELL(double, f64, exp, tanh)
