/* realops.chamfer: nearest neighbours between two point sets, forward and backward in C.
 *
 * Ported from ThibaultGROUEIX/ChamferDistancePytorch, chamfer3D/chamfer3D.cu (NmDistanceKernel,
 * NmDistanceGradKernel): for every point of x [B, N, D] its nearest point of y [B, M, D] (squared
 * distance, first index on ties, as torch.min and numpy.argmin), with the source's inner loop
 * unrolled by four (`end_ka = end_k - (end_k & 3)`) and its tail; the backward scatters
 * 2 g (x - y[idx]) into both gradients.
 *
 *   chamfer_nn_T(x, y, dist, idx, batch, n, m, dim)            one direction: x -> y
 *   chamfer_grad_T(x, y, gdist, idx, gx, gy, batch, n, m, dim)  adds that direction's gradients
 *
 * Bug switches (the pack's bug variants compile this file with one defined):
 *   REALOPS_BUG_TAIL       the tail loop after the unrolled part stops one short
 *   REALOPS_BUG_TIE_LAST   `d <= best`: ties go to the last index
 */
#include <stdint.h>

#ifdef REALOPS_BUG_TIE_LAST
#define BETTER(d, best) ((d) <= (best))
#else
#define BETTER(d, best) ((d) < (best))
#endif

#ifdef REALOPS_BUG_TAIL
#define TAIL_END(end) ((end) - 1)
#else
#define TAIL_END(end) (end)
#endif

#define CHAMFER(T, SUFFIX)                                                                          \
    static T sqdist_##SUFFIX(const T *a, const T *b, int64_t dim)                                   \
    {                                                                                               \
        T d = 0;                                                                                    \
        for (int64_t k = 0; k < dim; k++) { T t = b[k] - a[k]; d += t * t; }                        \
        return d;                                                                                   \
    }                                                                                               \
    void chamfer_nn_##SUFFIX(const T *x, const T *y, T *dist, int64_t *idx, int64_t batch,          \
                             int64_t n, int64_t m, int64_t dim)                                     \
    {                                                                                               \
        for (int64_t b = 0; b < batch; b++)                                                         \
            for (int64_t i = 0; i < n; i++) {                                                       \
                const T *p = x + (b * n + i) * dim, *q = y + b * m * dim;                           \
                int64_t best_i = 0, end_ka = m - (m & 3);                                           \
                T best = 0;                                                                         \
                for (int64_t k = 0; k < end_ka; k += 4) {                                           \
                    for (int64_t u = 0; u < 4; u++) {                                               \
                        T d = sqdist_##SUFFIX(p, q + (k + u) * dim, dim);                           \
                        if ((k == 0 && u == 0) || BETTER(d, best)) { best = d; best_i = k + u; }    \
                    }                                                                               \
                }                                                                                   \
                for (int64_t k = end_ka; k < TAIL_END(m); k++) {                                    \
                    T d = sqdist_##SUFFIX(p, q + k * dim, dim);                                     \
                    if (k == 0 || BETTER(d, best)) { best = d; best_i = k; }                        \
                }                                                                                   \
                dist[b * n + i] = best;                                                             \
                idx[b * n + i] = best_i;                                                            \
            }                                                                                       \
    }                                                                                               \
    void chamfer_grad_##SUFFIX(const T *x, const T *y, const T *gdist, const int64_t *idx, T *gx,   \
                               T *gy, int64_t batch, int64_t n, int64_t m, int64_t dim)             \
    {                                                                                               \
        for (int64_t b = 0; b < batch; b++)                                                         \
            for (int64_t i = 0; i < n; i++) {                                                       \
                const T *p = x + (b * n + i) * dim;                                                 \
                int64_t j = idx[b * n + i];                                                         \
                const T *q = y + (b * m + j) * dim;                                                 \
                T g = 2 * gdist[b * n + i];                                                         \
                for (int64_t k = 0; k < dim; k++) {                                                 \
                    T t = g * (p[k] - q[k]);                                                        \
                    gx[(b * n + i) * dim + k] += t;                                                 \
                    gy[(b * m + j) * dim + k] -= t;                                                 \
                }                                                                                   \
            }                                                                                       \
    }

CHAMFER(float, f32)
CHAMFER(double, f64)
