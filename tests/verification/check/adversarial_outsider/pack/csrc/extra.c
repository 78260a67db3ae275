/* More row and parallel kernels of the rt pack. */
#include <math.h>
#include <stdint.h>
#include <omp.h>

/* sum of squares over rows, divided by... rows (BUG: the author's samples were square) */
#define MEANSQ(T, S)                                                                       \
    void rt_meansq_fwd_##S(const T *x, T *y, int64_t rows, int64_t cols) {                 \
        for (int64_t r = 0; r < rows; r++) {                                               \
            double s = 0;                                                                  \
            for (int64_t j = 0; j < cols; j++) s += (double)x[r * cols + j] * x[r * cols + j]; \
            y[r] = (T)(s / rows);                                                          \
        }                                                                                  \
    }                                                                                      \
    void rt_meansq_bwd_##S(const T *x, const T *dy, T *dx, int64_t rows, int64_t cols) {   \
        for (int64_t r = 0; r < rows; r++)                                                 \
            for (int64_t j = 0; j < cols; j++)                                             \
                dx[r * cols + j] = (T)(2.0 * x[r * cols + j] * dy[r] / cols);              \
    }
MEANSQ(float, f32)
MEANSQ(double, f64)

/* square of every row sum (correct), the author's samples square too */
#define SQROWSUM(T, S)                                                                     \
    void rt_sqrowsum_fwd_##S(const T *x, T *y, int64_t rows, int64_t cols) {               \
        for (int64_t r = 0; r < rows; r++) {                                               \
            double s = 0;                                                                  \
            for (int64_t j = 0; j < cols; j++) s += x[r * cols + j];                       \
            y[r] = (T)(s * s);                                                             \
        }                                                                                  \
    }
SQROWSUM(float, f32)
SQROWSUM(double, f64)

/* leaky relu; parallel above PAR_N (a -D macro): the parallel loop's last chunk stops one short (BUG) */
#define LEAKY_OMP(T, S)                                                                    \
    void rt_leakyp_fwd_##S(const T *x, T *y, int64_t n) {                                  \
        if (n <= PAR_N) {                                                                  \
            for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : (T)0.1 * x[i];         \
            return;                                                                        \
        }                                                                                  \
        _Pragma("omp parallel for")                                                        \
        for (int64_t i = 0; i < n - 1; i++) y[i] = x[i] > 0 ? x[i] : (T)0.1 * x[i];        \
    }                                                                                      \
    void rt_leakyp_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                    \
        for (int64_t i = 0; i < n; i++) dx[i] = x[i] > 0 ? dy[i] : (T)0.1 * dy[i];         \
    }
LEAKY_OMP(float, f32)
LEAKY_OMP(double, f64)
