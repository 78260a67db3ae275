/* kernels whose arrays are not all of one shape: tests/kernels/test_layout.py */
#include <stdint.h>

#define SHAPED(T, sfx)                                                                      \
void ema_##sfx(const T *x, T *y, int64_t batch, int64_t steps, T a) {                       \
    for (int64_t b = 0; b < batch; b++) {                                                   \
        T prev = 0;                                                                         \
        for (int64_t t = 0; t < steps; t++) {                                               \
            prev = a * prev + (1 - a) * x[b * steps + t]; y[b * steps + t] = prev;          \
        }                                                                                   \
    }                                                                                       \
}                                                                                           \
void argmin_rows_##sfx(const T *x, T *values, int64_t *index, int64_t rows, int64_t cols) { \
    for (int64_t r = 0; r < rows; r++) {                                                    \
        int64_t best = 0;                                                                   \
        for (int64_t c = 1; c < cols; c++)                                                  \
            if (x[r * cols + c] < x[r * cols + best]) best = c;                             \
        values[r] = x[r * cols + best]; index[r] = best;                                    \
    }                                                                                       \
}                                                                                           \
void bias_channels_##sfx(const T *x, const T *bias, T *y, int64_t n, int64_t channels,     \
                         int64_t inner) {                                                   \
    for (int64_t i = 0; i < n; i++) y[i] = x[i] + bias[(i / inner) % channels];             \
}                                                                                           \
void scatter_rows_##sfx(const T *rows, const int64_t *index, T *table, int64_t count,       \
                        int64_t width) {                                                    \
    for (int64_t i = 0; i < count * width; i++) table[index[i / width] * width + i % width] += rows[i]; \
}

SHAPED(float, f32)
SHAPED(double, f64)
