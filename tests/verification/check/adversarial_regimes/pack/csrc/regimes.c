#include <math.h>
#include <stdint.h>
#include <string.h>

/* Kernels of the regimes pack: correct ones, and ones with a planted bug each (see the
   bug_*.py modules). One body per function, instantiated for float (f32) and double (f64). */

/* -- row max with its index: a tie goes to the first index (first) or the last (last) -------- */
#define ROWMAX(T, S, NAME, CMP)                                                             \
void NAME##_fwd_##S(const T *x, T *y, int64_t *idx, int64_t rows, int64_t n) {            \
    for (int64_t r = 0; r < rows; r++) {                                                    \
        const T *xr = x + r * n;                                                            \
        int64_t best = 0;                                                                   \
        for (int64_t j = 1; j < n; j++) if (xr[j] CMP xr[best]) best = j;                   \
        y[r] = xr[best];                                                                    \
        idx[r] = best;                                                                      \
    }                                                                                       \
}
ROWMAX(float, f32, rowmax_first, >)
ROWMAX(double, f64, rowmax_first, >)
ROWMAX(float, f32, rowmax_last, >=)
ROWMAX(double, f64, rowmax_last, >=)

/* -- nearest neighbour (one side of a chamfer distance): for each point of x the squared
      distance to the nearest point of y and its index; backward scatters into both --------- */
#define NEAREST(T, S, NAME, CMP)                                                            \
void NAME##_fwd_##S(const T *x, const T *y, T *dist, int64_t *idx, int64_t n, int64_t m,  \
                    int64_t d) {                                                            \
    for (int64_t i = 0; i < n; i++) {                                                       \
        double best = INFINITY;                                                             \
        int64_t at = 0;                                                                     \
        for (int64_t j = 0; j < m; j++) {                                                   \
            double s = 0;                                                                   \
            for (int64_t k = 0; k < d; k++) {                                               \
                double t = (double)x[i * d + k] - (double)y[j * d + k];                     \
                s += t * t;                                                                 \
            }                                                                               \
            if (s CMP best) { best = s; at = j; }                                           \
        }                                                                                   \
        dist[i] = (T)best;                                                                  \
        idx[i] = at;                                                                        \
    }                                                                                       \
}
NEAREST(float, f32, nearest_first, <)
NEAREST(double, f64, nearest_first, <)
NEAREST(float, f32, nearest_last, <=)
NEAREST(double, f64, nearest_last, <=)

#define NEAREST_BWD(T, S)                                                                   \
void nearest_bwd_##S(const T *x, const T *y, const int64_t *idx, const T *g, T *gx, T *gy,\
                     int64_t n, int64_t m, int64_t d) {                                     \
    memset(gy, 0, (size_t)(m * d) * sizeof(T));                                             \
    for (int64_t i = 0; i < n; i++) {                                                       \
        int64_t j = idx[i];                                                                 \
        for (int64_t k = 0; k < d; k++) {                                                   \
            T t = (T)2 * (x[i * d + k] - y[j * d + k]) * g[i];                              \
            gx[i * d + k] = t;                                                              \
            gy[j * d + k] -= t;                                                             \
        }                                                                                   \
    }                                                                                       \
}
NEAREST_BWD(float, f32)
NEAREST_BWD(double, f64)

/* -- sums over rows: a double accumulator, and a float one for float32 (ACC = T) ------------ */
#define ROWSUM(T, S, NAME, ACC)                                                             \
void NAME##_##S(const T *x, T *y, int64_t rows, int64_t n) {                                \
    for (int64_t r = 0; r < rows; r++) {                                                    \
        ACC acc = 0;                                                                        \
        for (int64_t j = 0; j < n; j++) acc += x[r * n + j];                                \
        y[r] = (T)acc;                                                                      \
    }                                                                                       \
}
ROWSUM(float, f32, rowsum_wide, double)
ROWSUM(double, f64, rowsum_wide, double)
ROWSUM(float, f32, rowsum_narrow, float)
ROWSUM(double, f64, rowsum_narrow, double)

/* -- softmax over rows whose denominator accumulates in ACC -------------------------------- */
#define SOFTMAX(T, S, NAME, ACC, EXP)                                                       \
void NAME##_fwd_##S(const T *x, T *y, int64_t rows, int64_t n) {                            \
    for (int64_t r = 0; r < rows; r++) {                                                    \
        const T *xr = x + r * n;                                                            \
        T m = xr[0];                                                                        \
        for (int64_t j = 1; j < n; j++) m = xr[j] > m ? xr[j] : m;                          \
        ACC s = 0;                                                                          \
        for (int64_t j = 0; j < n; j++) { T e = EXP(xr[j] - m); y[r * n + j] = e; s += e; } \
        for (int64_t j = 0; j < n; j++) y[r * n + j] = (T)(y[r * n + j] / s);               \
    }                                                                                       \
}                                                                                           \
void NAME##_bwd_##S(const T *y, const T *dy, T *dx, int64_t rows, int64_t n) {             \
    for (int64_t r = 0; r < rows; r++) {                                                    \
        ACC dot = 0;                                                                        \
        for (int64_t j = 0; j < n; j++) dot += y[r * n + j] * dy[r * n + j];                \
        for (int64_t j = 0; j < n; j++)                                                     \
            dx[r * n + j] = (T)(y[r * n + j] * (dy[r * n + j] - dot));                      \
    }                                                                                       \
}
SOFTMAX(float, f32, softmax_wide, double, expf)
SOFTMAX(double, f64, softmax_wide, double, exp)
SOFTMAX(float, f32, softmax_narrow, float, expf)
SOFTMAX(double, f64, softmax_narrow, double, exp)

/* -- softmax with a fast path for rows of two: the sigmoid of the difference, with its sign
      flipped (BUG): only a row of two elements takes it ------------------------------------ */
#define SOFTMAX2(T, S, EXP)                                                                 \
void softmax_pair_fwd_##S(const T *x, T *y, int64_t rows, int64_t n) {                      \
    if (n == 2) {                                                                           \
        for (int64_t r = 0; r < rows; r++) {                                                \
            T p = (T)1 / ((T)1 + EXP(x[2 * r] - x[2 * r + 1]));                             \
            y[2 * r] = p;                                                                   \
            y[2 * r + 1] = (T)1 - p;                                                        \
        }                                                                                   \
        return;                                                                             \
    }                                                                                       \
    softmax_wide_fwd_##S(x, y, rows, n);                                                    \
}
SOFTMAX2(float, f32, expf)
SOFTMAX2(double, f64, exp)

/* -- row centring, in parallel above PAR_MIN rows ------------------------------------------ */
#define PAR_MIN 65536
#define CENTER(T, S)                                                                        \
void center_fwd_##S(const T *x, T *y, int64_t rows, int64_t n) {                            \
    _Pragma("omp parallel for if (rows > PAR_MIN)")                                         \
    for (int64_t r = 0; r < rows; r++) {                                                    \
        double s = 0;                                                                       \
        for (int64_t j = 0; j < n; j++) s += x[r * n + j];                                  \
        T mean = (T)(s / (double)n);                                                        \
        for (int64_t j = 0; j < n; j++) y[r * n + j] = x[r * n + j] - mean;                 \
    }                                                                                       \
}
CENTER(float, f32)
CENTER(double, f64)

/* -- huber loss, elementwise: quadratic below delta, linear above ------------------------- */
#define HUBER(T, S)                                                                         \
void huber_fwd_##S(const T *x, T *y, int64_t n, double delta) {                             \
    for (int64_t i = 0; i < n; i++) {                                                       \
        double a = fabs((double)x[i]);                                                      \
        y[i] = (T)(a <= delta ? 0.5 * x[i] * x[i] : delta * (a - 0.5 * delta));             \
    }                                                                                       \
}                                                                                           \
void huber_bwd_##S(const T *x, const T *dy, T *dx, int64_t n, double delta) {               \
    for (int64_t i = 0; i < n; i++) {                                                       \
        double a = fabs((double)x[i]);                                                      \
        double g = a <= delta ? (double)x[i] : (x[i] > 0 ? delta : -delta);                 \
        dx[i] = (T)(g * dy[i]);                                                             \
    }                                                                                       \
}
HUBER(float, f32)
HUBER(double, f64)

/* -- the soft-DTW table over squared distances D[m, n] (row-major), R[(m + 2) x (n + 2)] --- */
static double softmin3(double a, double b, double c, double gamma) {
    double x = -a / gamma, y = -b / gamma, z = -c / gamma;
    double top = x > y ? (x > z ? x : z) : (y > z ? y : z);
    if (!isfinite(top)) return INFINITY;
    return -gamma * (log(exp(x - top) + exp(y - top) + exp(z - top)) + top);
}

void soft_dtw_table_f64(const double *D, double *R, int64_t m, int64_t n, double gamma) {
    int64_t w = n + 2;
    for (int64_t k = 0; k < (m + 2) * w; k++) R[k] = INFINITY;
    R[0] = 0;
    for (int64_t i = 1; i <= m; i++)
        for (int64_t j = 1; j <= n; j++)
            R[i * w + j] = D[(i - 1) * n + (j - 1)] +
                           softmin3(R[(i - 1) * w + j - 1], R[(i - 1) * w + j], R[i * w + j - 1], gamma);
}

void soft_dtw_table_f32(const double *D, double *R, int64_t m, int64_t n, double gamma) {
    soft_dtw_table_f64(D, R, m, n, gamma);
}
