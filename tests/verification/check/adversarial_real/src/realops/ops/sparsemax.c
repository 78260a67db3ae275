/* realops.sparsemax: the forward of sparsemax over the rows of x [rows, n] (see sparsemax.py).
 *
 * Maths ported from deep-spin/entmax, entmax/activations.py (_sparsemax_threshold_and_support):
 *   z = x - max(x); zs = z sorted descending; cs = cumsum(zs) - 1
 *   k = #{j : (j + 1) zs[j] > cs[j]},  tau = cs[k - 1] / k,  p = max(z - tau, 0)
 *
 *   sparsemax_forward_T(x, p, support, rows, n)    T = f32 (float) or f64 (double)
 *
 * The sort works on a double copy of the row and the cumulative sum is kept in double, so rows
 * of any length keep their precision in float32.
 *
 * Bug switch (the pack's bug variants compile this file with it defined):
 *   REALOPS_BUG_TOP2  a "fast path" for the common sparse case: the threshold from the two
 *                     largest values only, without the fallback entmax does when the support
 *                     fills the partial sort (its `unsolved` rows): wrong when 3 or more
 *                     elements of a row are active.
 */
#include <stdint.h>
#include <stdlib.h>

static int descending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* tau and the support size of one row z (max already subtracted), n >= 1 */
static double threshold(const double *z, double *scratch, int64_t n, int64_t *support)
{
#ifdef REALOPS_BUG_TOP2
    double a = -1e300, b = -1e300;
    (void)scratch;
    for (int64_t j = 0; j < n; j++) {
        if (z[j] > a) { b = a; a = z[j]; }
        else if (z[j] > b) b = z[j];
    }
    if (n > 1 && 2.0 * b > a + b - 1.0) { *support = 2; return (a + b - 1.0) / 2.0; }
    *support = 1;
    return a - 1.0;
#else
    for (int64_t j = 0; j < n; j++) scratch[j] = z[j];
    qsort(scratch, (size_t)n, sizeof(double), descending);
    double cs = 0.0, cs_at_k = 0.0;
    int64_t k = 0;
    for (int64_t j = 0; j < n; j++) {
        cs += scratch[j];
        if ((double)(j + 1) * scratch[j] > cs - 1.0) { k = j + 1; cs_at_k = cs; }
    }
    *support = k;
    return (cs_at_k - 1.0) / (double)k;
#endif
}

#define SPARSEMAX_FORWARD(T, SUFFIX)                                                               \
    int sparsemax_forward_##SUFFIX(const T *x, T *p, int64_t *support, int64_t rows, int64_t n)   \
    {                                                                                              \
        double *z = malloc(2 * (size_t)n * sizeof(double));                                        \
        if (!z) return -1;                                                                         \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            const T *xr = x + r * n;                                                               \
            double m = xr[0];                                                                      \
            for (int64_t j = 1; j < n; j++) if (xr[j] > m) m = xr[j];                              \
            for (int64_t j = 0; j < n; j++) z[j] = (double)xr[j] - m;                              \
            double tau = threshold(z, z + n, n, support + r);                                      \
            for (int64_t j = 0; j < n; j++) p[r * n + j] = (T)(z[j] > tau ? z[j] - tau : 0.0);     \
        }                                                                                          \
        free(z);                                                                                   \
        return 0;                                                                                  \
    }

SPARSEMAX_FORWARD(float, f32)
SPARSEMAX_FORWARD(double, f64)
