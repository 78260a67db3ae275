/* cross_entropy: log_softmax fused with the negative log-likelihood of integer labels.
 *
 *   nn_cross_entropy_fwd_S(x, label, loss, rowmax, logsum, rows, n, ignore_index)
 *       loss[r] = (max(x[r]) - x[r, label[r]]) + log(sum(exp(x[r] - max)))  (0 if ignored)
 *   nn_cross_entropy_bwd_S(x, label, rowmax, logsum, g, g_stride, dx, rows, n, ignore_index)
 *       dx[r] = g[r * g_stride] (softmax(x[r]) - onehot(label[r]))  (0 for ignored rows)
 *
 * The softmax is never stored: backward rebuilds it from each row's max and log-sum, one pass
 * over x. Max and log-sum stay apart (never added into a logsumexp) so logits of 1e4 lose
 * nothing to rounding: x - max is exact, the log-sum is small.
 * Labels were range-checked by the caller; out-of-range ones are treated as ignored here so
 * a bad label can never write outside dx.
 */
#include "nn_math.h"

#define NN_CROSS_ENTROPY(T, S, EXP, LOG, NEG_INF)                                            \
    NN_CLONES static void ce_fwd_rows_##S(const T *restrict x, const int64_t *restrict label, \
                                          T *restrict loss, T *restrict rowmax,              \
                                          T *restrict logsum, int64_t lo, int64_t hi,        \
                                          int64_t n, int64_t ignore) {                       \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *xr = x + r * n;                                                         \
            T m = NEG_INF, s = 0;                                                            \
            NN_SIMD_MAX(m) for (int64_t j = 0; j < n; j++) m = xr[j] > m ? xr[j] : m;        \
            NN_SIMD_SUM(s) for (int64_t j = 0; j < n; j++) s += EXP(xr[j] - m);              \
            T ls = LOG(s);                                                                   \
            int64_t c = label[r];                                                            \
            rowmax[r] = m;                                                                   \
            logsum[r] = ls;                                                                  \
            loss[r] = (c == ignore || c < 0 || c >= n) ? (T)0 : (m - xr[c]) + ls;            \
        }                                                                                    \
    }                                                                                        \
    void nn_cross_entropy_fwd_##S(const T *x, const int64_t *label, T *loss, T *rowmax,      \
                                  T *logsum, int64_t rows, int64_t n, int64_t ignore_index) { \
        NN_PARALLEL(rows, rows * n, 1,                                                       \
                    ce_fwd_rows_##S(x, label, loss, rowmax, logsum, lo_, hi_, n, ignore_index)); \
    }                                                                                        \
    NN_CLONES static void ce_bwd_rows_##S(const T *restrict x, const int64_t *restrict label, \
                                          const T *restrict rowmax, const T *restrict logsum, \
                                          const T *restrict g, int64_t g_stride,             \
                                          T *restrict dx, int64_t lo, int64_t hi, int64_t n, \
                                          int64_t ignore) {                                  \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *xr = x + r * n;                                                         \
            T *dr = dx + r * n;                                                              \
            int64_t c = label[r];                                                            \
            int skip = c == ignore || c < 0 || c >= n;                                       \
            T scale = skip ? (T)0 : g[r * g_stride], m = rowmax[r], ls = logsum[r];          \
            NN_SIMD for (int64_t j = 0; j < n; j++) dr[j] = scale * EXP((xr[j] - m) - ls);   \
            if (!skip) dr[c] -= scale;                                                       \
        }                                                                                    \
    }                                                                                        \
    void nn_cross_entropy_bwd_##S(const T *x, const int64_t *label, const T *rowmax,         \
                                  const T *logsum, const T *g, int64_t g_stride, T *dx,      \
                                  int64_t rows, int64_t n, int64_t ignore_index) {           \
        NN_PARALLEL(rows, rows * n, 1,                                                       \
                    ce_bwd_rows_##S(x, label, rowmax, logsum, g, g_stride, dx, lo_, hi_, n, \
                                    ignore_index));                                          \
    }

NN_CROSS_ENTROPY(float, f32, nn_expf, logf, -HUGE_VALF)
NN_CROSS_ENTROPY(double, f64, exp, log, -HUGE_VAL)
