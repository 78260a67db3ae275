/* Shared helpers of the opsdk-nn C kernels: work splitting, CPU targets, vectorizable maths.
 *
 * Every helper is branch-free (selects, not jumps) so the loops that inline it vectorize;
 * float32 gets its own exp/erfc/log1p because glibc's scalar ones stop gcc from vectorizing
 * without -ffast-math, which would also break inf/nan handling. float64 uses libm.
 */
#ifndef OPSDK_NN_MATH_H
#define OPSDK_NN_MATH_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Below this many elements a kernel stays on the calling thread: waking the OpenMP team
 * costs a few microseconds, more than the work itself. */
#define NN_OMP_MIN 65536

/* One binary runs the widest vectors the CPU has (the cache is shared by every machine
 * mounting the same home directory, so -march=native would be unsafe). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define NN_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define NN_CLONES
#endif

#ifdef _OPENMP
#define NN_SIMD _Pragma("omp simd")
#define NN_SIMD_SUM(v) _Pragma(NN_STR(omp simd reduction(+:v)))
#define NN_SIMD_SUM2(a, b) _Pragma(NN_STR(omp simd reduction(+:a, b)))
#define NN_SIMD_MAX(v) _Pragma(NN_STR(omp simd reduction(max:v)))
#else
#define NN_SIMD
#define NN_SIMD_SUM(v)
#define NN_SIMD_SUM2(a, b)
#define NN_SIMD_MAX(v)
#endif
#define NN_STR(x) #x

static inline int nn_max_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* Work is cut into about NN_CHUNKS_PER_THREAD chunks per thread, handed out dynamically: on a
 * machine shared with other processes a thread that loses its core then delays the call by
 * one small chunk, not by a whole static share. Chunks are multiples of granule (whole cache
 * lines for elementwise loops, so two threads never write one line). */
#define NN_CHUNKS_PER_THREAD 8

static inline int64_t nn_chunk_size(int64_t count, int64_t granule, int threads) {
    int64_t chunks = (int64_t)threads * NN_CHUNKS_PER_THREAD;
    int64_t size = (count + chunks - 1) / chunks;
    size = (size + granule - 1) / granule * granule;
    return size < granule ? granule : size;
}

/* Run CALL over [lo_, hi_): the whole range on this thread when work < NN_OMP_MIN elements,
 * else chunk by chunk on the OpenMP team. */
#define NN_PARALLEL(count, work, granule, CALL)                                   \
    do {                                                                          \
        int64_t count_ = (count);                                                 \
        int threads_ = nn_max_threads();                                          \
        if ((work) < NN_OMP_MIN || count_ < 2 || threads_ < 2) {                  \
            int64_t lo_ = 0, hi_ = count_;                                        \
            CALL;                                                                 \
        } else {                                                                  \
            int64_t size_ = nn_chunk_size(count_, (granule), threads_);           \
            int64_t chunks_ = (count_ + size_ - 1) / size_;                       \
            _Pragma("omp parallel for schedule(dynamic, 1)")                      \
            for (int64_t c_ = 0; c_ < chunks_; c_++) {                            \
                int64_t lo_ = c_ * size_;                                         \
                int64_t hi_ = lo_ + size_ < count_ ? lo_ + size_ : count_;        \
                CALL;                                                             \
            }                                                                     \
        }                                                                         \
    } while (0)

/* ---- float32 maths ------------------------------------------------------------------- */

/* exp(x) for x <= 0 (every exp in these kernels: -|u|, x - max, log-probabilities):
 * 2^k exp(r), |r| <= ln2/2, exp(r) by its Taylor series to r^7 (under 1 ulp). Results below
 * 4.4e-38 flush to 0; a NaN stays NaN (it reaches the polynomial untouched). */
static inline float nn_expf(float x) {
    const float lo = -86.0f;
    float xc = x < lo ? lo : x;
    float kf = xc * 1.44269504088896341f + 12582912.0f; /* + 1.5 * 2^23 rounds to an integer */
    kf -= 12582912.0f;
    float r = xc - kf * 0.693145751953125f;
    r = r - kf * 1.428606765330187045e-06f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    int32_t k = (int32_t)kf;
    uint32_t bits = (uint32_t)(k + 127) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return x < lo ? 0.0f : p * scale;
}

/* erfc(z) * exp(z^2) / t for z >= 0, t = 2 / (2 + z): fitted by tools/fit_erfc.py
 * (relative error 6e-9 on z in [0, 10.5], past which exp(-z^2) underflows anyway). */
static inline float nn_erfc_qf(float t) {
    float q = 0.03320108611873582f;
    q = q * t - 0.17645247649686413f;
    q = q * t + 0.3452935694711034f;
    q = q * t - 0.23835266127046376f;
    q = q * t - 0.06788243522410152f;
    q = q * t + 0.06248514297111914f;
    q = q * t + 0.04427630338141431f;
    q = q * t + 0.18830633981015055f;
    q = q * t + 0.24474703298867623f;
    q = q * t + 0.28229105065727456f;
    q = q * t + 0.2820870497502761f;
    return q;
}

/* log(1 + u) for u in [0, 1] as 2 atanh(s), s = u / (2 + u) <= 1/3: no cancellation, so
 * tiny u keep full relative precision. */
static inline float nn_log1p_unitf(float u) {
    float s = u / (2.0f + u), s2 = s * s;
    float p = 1.0f / 15.0f;
    p = p * s2 + 1.0f / 13.0f;
    p = p * s2 + 1.0f / 11.0f;
    p = p * s2 + 1.0f / 9.0f;
    p = p * s2 + 1.0f / 7.0f;
    p = p * s2 + 1.0f / 5.0f;
    p = p * s2 + 1.0f / 3.0f;
    p = p * s2 + 1.0f;
    return 2.0f * s * p;
}

/* ---- float64 maths: libm, plus the erfc fit shared with the python kernels --------------- */

static inline double nn_erfc_q(double t) {
    static const double c[21] = {
        0.2820947916292562, 0.28209480331868847, 0.2468325282575353, 0.17631814656795833,
        0.08361866361629569, -0.0030903285056159972, -0.06676519410532901, 0.004205364129310059,
        -0.2583442654756012, 0.9162264987930562, -2.211638284863111, 4.4689518321360335,
        -6.527239095427195, 6.1243189303614445, -2.9001687549349757, -0.6677695715292907,
        2.1756845750698552, -1.6918719818043455, 0.7185211877274248, -0.1695181703950855,
        0.017538325433694178,
    };
    double q = c[20];
    for (int i = 19; i >= 0; i--) q = q * t + c[i];
    return q;
}

static inline double nn_exp(double x) { return exp(x); }
static inline double nn_log1p_unit(double u) { return log1p(u); }

#endif
