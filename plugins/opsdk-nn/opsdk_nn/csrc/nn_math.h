/* Shared helpers of the opsdk-nn C kernels: work splitting, CPU targets, vectorizable maths.
 *
 * Every helper is branch-free (selects, not jumps) so the loops that inline it vectorize;
 * float32 gets its own exp because glibc's scalar ones stop gcc from vectorizing
 * without -ffast-math, which would also break inf/nan handling. float64 uses libm. (The activations' maths are opsdk/maths.h's, through Elementwise.c_bodies.)
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

#endif
