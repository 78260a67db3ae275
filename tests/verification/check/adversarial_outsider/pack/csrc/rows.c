/* Row kernels of the rt pack: x is (rows, cols), C order. */
#include <math.h>
#include <stdint.h>

/* ---------------- RMSNorm with weight (correct) ---------------- */
#define RMSNORM(T, S)                                                                      \
    void rt_rmsnorm_fwd_##S(const T *x, const T *w, T *y, T *rstd, int64_t rows,           \
                            int64_t cols, double eps) {                                    \
        for (int64_t r = 0; r < rows; r++) {                                               \
            const T *xr = x + r * cols;                                                    \
            double ss = 0;                                                                 \
            for (int64_t j = 0; j < cols; j++) ss += (double)xr[j] * xr[j];                \
            double inv = 1.0 / sqrt(ss / cols + eps);                                      \
            rstd[r] = (T)inv;                                                              \
            for (int64_t j = 0; j < cols; j++) y[r * cols + j] = (T)(xr[j] * inv * w[j]);  \
        }                                                                                  \
    }                                                                                      \
    void rt_rmsnorm_bwd_##S(const T *x, const T *w, const T *rstd, const T *dy, T *dx,     \
                            T *dw, int64_t rows, int64_t cols) {                           \
        for (int64_t j = 0; j < cols; j++) dw[j] = 0;                                      \
        for (int64_t r = 0; r < rows; r++) {                                               \
            const T *xr = x + r * cols, *gr = dy + r * cols;                               \
            double inv = rstd[r], dot = 0;                                                 \
            for (int64_t j = 0; j < cols; j++) dot += (double)gr[j] * w[j] * xr[j];        \
            for (int64_t j = 0; j < cols; j++) {                                           \
                dx[r * cols + j] = (T)(inv * (gr[j] * w[j] - xr[j] * inv * inv * dot / cols)); \
                dw[j] += (T)(gr[j] * xr[j] * inv);                                         \
            }                                                                              \
        }                                                                                  \
    }
RMSNORM(float, f32)
RMSNORM(double, f64)

/* ---------------- row mean; the f64 version accumulates in float (BUG, copy-paste) -------- */
void rt_rowmean_fwd_f32(const float *x, float *y, int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; r++) {
        double acc = 0;
        for (int64_t j = 0; j < cols; j++) acc += x[r * cols + j];
        y[r] = (float)(acc / cols);
    }
}
void rt_rowmean_fwd_f64(const double *x, double *y, int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; r++) {
        float acc = 0;
        for (int64_t j = 0; j < cols; j++) acc += x[r * cols + j];
        y[r] = acc / cols;
    }
}

/* ---------------- row sum, float accumulator in f32 (correct: float32 rounding) ---------- */
void rt_rowsum_fwd_f32(const float *x, float *y, int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; r++) {
        float acc = 0;
        for (int64_t j = 0; j < cols; j++) acc += x[r * cols + j];
        y[r] = acc;
    }
}
void rt_rowsum_fwd_f64(const double *x, double *y, int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; r++) {
        double acc = 0;
        for (int64_t j = 0; j < cols; j++) acc += x[r * cols + j];
        y[r] = acc;
    }
}

/* ---------------- softmax over rows; backward variant with the dot not reset (BUG) ------- */
#define SOFTMAX(T, S, EXP)                                                                 \
    void rt_softmax_fwd_##S(const T *x, T *y, int64_t rows, int64_t cols) {                \
        for (int64_t r = 0; r < rows; r++) {                                               \
            const T *xr = x + r * cols;                                                    \
            T m = xr[0];                                                                   \
            for (int64_t j = 1; j < cols; j++) m = xr[j] > m ? xr[j] : m;                  \
            double s = 0;                                                                  \
            for (int64_t j = 0; j < cols; j++) { T e = EXP(xr[j] - m); y[r * cols + j] = e; s += e; } \
            for (int64_t j = 0; j < cols; j++) y[r * cols + j] = (T)(y[r * cols + j] / s); \
        }                                                                                  \
    }                                                                                      \
    void rt_softmax_bwd_##S(const T *y, const T *dy, T *dx, int64_t rows, int64_t cols) {  \
        for (int64_t r = 0; r < rows; r++) {                                               \
            double dot = 0;                                                                \
            for (int64_t j = 0; j < cols; j++) dot += (double)y[r * cols + j] * dy[r * cols + j]; \
            for (int64_t j = 0; j < cols; j++)                                             \
                dx[r * cols + j] = (T)(y[r * cols + j] * (dy[r * cols + j] - dot));        \
        }                                                                                  \
    }                                                                                      \
    void rt_softmax_bwd_stale_##S(const T *y, const T *dy, T *dx, int64_t rows, int64_t cols) { \
        double dot = 0;                                                                    \
        for (int64_t r = 0; r < rows; r++) {                                               \
            for (int64_t j = 0; j < cols; j++) dot += (double)y[r * cols + j] * dy[r * cols + j]; \
            for (int64_t j = 0; j < cols; j++)                                             \
                dx[r * cols + j] = (T)(y[r * cols + j] * (dy[r * cols + j] - dot));        \
        }                                                                                  \
    }
SOFTMAX(float, f32, expf)
SOFTMAX(double, f64, exp)

/* ---------------- logsumexp over rows (correct) ---------------- */
#define LSE(T, S, EXP, LOG)                                                                \
    void rt_lse_fwd_##S(const T *x, T *y, int64_t rows, int64_t cols) {                    \
        for (int64_t r = 0; r < rows; r++) {                                               \
            const T *xr = x + r * cols;                                                    \
            T m = xr[0];                                                                   \
            for (int64_t j = 1; j < cols; j++) m = xr[j] > m ? xr[j] : m;                  \
            double s = 0;                                                                  \
            for (int64_t j = 0; j < cols; j++) s += EXP(xr[j] - m);                        \
            y[r] = (T)(m + log(s));                                                        \
        }                                                                                  \
    }
LSE(float, f32, expf, logf)
LSE(double, f64, exp, log)

/* ---------------- gather rows of w by index; reads the int64 indices as int32 (BUG) ------ */
#define GATHER(T, S)                                                                       \
    void rt_gather_fwd_##S(const T *w, const int32_t *idx, T *out, int64_t n, int64_t cols) { \
        for (int64_t k = 0; k < n; k++)                                                    \
            for (int64_t j = 0; j < cols; j++) out[k * cols + j] = w[idx[k] * cols + j];   \
    }
GATHER(float, f32)
GATHER(double, f64)

/* ---------------- tanh(x + b), b per column; db keeps only the last row (BUG: = for +=) -- */
#define BIASACT(T, S, TANH)                                                                \
    void rt_biasact_fwd_##S(const T *x, const T *b, T *y, int64_t rows, int64_t cols) {    \
        for (int64_t r = 0; r < rows; r++)                                                 \
            for (int64_t j = 0; j < cols; j++) y[r * cols + j] = TANH(x[r * cols + j] + b[j]); \
    }                                                                                      \
    void rt_biasact_bwd_##S(const T *y, const T *dy, T *dx, T *db, int64_t rows, int64_t cols) { \
        for (int64_t r = 0; r < rows; r++)                                                 \
            for (int64_t j = 0; j < cols; j++) {                                           \
                T t = y[r * cols + j];                                                     \
                T g = dy[r * cols + j] * (1 - t * t);                                      \
                dx[r * cols + j] = g;                                                      \
                db[j] = g;                                                                 \
            }                                                                              \
    }
BIASACT(float, f32, tanhf)
BIASACT(double, f64, tanh)
