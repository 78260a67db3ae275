/* logsumexp: the C kernels of RMSNorm over the rows of x [rows, n] (see logsumexp.py).
 *
 *   logsumexp_forward_T(x, weight, y, rstd, rows, n, eps)        rstd[r] = 1 / sqrt(mean(x[r]^2) + eps)
 *                                                            y[r] = x[r] * rstd[r] * weight
 *   logsumexp_backward_T(x, weight, rstd, dy, dx, dweight, rows, n)
 *       xhat = x * rstd, g = dy * weight:  dx[r] = rstd[r] * (g[r] - xhat[r] * mean(g[r] * xhat[r]))
 *                                          dweight = sum over rows of dy * xhat
 *
 * for T = f32 (float) and f64 (double); the logsumexp.py adapters allocate the outputs. Rows are
 * independent, so they are shared among OpenMP threads above OPSDK_OMP_MIN elements; sums are
 * accumulated in double, so float32 rows of any length keep their precision.
 */
#include "opsdk/elementwise.h"

void logsumexp_forward_f32(const float *x, const float *weight, float *y, float *rstd, int64_t rows, int64_t n,
                       double eps)
{
#pragma omp parallel for if (rows * n > OPSDK_OMP_MIN)
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = y + r * n;
        double sum = 0.0;
        #pragma omp simd reduction(+:sum)
        for (int64_t j = 0; j < n; j++) sum += (double)xr[j] * xr[j];
        float s = (float)(1.0 / sqrt(sum / (double)n + eps));
        rstd[r] = s;
        OPSDK_SIMD for (int64_t j = 0; j < n; j++) yr[j] = xr[j] * s * weight[j];
    }
}

void logsumexp_backward_f32(const float *x, const float *weight, const float *rstd, const float *dy, float *dx,
                        float *dweight, int64_t rows, int64_t n)
{
#pragma omp parallel for if (rows * n > OPSDK_OMP_MIN)
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * n, *dyr = dy + r * n;
        float *dxr = dx + r * n;
        double dot = 0.0;
        #pragma omp simd reduction(+:dot)
        for (int64_t j = 0; j < n; j++) dot += (double)dyr[j] * weight[j] * xr[j];
        float s = rstd[r], c = (float)(dot / (double)n) * s * s;
        OPSDK_SIMD for (int64_t j = 0; j < n; j++) dxr[j] = s * (dyr[j] * weight[j] - xr[j] * c);
    }
    /* dweight sums over rows: a block of 64 columns at a time, summed in double, rows read in order */
#pragma omp parallel for if (rows * n > OPSDK_OMP_MIN)
    for (int64_t j0 = 0; j0 < n; j0 += 64) {
        int64_t j1 = j0 + 64 < n ? j0 + 64 : n;
        double acc[64] = {0.0};
        for (int64_t r = 0; r < rows; r++) {
            const float *xr = x + r * n, *dyr = dy + r * n;
            double s = rstd[r];
            OPSDK_SIMD for (int64_t j = j0; j < j1; j++) acc[j - j0] += (double)dyr[j] * xr[j] * s;
        }
        for (int64_t j = j0; j < j1; j++) dweight[j] = (float)acc[j - j0];
    }
}

/* float64: the same loops in double */

void logsumexp_forward_f64(const double *x, const double *weight, double *y, double *rstd, int64_t rows, int64_t n,
                       double eps)
{
#pragma omp parallel for if (rows * n > OPSDK_OMP_MIN)
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * n;
        double *yr = y + r * n;
        double sum = 0.0;
        #pragma omp simd reduction(+:sum)
        for (int64_t j = 0; j < n; j++) sum += xr[j] * xr[j];
        double s = 1.0 / sqrt(sum / (double)n + eps);
        rstd[r] = s;
        OPSDK_SIMD for (int64_t j = 0; j < n; j++) yr[j] = xr[j] * s * weight[j];
    }
}

void logsumexp_backward_f64(const double *x, const double *weight, const double *rstd, const double *dy, double *dx,
                        double *dweight, int64_t rows, int64_t n)
{
#pragma omp parallel for if (rows * n > OPSDK_OMP_MIN)
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * n, *dyr = dy + r * n;
        double *dxr = dx + r * n;
        double dot = 0.0;
        #pragma omp simd reduction(+:dot)
        for (int64_t j = 0; j < n; j++) dot += dyr[j] * weight[j] * xr[j];
        double s = rstd[r], c = dot / (double)n * s * s;
        OPSDK_SIMD for (int64_t j = 0; j < n; j++) dxr[j] = s * (dyr[j] * weight[j] - xr[j] * c);
    }
    /* dweight sums over rows: a block of 64 columns at a time, summed in double, rows read in order */
#pragma omp parallel for if (rows * n > OPSDK_OMP_MIN)
    for (int64_t j0 = 0; j0 < n; j0 += 64) {
        int64_t j1 = j0 + 64 < n ? j0 + 64 : n;
        double acc[64] = {0.0};
        for (int64_t r = 0; r < rows; r++) {
            const double *xr = x + r * n, *dyr = dy + r * n;
            double s = rstd[r];
            OPSDK_SIMD for (int64_t j = j0; j < j1; j++) acc[j - j0] += (double)dyr[j] * xr[j] * s;
        }
        for (int64_t j = j0; j < j1; j++) dweight[j] = acc[j - j0];
    }
}
