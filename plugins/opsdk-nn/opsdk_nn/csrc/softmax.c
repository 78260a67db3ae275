/* softmax and log_softmax over one axis of an array viewed as [outer, n, inner].
 *
 *   nn_softmax_fwd_S(x, y, outer, n, inner, as_log)    y = softmax(x) (as_log: log_softmax)
 *   nn_softmax_bwd_S(y, dy, dx, outer, n, inner, as_log) dx from the forward's output y
 *
 * inner == 1 (the last axis) works row by row: a row is read from memory once and stays in
 * cache for the max, sum and write passes. inner > 1 works on panels of NN_COLS columns, so
 * the reductions run along n while the vector lanes run along the contiguous inner axis.
 */
#include "nn_math.h"

#define NN_COLS 64

#define NN_SOFTMAX(T, S, A, EXP, LOG, NEG_INF)                                               \
    NN_CLONES static void rows_fwd_##S(const T *restrict x, T *restrict y, int64_t lo,       \
                                       int64_t hi, int64_t n, int as_log) {                     \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *xr = x + r * n;                                                         \
            T *yr = y + r * n;                                                               \
            T m = NEG_INF;                                                                   \
            NN_SIMD_MAX(m) for (int64_t j = 0; j < n; j++) m = xr[j] > m ? xr[j] : m;        \
            A s = 0; /* sums in A (double): a float accumulator errs along long rows */     \
            if (as_log) {                                                                       \
                NN_SIMD_SUM(s) for (int64_t j = 0; j < n; j++) s += EXP(xr[j] - m);          \
                T ls = LOG((T)s); /* (x - m) - ls: subtracting m first keeps large x exact */\
                NN_SIMD for (int64_t j = 0; j < n; j++) yr[j] = (xr[j] - m) - ls;            \
            } else {                                                                         \
                NN_SIMD_SUM(s) for (int64_t j = 0; j < n; j++) {                             \
                    T e = EXP(xr[j] - m);                                                    \
                    yr[j] = e;                                                               \
                    s += e;                                                                  \
                }                                                                            \
                T inv = (T)(1 / s);                                                          \
                NN_SIMD for (int64_t j = 0; j < n; j++) yr[j] *= inv;                        \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    NN_CLONES static void rows_bwd_##S(const T *restrict y, const T *restrict dy,           \
                                       T *restrict dx, int64_t lo, int64_t hi, int64_t n,    \
                                       int as_log) {                                            \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *yr = y + r * n, *gr = dy + r * n;                                       \
            T *dr = dx + r * n;                                                              \
            A s = 0;                                                                         \
            if (as_log) {                                                                       \
                NN_SIMD_SUM(s) for (int64_t j = 0; j < n; j++) s += gr[j];                   \
                T st = (T)s;                                                                 \
                NN_SIMD for (int64_t j = 0; j < n; j++) dr[j] = gr[j] - EXP(yr[j]) * st;     \
            } else {                                                                         \
                NN_SIMD_SUM(s) for (int64_t j = 0; j < n; j++) s += (A)gr[j] * yr[j];        \
                T st = (T)s;                                                                 \
                NN_SIMD for (int64_t j = 0; j < n; j++) dr[j] = yr[j] * (gr[j] - st);        \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    /* panels: task p covers columns [c0, c0 + w) of slice o = p / blocks */                 \
    NN_CLONES static void cols_fwd_##S(const T *restrict x, T *restrict y, int64_t lo,       \
                                       int64_t hi, int64_t n, int64_t inner, int as_log) {      \
        int64_t blocks = (inner + NN_COLS - 1) / NN_COLS;                                    \
        T m[NN_COLS];                                                                        \
        A s[NN_COLS];                                                                        \
        for (int64_t p = lo; p < hi; p++) {                                                  \
            int64_t o = p / blocks, c0 = (p % blocks) * NN_COLS;                             \
            int64_t w = inner - c0 < NN_COLS ? inner - c0 : NN_COLS;                         \
            const T *xo = x + o * n * inner + c0;                                            \
            T *yo = y + o * n * inner + c0;                                                  \
            for (int64_t k = 0; k < w; k++) m[k] = NEG_INF, s[k] = 0;                        \
            for (int64_t j = 0; j < n; j++) {                                                \
                NN_SIMD for (int64_t k = 0; k < w; k++) {                                    \
                    T v = xo[j * inner + k];                                                 \
                    m[k] = v > m[k] ? v : m[k];                                              \
                }                                                                            \
            }                                                                                \
            for (int64_t j = 0; j < n; j++) {                                                \
                NN_SIMD for (int64_t k = 0; k < w; k++) s[k] += EXP(xo[j * inner + k] - m[k]); \
            }                                                                                \
            if (as_log) {                                                                       \
                for (int64_t k = 0; k < w; k++) s[k] = LOG((T)s[k]);                         \
                for (int64_t j = 0; j < n; j++) {                                            \
                    NN_SIMD for (int64_t k = 0; k < w; k++)                                  \
                        yo[j * inner + k] = (xo[j * inner + k] - m[k]) - (T)s[k];            \
                }                                                                            \
            } else {                                                                         \
                for (int64_t k = 0; k < w; k++) s[k] = 1 / s[k];                             \
                for (int64_t j = 0; j < n; j++) {                                            \
                    NN_SIMD for (int64_t k = 0; k < w; k++)                                  \
                        yo[j * inner + k] = EXP(xo[j * inner + k] - m[k]) * (T)s[k];         \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    NN_CLONES static void cols_bwd_##S(const T *restrict y, const T *restrict dy,           \
                                       T *restrict dx, int64_t lo, int64_t hi, int64_t n,    \
                                       int64_t inner, int as_log) {                             \
        int64_t blocks = (inner + NN_COLS - 1) / NN_COLS;                                    \
        A s[NN_COLS];                                                                        \
        for (int64_t p = lo; p < hi; p++) {                                                  \
            int64_t o = p / blocks, c0 = (p % blocks) * NN_COLS;                             \
            int64_t w = inner - c0 < NN_COLS ? inner - c0 : NN_COLS;                         \
            int64_t base = o * n * inner + c0;                                               \
            const T *yo = y + base, *go = dy + base;                                         \
            T *d = dx + base;                                                                \
            for (int64_t k = 0; k < w; k++) s[k] = 0;                                        \
            for (int64_t j = 0; j < n; j++) {                                                \
                NN_SIMD for (int64_t k = 0; k < w; k++)                                      \
                    s[k] += as_log ? (A)go[j * inner + k] : (A)go[j * inner + k] * yo[j * inner + k]; \
            }                                                                                \
            for (int64_t j = 0; j < n; j++) {                                                \
                NN_SIMD for (int64_t k = 0; k < w; k++) {                                    \
                    int64_t i = j * inner + k;                                               \
                    d[i] = as_log ? go[i] - EXP(yo[i]) * (T)s[k] : yo[i] * (go[i] - (T)s[k]);   \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    void nn_softmax_fwd_##S(const T *x, T *y, int64_t outer, int64_t n, int64_t inner,       \
                            int as_log) {                                                       \
        int64_t total = outer * n * inner;                                                   \
        if (inner == 1) {                                                                    \
            NN_PARALLEL(outer, total, 1, rows_fwd_##S(x, y, lo_, hi_, n, as_log));              \
        } else {                                                                             \
            int64_t tasks = outer * ((inner + NN_COLS - 1) / NN_COLS);                       \
            NN_PARALLEL(tasks, total, 1, cols_fwd_##S(x, y, lo_, hi_, n, inner, as_log));       \
        }                                                                                    \
    }                                                                                        \
    void nn_softmax_bwd_##S(const T *y, const T *dy, T *dx, int64_t outer, int64_t n,        \
                            int64_t inner, int as_log) {                                        \
        int64_t total = outer * n * inner;                                                   \
        if (inner == 1) {                                                                    \
            NN_PARALLEL(outer, total, 1, rows_bwd_##S(y, dy, dx, lo_, hi_, n, as_log));         \
        } else {                                                                             \
            int64_t tasks = outer * ((inner + NN_COLS - 1) / NN_COLS);                       \
            NN_PARALLEL(tasks, total, 1, cols_bwd_##S(y, dy, dx, lo_, hi_, n, inner, as_log));  \
        }                                                                                    \
    }

NN_SOFTMAX(float, f32, double, nn_expf, logf, -HUGE_VALF)
NN_SOFTMAX(double, f64, double, exp, log, -HUGE_VAL)
