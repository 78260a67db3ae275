#include <stdint.h>
#include "scale_helper.h"

void scale_f32(const float *x, float *y, int64_t n, float a) {
    for (int64_t i = 0; i < n; i++) y[i] = SCALE(a, x[i]);
}

void scale_f64(const double *x, double *y, int64_t n, double a) {
    for (int64_t i = 0; i < n; i++) y[i] = SCALE(a, x[i]);
}
