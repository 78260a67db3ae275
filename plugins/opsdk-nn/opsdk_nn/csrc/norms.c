/* layer_norm and rms_norm over the last n elements of each of `rows` rows.
 *
 *   nn_layer_norm_fwd_S(x, w, b, y, mean, rstd, rows, n, eps)
 *   nn_layer_norm_bwd_S(x, w, mean, rstd, dy, dx, dw, db, rows, n)  -> 0, or -1 out of memory
 *   nn_rms_norm_fwd_S(x, w, y, rstd, rows, n, eps)
 *   nn_rms_norm_bwd_S(x, w, rstd, dy, dx, dw, rows, n)              -> 0, or -1 out of memory
 *
 * A row is read from memory once per call and reused from cache. Backward computes dx and the
 * weight/bias gradients in the same pass: each chunk of rows sums its contributions to dw/db
 * in float64 partials, added up in chunk order at the end (deterministic for a thread count).
 */
#include "nn_math.h"

/* Runs body over row chunks, each chunk summing its rows' weight-gradient contributions into
 * its own `width` doubles of partials; returns the partials (caller frees) and their count.
 * Chunks depend only on the row count and thread count, so results are reproducible. */
static int nn_rows_with_partials(int64_t rows, int64_t n, int64_t width,
                                 void (*body)(const void *, int64_t, int64_t, double *),
                                 const void *args, double **result, int64_t *parts) {
    int threads = nn_max_threads();
    int serial = rows * n < NN_OMP_MIN || rows < 2 || threads < 2;
    int64_t size = serial ? (rows > 0 ? rows : 1) : nn_chunk_size(rows, 1, threads);
    int64_t chunks = rows > 0 ? (rows + size - 1) / size : 1;
    double *part = (double *)calloc((size_t)chunks * (size_t)width, sizeof(double));
    if (part == NULL) return -1;
    if (serial) {
        body(args, 0, rows, part);
    } else {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (int64_t c = 0; c < chunks; c++) {
            int64_t lo = c * size, hi = lo + size < rows ? lo + size : rows;
            body(args, lo, hi, part + c * width);
        }
    }
    *result = part;
    *parts = chunks;
    return 0;
}

#define NN_NORMS(T, S, SQRT)                                                                 \
    typedef struct {                                                                         \
        const T *x, *w, *mean, *rstd, *dy;                                                   \
        T *dx;                                                                               \
        int64_t n;                                                                           \
    } bwd_args_##S;                                                                          \
                                                                                             \
    NN_CLONES static void ln_fwd_rows_##S(const T *restrict x, const T *restrict w,          \
                                          const T *restrict b, T *restrict y,                \
                                          T *restrict mean, T *restrict rstd, int64_t lo,    \
                                          int64_t hi, int64_t n, T eps) {                    \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *xr = x + r * n;                                                         \
            T *yr = y + r * n;                                                               \
            T s = 0, v = 0;                                                                  \
            NN_SIMD_SUM(s) for (int64_t j = 0; j < n; j++) s += xr[j];                       \
            T mu = s / (T)n;                                                                 \
            NN_SIMD_SUM(v) for (int64_t j = 0; j < n; j++) v += (xr[j] - mu) * (xr[j] - mu); \
            T rs = (T)1 / SQRT(v / (T)n + eps);                                              \
            NN_SIMD for (int64_t j = 0; j < n; j++) yr[j] = (xr[j] - mu) * rs * w[j] + b[j]; \
            mean[r] = mu;                                                                    \
            rstd[r] = rs;                                                                    \
        }                                                                                    \
    }                                                                                        \
    void nn_layer_norm_fwd_##S(const T *x, const T *w, const T *b, T *y, T *mean, T *rstd,   \
                               int64_t rows, int64_t n, double eps) {                        \
        NN_PARALLEL(rows, rows * n, 1,                                                       \
                    ln_fwd_rows_##S(x, w, b, y, mean, rstd, lo_, hi_, n, (T)eps));           \
    }                                                                                        \
    NN_CLONES static void ln_bwd_rows_##S(const void *args, int64_t lo, int64_t hi,          \
                                          double *part) {                                    \
        const bwd_args_##S *a = (const bwd_args_##S *)args;                                  \
        int64_t n = a->n;                                                                    \
        const T *restrict w = a->w;                                                          \
        double *restrict dwp = part, *restrict dbp = part + n;                               \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *restrict xr = a->x + r * n, *restrict gr = a->dy + r * n;               \
            T *restrict dr = a->dx + r * n;                                                  \
            T mu = a->mean[r], rs = a->rstd[r], sg = 0, sgx = 0;                             \
            NN_SIMD_SUM2(sg, sgx) for (int64_t j = 0; j < n; j++) {                          \
                T xh = (xr[j] - mu) * rs, g = gr[j] * w[j];                                  \
                sg += g;                                                                     \
                sgx += g * xh;                                                               \
                dwp[j] += (double)(gr[j] * xh);                                              \
                dbp[j] += (double)gr[j];                                                     \
            }                                                                                \
            T c1 = sg / (T)n, c2 = sgx / (T)n;                                               \
            NN_SIMD for (int64_t j = 0; j < n; j++) {                                        \
                T xh = (xr[j] - mu) * rs;                                                    \
                dr[j] = rs * (gr[j] * w[j] - c1 - xh * c2);                                  \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    int nn_layer_norm_bwd_##S(const T *x, const T *w, const T *mean, const T *rstd,          \
                              const T *dy, T *dx, T *dw, T *db, int64_t rows, int64_t n) {   \
        bwd_args_##S args = {x, w, mean, rstd, dy, dx, n};                                   \
        double *part;                                                                        \
        int64_t parts;                                                                       \
        if (nn_rows_with_partials(rows, n, 2 * n, ln_bwd_rows_##S, &args, &part, &parts))    \
            return -1;                                                                       \
        for (int64_t j = 0; j < n; j++) {                                                    \
            double sw = 0, sb = 0;                                                           \
            for (int64_t t = 0; t < parts; t++) sw += part[t * 2 * n + j], sb += part[t * 2 * n + n + j]; \
            dw[j] = (T)sw;                                                                   \
            db[j] = (T)sb;                                                                   \
        }                                                                                    \
        free(part);                                                                          \
        return 0;                                                                            \
    }                                                                                        \
                                                                                             \
    NN_CLONES static void rms_fwd_rows_##S(const T *restrict x, const T *restrict w,         \
                                           T *restrict y, T *restrict rstd, int64_t lo,      \
                                           int64_t hi, int64_t n, T eps) {                   \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *xr = x + r * n;                                                         \
            T *yr = y + r * n;                                                               \
            T ss = 0;                                                                        \
            NN_SIMD_SUM(ss) for (int64_t j = 0; j < n; j++) ss += xr[j] * xr[j];             \
            T rs = (T)1 / SQRT(ss / (T)n + eps);                                             \
            NN_SIMD for (int64_t j = 0; j < n; j++) yr[j] = xr[j] * rs * w[j];               \
            rstd[r] = rs;                                                                    \
        }                                                                                    \
    }                                                                                        \
    void nn_rms_norm_fwd_##S(const T *x, const T *w, T *y, T *rstd, int64_t rows, int64_t n, \
                             double eps) {                                                   \
        NN_PARALLEL(rows, rows * n, 1, rms_fwd_rows_##S(x, w, y, rstd, lo_, hi_, n, (T)eps)); \
    }                                                                                        \
    NN_CLONES static void rms_bwd_rows_##S(const void *args, int64_t lo, int64_t hi,         \
                                           double *part) {                                   \
        const bwd_args_##S *a = (const bwd_args_##S *)args;                                  \
        int64_t n = a->n;                                                                    \
        const T *restrict w = a->w;                                                          \
        double *restrict dwp = part;                                                         \
        for (int64_t r = lo; r < hi; r++) {                                                  \
            const T *restrict xr = a->x + r * n, *restrict gr = a->dy + r * n;               \
            T *restrict dr = a->dx + r * n;                                                  \
            T rs = a->rstd[r], sgx = 0;                                                      \
            NN_SIMD_SUM(sgx) for (int64_t j = 0; j < n; j++) {                               \
                T xh = xr[j] * rs;                                                           \
                sgx += gr[j] * w[j] * xh;                                                    \
                dwp[j] += (double)(gr[j] * xh);                                              \
            }                                                                                \
            T c2 = sgx / (T)n;                                                               \
            NN_SIMD for (int64_t j = 0; j < n; j++)                                          \
                dr[j] = rs * (gr[j] * w[j] - xr[j] * rs * c2);                               \
        }                                                                                    \
    }                                                                                        \
    int nn_rms_norm_bwd_##S(const T *x, const T *w, const T *rstd, const T *dy, T *dx,       \
                            T *dw, int64_t rows, int64_t n) {                                \
        bwd_args_##S args = {x, w, NULL, rstd, dy, dx, n};                                   \
        double *part;                                                                        \
        int64_t parts;                                                                       \
        if (nn_rows_with_partials(rows, n, n, rms_bwd_rows_##S, &args, &part, &parts))       \
            return -1;                                                                       \
        for (int64_t j = 0; j < n; j++) {                                                    \
            double sw = 0;                                                                   \
            for (int64_t t = 0; t < parts; t++) sw += part[t * n + j];                           \
            dw[j] = (T)sw;                                                                   \
        }                                                                                    \
        free(part);                                                                          \
        return 0;                                                                            \
    }

NN_NORMS(float, f32, sqrtf)
NN_NORMS(double, f64, sqrt)
