/* opsdk/elementwise.h: what elementwise C kernels share (those `opsdk new-op` writes, and yours).
 *
 *   OPSDK_CLONES    before a function: compiled for AVX-512, AVX2 and baseline x86-64, the
 *                   widest the CPU has picked at load time (one binary for every machine that
 *                   shares the kernel cache, which -march=native would not be); gcc's jump
 *                   threading off (below)
 *   OPSDK_SIMD      before a loop: vectorize it (omp simd)
 *   OPSDK_PARALLEL(n, lo, hi, call)
 *                   run `call` (which uses lo and hi) over ranges [lo, hi) covering [0, n):
 *                   on the calling thread below OPSDK_OMP_MIN elements, else chunk by chunk
 *                   on the OpenMP team (OPSDK_PARALLEL_CHUNKS: the same over rows)
 *
 * Compile with OpenMP (CSource(openmp=True)) and -O3 -fno-math-errno -fno-trapping-math (no
 * -ffast-math: inf and nan keep their meaning); opsdk/maths.h comes with it.
 */
#ifndef OPSDK_ELEMENTWISE_H
#define OPSDK_ELEMENTWISE_H

#include <stdint.h>

#include "opsdk/maths.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* below this many elements waking the OpenMP team costs more than the work */
#ifndef OPSDK_OMP_MIN
#define OPSDK_OMP_MIN 65536
#endif

/* gcc's jump threading is off in these loops: before vectorizing, a ?: is a branch, and where
 * two branch on the same condition with work between them (sigmoid, tanh_softplus and
 * sech2_softplus of one u all branch on u >= 0) it copies that work for either side, which the
 * vectorized loop then does twice: mish's derivative divided three times per element instead
 * of two (its forward + backward 15 % slower). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define OPSDK_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), \
                                    optimize("no-thread-jumps")))
#elif defined(__GNUC__) && !defined(__clang__)
#define OPSDK_CLONES __attribute__((optimize("no-thread-jumps")))
#else
#define OPSDK_CLONES
#endif

#ifdef _OPENMP
#define OPSDK_SIMD _Pragma("omp simd")
#else
#define OPSDK_SIMD
#endif

static inline int opsdk_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* Chunks are handed out dynamically, about 8 per thread, so a thread that loses its core to
 * another process delays the call by one small chunk; they are whole multiples of granule
 * elements (16 float32 = one 64-byte line for elementwise loops), so two threads never write
 * one cache line. */
static inline int64_t opsdk_chunk(int64_t count, int64_t granule, int threads) {
    int64_t chunks = (int64_t)threads * 8;
    int64_t size = ((count + chunks - 1) / chunks + granule - 1) / granule * granule;
    return size < granule ? granule : size;
}

/* The general form: `count` items (rows, elements) cut in chunks of whole `granule`s, run on the
 * team when `work` (elements touched) reaches OPSDK_OMP_MIN. */
#define OPSDK_PARALLEL_CHUNKS(count, work, granule, lo, hi, call)                    \
    do {                                                                             \
        int64_t opsdk_n_ = (count);                                                  \
        int opsdk_threads_ = opsdk_threads();                                        \
        if ((work) < OPSDK_OMP_MIN || opsdk_n_ < 2 || opsdk_threads_ < 2) {          \
            int64_t lo = 0, hi = opsdk_n_;                                           \
            call;                                                                    \
        } else {                                                                     \
            int64_t opsdk_size_ = opsdk_chunk(opsdk_n_, (granule), opsdk_threads_);  \
            int64_t opsdk_chunks_ = (opsdk_n_ + opsdk_size_ - 1) / opsdk_size_;      \
            _Pragma("omp parallel for schedule(dynamic, 1)")                         \
            for (int64_t opsdk_c_ = 0; opsdk_c_ < opsdk_chunks_; opsdk_c_++) {       \
                int64_t lo = opsdk_c_ * opsdk_size_;                                 \
                int64_t hi = lo + opsdk_size_ < opsdk_n_ ? lo + opsdk_size_ : opsdk_n_; \
                call;                                                                \
            }                                                                        \
        }                                                                            \
    } while (0)

#define OPSDK_PARALLEL(n, lo, hi, call) OPSDK_PARALLEL_CHUNKS(n, n, 16, lo, hi, call)

#endif
