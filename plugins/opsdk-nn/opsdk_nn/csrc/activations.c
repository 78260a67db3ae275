/* Fused elementwise activations: forward, backward and double backward in one pass each.
 *
 * For each activation ACT and dtype suffix S (f32, f64):
 *   nn_ACT_fwd_S(x, y, n, p0, p1)                 y = f(x)
 *   nn_ACT_bwd_S(x, dy, dx, n, p0, p1)            dx = dy f'(x)
 *   nn_ACT_bwd2_S(x, dy, g, gx, gdy, n, p0, p1)   gx = g dy f''(x), gdy = g f'(x)
 * p0, p1 are the activation's parameters (softplus: beta, threshold; others ignore them).
 */
#include "nn_math.h"

#define NN_T float
#define NN_F(name) name##_f32
#define NN_EXP nn_expf
#define NN_LOG1P_UNIT nn_log1p_unitf
#define NN_ERFC_Q nn_erfc_qf
#include "act_math.h"
#undef NN_T
#undef NN_F
#undef NN_EXP
#undef NN_LOG1P_UNIT
#undef NN_ERFC_Q

#define NN_T double
#define NN_F(name) name##_f64
#define NN_EXP nn_exp
#define NN_LOG1P_UNIT nn_log1p_unit
#define NN_ERFC_Q nn_erfc_q
#include "act_math.h"

/* Chunks are whole 64-byte lines of float32, so two threads never write one line. */
#define NN_GRANULE 16

#define NN_ACTIVATION(ACT, T, S)                                                              \
    NN_CLONES static void ACT##_fwd_range_##S(const T *restrict x, T *restrict y, int64_t lo,  \
                                              int64_t hi, T p0, T p1) {                        \
        NN_SIMD for (int64_t i = lo; i < hi; i++) {                                           \
            T f, d1, d2;                                                                      \
            ACT##_##S(x[i], p0, p1, &f, &d1, &d2);                                            \
            y[i] = f;                                                                         \
        }                                                                                     \
    }                                                                                         \
    NN_CLONES static void ACT##_bwd_range_##S(const T *restrict x, const T *restrict dy,      \
                                              T *restrict dx, int64_t lo, int64_t hi, T p0,   \
                                              T p1) {                                         \
        NN_SIMD for (int64_t i = lo; i < hi; i++) {                                           \
            T f, d1, d2;                                                                      \
            ACT##_##S(x[i], p0, p1, &f, &d1, &d2);                                            \
            dx[i] = dy[i] * d1;                                                               \
        }                                                                                     \
    }                                                                                         \
    NN_CLONES static void ACT##_bwd2_range_##S(const T *restrict x, const T *restrict dy,     \
                                               const T *restrict g, T *restrict gx,           \
                                               T *restrict gdy, int64_t lo, int64_t hi, T p0, \
                                               T p1) {                                        \
        NN_SIMD for (int64_t i = lo; i < hi; i++) {                                           \
            T f, d1, d2;                                                                      \
            ACT##_##S(x[i], p0, p1, &f, &d1, &d2);                                            \
            gx[i] = g[i] * dy[i] * d2;                                                        \
            gdy[i] = g[i] * d1;                                                               \
        }                                                                                     \
    }                                                                                         \
    void nn_##ACT##_fwd_##S(const T *x, T *y, int64_t n, double p0, double p1) {              \
        NN_PARALLEL(n, n, NN_GRANULE, ACT##_fwd_range_##S(x, y, lo_, hi_, (T)p0, (T)p1));      \
    }                                                                                         \
    void nn_##ACT##_bwd_##S(const T *x, const T *dy, T *dx, int64_t n, double p0, double p1) { \
        NN_PARALLEL(n, n, NN_GRANULE, ACT##_bwd_range_##S(x, dy, dx, lo_, hi_, (T)p0, (T)p1)); \
    }                                                                                         \
    void nn_##ACT##_bwd2_##S(const T *x, const T *dy, const T *g, T *gx, T *gdy, int64_t n,   \
                             double p0, double p1) {                                          \
        NN_PARALLEL(n, n, NN_GRANULE,                                                         \
                    ACT##_bwd2_range_##S(x, dy, g, gx, gdy, lo_, hi_, (T)p0, (T)p1));          \
    }

#define NN_BOTH(ACT) NN_ACTIVATION(ACT, float, f32) NN_ACTIVATION(ACT, double, f64)

NN_BOTH(gelu)
NN_BOTH(gelu_tanh)
NN_BOTH(silu)
NN_BOTH(softplus)
NN_BOTH(mish)
