/* example.swish, C backend: y = x * sigmoid(beta * x) and its gradient, over contiguous arrays.
 *
 * One function per dtype and direction. opsdk reads these declarations (no cdef to keep in
 * step) and calls them on NumPy buffers without copies: const pointers are inputs, the other
 * pointer the output it allocates, n the element count, beta an attribute.
 */
#include <math.h>
#include <stdint.h>

/* exp only ever sees -|z|, so it never overflows */
static inline float sigmoid_f32(float z)
{
    float e = expf(-fabsf(z));
    return z >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}

static inline double sigmoid_f64(double z)
{
    double e = exp(-fabs(z));
    return z >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

void swish_fwd_f32(const float *restrict x, float *restrict y, int64_t n, float beta)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = x[i] * sigmoid_f32(beta * x[i]);
}

void swish_fwd_f64(const double *restrict x, double *restrict y, int64_t n, double beta)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = x[i] * sigmoid_f64(beta * x[i]);
}

/* dx = dy * (s + beta * x * s * (1 - s)), s = sigmoid(beta * x) */
void swish_bwd_f32(const float *restrict x, const float *restrict dy, float *restrict dx,
                   int64_t n, float beta)
{
    for (int64_t i = 0; i < n; i++) {
        float s = sigmoid_f32(beta * x[i]);
        dx[i] = dy[i] * (s + beta * x[i] * s * (1.0f - s));
    }
}

void swish_bwd_f64(const double *restrict x, const double *restrict dy, double *restrict dx,
                   int64_t n, double beta)
{
    for (int64_t i = 0; i < n; i++) {
        double s = sigmoid_f64(beta * x[i]);
        dx[i] = dy[i] * (s + beta * x[i] * s * (1.0 - s));
    }
}
