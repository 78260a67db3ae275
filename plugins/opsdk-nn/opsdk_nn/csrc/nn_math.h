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

#include "opsdk/elementwise.h"

/* Threads, chunking and CPU targets come from the SDK's opsdk/elementwise.h (on every
 * CSource's include path): NN_PARALLEL(count, work, granule, CALL) runs CALL over [lo_, hi_)
 * on this thread below OPSDK_OMP_MIN (65536) elements of work, else chunk by chunk on the
 * OpenMP team. */
#define NN_OMP_MIN OPSDK_OMP_MIN
#define NN_CLONES OPSDK_CLONES
#define NN_PARALLEL(count, work, granule, CALL) OPSDK_PARALLEL_CHUNKS(count, work, granule, lo_, hi_, CALL)
#define nn_max_threads opsdk_threads
#define nn_chunk_size opsdk_chunk

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

/* log(1 + u) for u in [0, 1]: the SDK's 2 atanh(u / (2 + u)) series (no cancellation, so tiny u
 * keep full relative precision) */
static inline float nn_log1p_unitf(float u) { return opsdk_log1p_unit_f32(u); }

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
