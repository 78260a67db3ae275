#include <stdint.h>

void broken(double *y, int64_t n) {
    for (int64_t i = 0; i < n; i++) y[i] = 1.0
}
