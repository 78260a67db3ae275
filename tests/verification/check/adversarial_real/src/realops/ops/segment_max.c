/* realops.segment_max / segment_mean: reductions of the rows of src [E, F] over CSR segments.
 *
 * Ported from rusty1s/pytorch_scatter, csrc/cpu/segment_csr_cpu.cpp and csrc/cpu/reducer.h
 * (Reducer<scalar_t, MAX / MEAN>: init, update, write): segment s holds rows indptr[s] to
 * indptr[s + 1] - 1; the max keeps the first row on ties (`new_val > *val`), an empty segment
 * gives 0 and the argmax E (src.size(dim), the source's sentinel); the mean of an empty segment
 * is 0 (the source divides by `count > 0 ? count : 1`) and sums in double.
 *
 *   segment_max_T(src, indptr, out, arg, segments, features)
 *   segment_mean_T(src, indptr, out, segments, features)
 *
 * Bug switches (the pack's bug variants compile this file with one defined):
 *   REALOPS_BUG_TIE_LAST     `new_val >= *val`: ties go to the last row
 *   REALOPS_BUG_EMPTY_INIT   the write step without the source's `count > 0` branch: an empty
 *                            segment gets the reducer's initial value (the lowest float) and
 *                            the argmax of the segment's start
 *   REALOPS_BUG_MEAN_FLOAT   the float32 mean sums in a float accumulator
 *   REALOPS_BUG_MEAN_EMPTY   the mean divides by the count, 0 for an empty segment: 0 / 0
 */
#include <float.h>
#include <stdint.h>

#ifdef REALOPS_BUG_TIE_LAST
#define WINS(v, best) ((v) >= (best))
#else
#define WINS(v, best) ((v) > (best))
#endif

#ifdef REALOPS_BUG_MEAN_FLOAT
#define MEAN_ACC_f32 float
#else
#define MEAN_ACC_f32 double
#endif
#define MEAN_ACC_f64 double

#define SEGMENT(T, SUFFIX, LOWEST)                                                                  \
    void segment_max_##SUFFIX(const T *src, const int64_t *indptr, T *out, int64_t *arg,            \
                              int64_t segments, int64_t features)                                   \
    {                                                                                               \
        int64_t rows = indptr[segments];                                                            \
        for (int64_t s = 0; s < segments; s++) {                                                    \
            int64_t lo = indptr[s], hi = indptr[s + 1];                                             \
            for (int64_t f = 0; f < features; f++) {                                                \
                T best = LOWEST;                                                                    \
                int64_t where = lo;                                                                 \
                for (int64_t e = lo; e < hi; e++) {                                                 \
                    T v = src[e * features + f];                                                    \
                    if (WINS(v, best)) { best = v; where = e; }                                     \
                }                                                                                   \
                EMPTY_WRITE(T)                                                                      \
            }                                                                                       \
        }                                                                                           \
        (void)rows;                                                                                 \
    }                                                                                               \
    void segment_mean_##SUFFIX(const T *src, const int64_t *indptr, T *out, int64_t segments,       \
                               int64_t features)                                                    \
    {                                                                                               \
        for (int64_t s = 0; s < segments; s++) {                                                    \
            int64_t lo = indptr[s], hi = indptr[s + 1];                                             \
            for (int64_t f = 0; f < features; f++) {                                                \
                MEAN_ACC_##SUFFIX acc = 0;                                                          \
                for (int64_t e = lo; e < hi; e++) acc += src[e * features + f];                     \
                out[s * features + f] = (T)(acc / MEAN_COUNT(hi - lo));                             \
            }                                                                                       \
        }                                                                                           \
    }

#ifdef REALOPS_BUG_EMPTY_INIT
#define EMPTY_WRITE(T) out[s * features + f] = best; arg[s * features + f] = where;
#else
#define EMPTY_WRITE(T)                                                                              \
    if (hi > lo) { out[s * features + f] = best; arg[s * features + f] = where; }                   \
    else { out[s * features + f] = (T)0; arg[s * features + f] = rows; }
#endif

#ifdef REALOPS_BUG_MEAN_EMPTY
#define MEAN_COUNT(c) ((double)(c))
#else
#define MEAN_COUNT(c) ((double)((c) > 0 ? (c) : 1))
#endif

SEGMENT(float, f32, -FLT_MAX)
SEGMENT(double, f64, -DBL_MAX)
