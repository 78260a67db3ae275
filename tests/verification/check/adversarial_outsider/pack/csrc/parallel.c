/* Kernels that go parallel (OpenMP) on large arrays. */
#include <math.h>
#include <stdint.h>
#include <omp.h>

#define PAR_MIN (1 << 17)

/* tanh: above PAR_MIN each thread takes n / nthreads elements (BUG: the remainder is dropped) */
#define TANH_OMP(T, S, TANH)                                                               \
    void rt_tanhp_fwd_##S(const T *x, T *y, int64_t n) {                                   \
        if (n < PAR_MIN) {                                                                 \
            for (int64_t i = 0; i < n; i++) y[i] = TANH(x[i]);                             \
            return;                                                                        \
        }                                                                                  \
        _Pragma("omp parallel")                                                            \
        {                                                                                  \
            int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();                  \
            int64_t chunk = n / nt, start = t * chunk;                                     \
            for (int64_t i = start; i < start + chunk; i++) y[i] = TANH(x[i]);             \
        }                                                                                  \
    }                                                                                      \
    void rt_tanhp_bwd_##S(const T *y, const T *dy, T *dx, int64_t n) {                     \
        _Pragma("omp parallel for if (n >= PAR_MIN)")                                      \
        for (int64_t i = 0; i < n; i++) dx[i] = dy[i] * (1 - y[i] * y[i]);                 \
    }
TANH_OMP(float, f32, tanhf)
TANH_OMP(double, f64, tanh)

/* sigmoid: the caller says when to go parallel; each thread reads x from index 0 instead of its chunk (BUG) */
#define SIGMOID_OMP(T, S, EXP)                                                             \
    void rt_sigp_fwd_##S(const T *x, T *y, int64_t n, int64_t par_min) {                   \
        if (n < par_min) {                                                                 \
            for (int64_t i = 0; i < n; i++) y[i] = 1 / (1 + EXP(-x[i]));                   \
            return;                                                                        \
        }                                                                                  \
        _Pragma("omp parallel")                                                            \
        {                                                                                  \
            int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();                  \
            int64_t chunk = (n + nt - 1) / nt, start = t * chunk;                          \
            int64_t end = start + chunk < n ? start + chunk : n;                           \
            for (int64_t i = start; i < end; i++) y[i] = 1 / (1 + EXP(-x[i - start]));     \
        }                                                                                  \
    }                                                                                      \
    void rt_sigp_bwd_##S(const T *y, const T *dy, T *dx, int64_t n) {                      \
        for (int64_t i = 0; i < n; i++) dx[i] = dy[i] * y[i] * (1 - y[i]);                 \
    }
SIGMOID_OMP(float, f32, expf)
SIGMOID_OMP(double, f64, exp)

/* softplus (correct): parallel above 50000 elements */
#define SOFTPLUS_OMP(T, S, EXP, LOG1P, FABS)                                               \
    void rt_softplusp_fwd_##S(const T *x, T *y, int64_t n) {                               \
        _Pragma("omp parallel for if (n > 50000)")                                         \
        for (int64_t i = 0; i < n; i++)                                                    \
            y[i] = (x[i] > 0 ? x[i] : 0) + LOG1P(EXP(-FABS(x[i])));                        \
    }                                                                                      \
    void rt_softplusp_bwd_##S(const T *x, const T *dy, T *dx, int64_t n) {                 \
        _Pragma("omp parallel for if (n > 50000)")                                         \
        for (int64_t i = 0; i < n; i++) {                                                  \
            T e = EXP(-FABS(x[i]));                                                        \
            T s = x[i] >= 0 ? 1 / (1 + e) : e / (1 + e);                                   \
            dx[i] = dy[i] * s;                                                             \
        }                                                                                  \
    }
SOFTPLUS_OMP(float, f32, expf, log1pf, fabsf)
SOFTPLUS_OMP(double, f64, exp, log1p, fabs)
