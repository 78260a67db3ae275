/* opsdk.erf, C backend: libm's erff / erf over contiguous arrays, one pass. */
#include <math.h>
#include <stdint.h>

void opsdk_erf_f32(const float *restrict x, float *restrict y, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = erff(x[i]);
}

void opsdk_erf_f64(const double *restrict x, double *restrict y, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = erf(x[i]);
}
