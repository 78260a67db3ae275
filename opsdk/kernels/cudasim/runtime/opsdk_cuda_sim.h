// The CUDA built-ins a kernel sees when the opsdk CUDA simulator compiles it with the host C++
// compiler: keywords, built-in variables, barriers, warp collectives, atomics, vector and half
// types, the maths functions and intrinsics. Force-included before the kernel's source; the
// simulator rewrites __global__ and __shared__ itself (cudasim/rewrite.py).
#ifndef OPSDK_CUDA_SIM_H
#define OPSDK_CUDA_SIM_H

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <math.h>
#include <new>
#include <type_traits>
#include <utility>

#include "sim_abi.h"

#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 800
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define CUDART_VERSION 12000
#define OPSDK_CUDA_SIM 1

#define __host__
#define __device__
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __grid_constant__
#define __constant__ __attribute__((visibility("default")))
#define __managed__ __attribute__((visibility("default")))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__

// const for the kernel: each simulated thread sees its own values for its whole life (the runtime
// sets them before resuming it), and their loads need no access check. blockDim and gridDim are
// uint3s here (a dim3 converts to and from one): the access hooks skip loads of a const object
// of a plain type, not of one with constructors, such as dim3
extern "C" {
extern const uint3 threadIdx, blockIdx;
extern const uint3 blockDim, gridDim;
extern unsigned char *const opsdk_sim_dynamic_shared;
int opsdk_sim_barrier(int mode, int pred, const char *file, int line);
uint64_t opsdk_sim_warp(int kind, unsigned mask, uint64_t value, int size, int arg, int width, int *pred,
                        const char *file, int line);
uint64_t opsdk_sim_atomic(int op, void *ptr, int size, int kind, uint64_t value, uint64_t compare);
void *opsdk_sim_shared_slot(const void *key, size_t size, size_t align, const char *name, const char *file,
                            int line);
float opsdk_sim_fround(int op, int rnd, float a, float b, float c);
double opsdk_sim_dround(int op, int rnd, double a, double b, double c);
void opsdk_sim_trap(const char *what, const char *file, int line);
long long opsdk_sim_clock(void);
void opsdk_sim_fence(void);
}

static constexpr int warpSize = OPSDK_SIM_WARP;

// -- barriers and warp collectives (macros, so diagnoses name the call's file and line) ---------
#define __syncthreads() ((void)opsdk_sim_barrier(0, 0, __FILE__, __LINE__))
#define __syncthreads_count(p) opsdk_sim_barrier(1, (p) != 0, __FILE__, __LINE__)
#define __syncthreads_and(p) opsdk_sim_barrier(2, (p) != 0, __FILE__, __LINE__)
#define __syncthreads_or(p) opsdk_sim_barrier(3, (p) != 0, __FILE__, __LINE__)
// a call object, so `__syncwarp()` (no mask) compiles in strict -std=c++17, where `, ##__VA_ARGS__`
// keeps its comma
#define __syncwarp(...) ::opsdk_sim::SyncwarpAt{__FILE__, __LINE__}(__VA_ARGS__)
#define __shfl_sync(...) ::opsdk_sim::shfl(0, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::opsdk_sim::shfl(1, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::opsdk_sim::shfl(2, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::opsdk_sim::shfl(3, __FILE__, __LINE__, __VA_ARGS__)
#define __all_sync(m, p) ((int)opsdk_sim_warp(4, (m), (p) != 0, 4, 0, 32, 0, __FILE__, __LINE__))
#define __any_sync(m, p) ((int)opsdk_sim_warp(5, (m), (p) != 0, 4, 0, 32, 0, __FILE__, __LINE__))
#define __uni_sync(m, p) ((int)opsdk_sim_warp(6, (m), (p) != 0, 4, 0, 32, 0, __FILE__, __LINE__))
#define __ballot_sync(m, p) ((unsigned)opsdk_sim_warp(7, (m), (p) != 0, 4, 0, 32, 0, __FILE__, __LINE__))
#define __activemask() ((unsigned)opsdk_sim_warp(19, 0, 0, 4, 0, 32, 0, __FILE__, __LINE__))
#define __match_any_sync(m, v) ::opsdk_sim::match(9, (m), (v), (int *)0, __FILE__, __LINE__)
#define __match_all_sync(m, v, p) ::opsdk_sim::match(10, (m), (v), (p), __FILE__, __LINE__)
#define __reduce_add_sync(m, v) ::opsdk_sim::reduce(11, 11, (m), (v), __FILE__, __LINE__)
#define __reduce_min_sync(m, v) ::opsdk_sim::reduce(12, 14, (m), (v), __FILE__, __LINE__)
#define __reduce_max_sync(m, v) ::opsdk_sim::reduce(13, 15, (m), (v), __FILE__, __LINE__)
#define __reduce_and_sync(m, v) ::opsdk_sim::reduce(16, 16, (m), (v), __FILE__, __LINE__)
#define __reduce_or_sync(m, v) ::opsdk_sim::reduce(17, 17, (m), (v), __FILE__, __LINE__)
#define __reduce_xor_sync(m, v) ::opsdk_sim::reduce(18, 18, (m), (v), __FILE__, __LINE__)
#define __trap() opsdk_sim_trap("__trap() was called", __FILE__, __LINE__)
#define __brkpt() opsdk_sim_trap("__brkpt() was called", __FILE__, __LINE__)
#undef assert
#define assert(e) ((e) ? (void)0 : opsdk_sim_trap("device-side assert(" #e ") failed", __FILE__, __LINE__))

// A left shift by the register's width or more: C++ leaves it undefined (x86 takes the amount
// modulo the width, so 1u << 32 gives 1), PTX's shl clamps the amount to the width, so the bits
// all shift out (1u << 32 gives 0, and (1u << 32) - 1 a full lane mask, which kernels rely on).
// The rewriter wraps the right operand of every `<<` in the user's functions in opsdk_sim_shift:
// an integral amount becomes a shift_amount, whose operator<< shifts as the GPU does; anything
// else passes through untouched (a stream, an enum), and so does a left operand of class type.
namespace opsdk_sim {
template <class T> struct shift_amount {
    T v;
    constexpr operator T() const { return v; }
};
}  // namespace opsdk_sim
template <class T, typename std::enable_if<std::is_integral<typename std::decay<T>::type>::value, int>::type = 0>
constexpr opsdk_sim::shift_amount<typename std::decay<T>::type> opsdk_sim_shift(T &&v) {
    return {v};
}
template <class T, typename std::enable_if<!std::is_integral<typename std::decay<T>::type>::value, int>::type = 0>
constexpr T &&opsdk_sim_shift(T &&v) {
    return static_cast<T &&>(v);
}
template <class L, class R, typename std::enable_if<std::is_integral<L>::value, int>::type = 0>
constexpr auto operator<<(L a, opsdk_sim::shift_amount<R> s) -> decltype(a << s.v) {
    typedef decltype(a << s.v) P;
    return (unsigned long long)s.v >= sizeof(P) * 8 ? P(0) : P(a << s.v);
}
template <class L, class R, typename std::enable_if<std::is_integral<L>::value, int>::type = 0>
constexpr L &operator<<=(L &a, opsdk_sim::shift_amount<R> s) {
    return a = (L)(a << s);
}

namespace opsdk_sim {

template <class T> inline uint64_t bits(const T &v) {
    static_assert(sizeof(T) <= 8, "warp collectives exchange at most 64 bits");
    uint64_t b = 0;
    __builtin_memcpy(&b, &v, sizeof(T));
    return b;
}

template <class T> inline T unbits(uint64_t b) {
    T v;
    __builtin_memcpy(&v, &b, sizeof(T));
    return v;
}

struct SyncwarpAt {
    const char *file;
    int line;
    void operator()(unsigned mask = 0xffffffffu) const { opsdk_sim_warp(8, mask, 0, 4, 0, 32, 0, file, line); }
};

template <class T> inline T shfl(int kind, const char *file, int line, unsigned mask, T var, int lane, int width = 32) {
    return unbits<T>(opsdk_sim_warp(kind, mask, bits(var), (int)sizeof(T), lane, width, 0, file, line));
}

template <class T> inline unsigned match(int kind, unsigned mask, T v, int *pred, const char *file, int line) {
    return (unsigned)opsdk_sim_warp(kind, mask, bits(v), (int)sizeof(T), 0, 32, pred, file, line);
}

inline unsigned reduce(int kind_u, int, unsigned mask, unsigned v, const char *file, int line) {
    return (unsigned)opsdk_sim_warp(kind_u, mask, v, 4, 0, 32, 0, file, line);
}

inline int reduce(int, int kind_s, unsigned mask, int v, const char *file, int line) {
    return (int)(uint32_t)opsdk_sim_warp(kind_s, mask, (uint32_t)v, 4, 0, 32, 0, file, line);
}

// -- atomics ------------------------------------------------------------------------------------
template <class T> constexpr int atomic_kind() {
    return std::is_floating_point<T>::value ? OPSDK_KIND_FLOAT
           : std::is_signed<T>::value       ? OPSDK_KIND_SINT
                                            : OPSDK_KIND_UINT;
}

template <class T> inline T atomic(int op, T *p, T v, T cmp = T()) {
    return unbits<T>(opsdk_sim_atomic(op, (void *)p, (int)sizeof(T), atomic_kind<T>(), bits(v), bits(cmp)));
}

}  // namespace opsdk_sim

#define OPSDK_SIM_ATOMIC(NAME, OP, T)                                                        \
    inline T NAME(T *p, T v) { return ::opsdk_sim::atomic<T>(OP, p, v); }                    \
    inline T NAME##_block(T *p, T v) { return ::opsdk_sim::atomic<T>(OP, p, v); }            \
    inline T NAME##_system(T *p, T v) { return ::opsdk_sim::atomic<T>(OP, p, v); }
OPSDK_SIM_ATOMIC(atomicAdd, 0, int)
OPSDK_SIM_ATOMIC(atomicAdd, 0, unsigned int)
OPSDK_SIM_ATOMIC(atomicAdd, 0, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicAdd, 0, float)
OPSDK_SIM_ATOMIC(atomicAdd, 0, double)
OPSDK_SIM_ATOMIC(atomicSub, 1, int)
OPSDK_SIM_ATOMIC(atomicSub, 1, unsigned int)
OPSDK_SIM_ATOMIC(atomicExch, 2, int)
OPSDK_SIM_ATOMIC(atomicExch, 2, unsigned int)
OPSDK_SIM_ATOMIC(atomicExch, 2, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicExch, 2, float)
OPSDK_SIM_ATOMIC(atomicMin, 3, int)
OPSDK_SIM_ATOMIC(atomicMin, 3, unsigned int)
OPSDK_SIM_ATOMIC(atomicMin, 3, long long int)
OPSDK_SIM_ATOMIC(atomicMin, 3, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicMax, 4, int)
OPSDK_SIM_ATOMIC(atomicMax, 4, unsigned int)
OPSDK_SIM_ATOMIC(atomicMax, 4, long long int)
OPSDK_SIM_ATOMIC(atomicMax, 4, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicAnd, 6, int)
OPSDK_SIM_ATOMIC(atomicAnd, 6, unsigned int)
OPSDK_SIM_ATOMIC(atomicAnd, 6, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicOr, 7, int)
OPSDK_SIM_ATOMIC(atomicOr, 7, unsigned int)
OPSDK_SIM_ATOMIC(atomicOr, 7, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicXor, 8, int)
OPSDK_SIM_ATOMIC(atomicXor, 8, unsigned int)
OPSDK_SIM_ATOMIC(atomicXor, 8, unsigned long long int)
OPSDK_SIM_ATOMIC(atomicInc, 9, unsigned int)
OPSDK_SIM_ATOMIC(atomicDec, 10, unsigned int)
#undef OPSDK_SIM_ATOMIC

#define OPSDK_SIM_CAS(T)                                                                         \
    inline T atomicCAS(T *p, T cmp, T v) { return ::opsdk_sim::atomic<T>(5, p, v, cmp); }        \
    inline T atomicCAS_block(T *p, T cmp, T v) { return ::opsdk_sim::atomic<T>(5, p, v, cmp); }  \
    inline T atomicCAS_system(T *p, T cmp, T v) { return ::opsdk_sim::atomic<T>(5, p, v, cmp); }
OPSDK_SIM_CAS(int)
OPSDK_SIM_CAS(unsigned int)
OPSDK_SIM_CAS(unsigned long long int)
OPSDK_SIM_CAS(unsigned short int)
#undef OPSDK_SIM_CAS

// -- memory: fences, cache hints ------------------------------------------------------------------
inline void __threadfence() { opsdk_sim_fence(); }
inline void __threadfence_block() {}
inline void __threadfence_system() { opsdk_sim_fence(); }
inline void __nanosleep(unsigned int) {}
inline long long clock64() { return opsdk_sim_clock(); }
template <class T> inline T __ldg(const T *p) { return *p; }
template <class T> inline T __ldca(const T *p) { return *p; }
template <class T> inline T __ldcg(const T *p) { return *p; }
template <class T> inline T __ldcs(const T *p) { return *p; }
template <class T> inline T __ldlu(const T *p) { return *p; }
template <class T> inline T __ldcv(const T *p) { return *p; }
template <class T> inline void __stwb(T *p, T v) { *p = v; }
template <class T> inline void __stcg(T *p, T v) { *p = v; }
template <class T> inline void __stcs(T *p, T v) { *p = v; }
template <class T> inline void __stwt(T *p, T v) { *p = v; }
inline unsigned int __isShared(const void *p) {
    return (uintptr_t)p - (uintptr_t)opsdk_sim_dynamic_shared < (16u << 20) + OPSDK_SIM_MAX_DYNAMIC_SHARED;
}
inline unsigned int __isGlobal(const void *p) { return !__isShared(p); }

#include "sim_types.h"
#include "sim_math.h"
#include "sim_entry.h"

#ifdef OPSDK_SIM_FAST_MATH  // -use_fast_math: the float functions become the fast intrinsics
#define expf(x) __expf(x)
#define exp10f(x) __exp10f(x)
#define logf(x) __logf(x)
#define log2f(x) __log2f(x)
#define log10f(x) __log10f(x)
#define powf(x, y) __powf(x, y)
#define sinf(x) __sinf(x)
#define cosf(x) __cosf(x)
#define tanf(x) __tanf(x)
#define sincosf(x, s, c) __sincosf(x, s, c)
#endif

#endif
