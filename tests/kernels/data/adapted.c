/* Functions called through the adapters opsdk writes from their declarations (test_adapters.py). */
#include <stdint.h>

void axpy_f32(const float *x, const float *y, float *out, int64_t n, float a) {
    for (int64_t i = 0; i < n; i++) out[i] = a * x[i] + y[i];
}

void axpy_f64(const double *x, const double *y, double *out, int64_t n, double a) {
    for (int64_t i = 0; i < n; i++) out[i] = a * x[i] + y[i];
}

void split_f32(const float *x, float *below, float *above, int64_t n) {
    for (int64_t i = 0; i < n; i++) { below[i] = x[i] - 1; above[i] = x[i] + 1; }
}

void split_f64(const double *x, double *below, double *above, int64_t n) {
    for (int64_t i = 0; i < n; i++) { below[i] = x[i] - 1; above[i] = x[i] + 1; }
}

void sizeless_f32(const float *x, float *y) { y[0] = x[0]; }
void sizeless_f64(const double *x, double *y) { y[0] = x[0]; }

void uneven_f32(const float *x, float *y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = x[i]; }
void uneven_f64(const double *x, const double *z, double *y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = x[i] + z[i]; }

/* parameters named like Python keywords (C's `in` is a common name) */
void keywords_f32(const float *in, float *is, int64_t n, float lambda)
{
    for (int64_t i = 0; i < n; i++) is[i] = lambda * in[i];
}
void keywords_f64(const double *in, double *is, int64_t n, double lambda)
{
    for (int64_t i = 0; i < n; i++) is[i] = lambda * in[i];
}
