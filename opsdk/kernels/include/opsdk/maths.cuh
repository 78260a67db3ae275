/* opsdk/maths.cuh: the elementwise maths of opsdk/maths.h for CUDA, as __device__ overloads for
 * float and double in namespace opsdk, under the names a scalar body uses (see
 * opsdk.kernels.elementwise.bodies): code inside namespace opsdk calls sigmoid(x), exp(x), ...
 * and gets the float version for a float argument, as C code gets opsdk_sigmoid_f32 & co.
 *
 * sigmoid, softplus, tanh_softplus and sech2_softplus never overflow: they are built from
 * exp(-|u|) <= 1, as in maths.h.
 */
#ifndef OPSDK_MATHS_CUH
#define OPSDK_MATHS_CUH

namespace opsdk {

#define OPSDK_UNARY(name, f32, f64)                                              \
    __device__ __forceinline__ float name(float x) { return f32(x); }            \
    __device__ __forceinline__ double name(double x) { return f64(x); }

OPSDK_UNARY(exp, expf, ::exp)
OPSDK_UNARY(expm1, expm1f, ::expm1)
OPSDK_UNARY(log, logf, ::log)
OPSDK_UNARY(log1p, log1pf, ::log1p)
OPSDK_UNARY(tanh, tanhf, ::tanh)
OPSDK_UNARY(sqrt, sqrtf, ::sqrt)
OPSDK_UNARY(cbrt, cbrtf, ::cbrt)
OPSDK_UNARY(sin, sinf, ::sin)
OPSDK_UNARY(cos, cosf, ::cos)
OPSDK_UNARY(tan, tanf, ::tan)
OPSDK_UNARY(asin, asinf, ::asin)
OPSDK_UNARY(acos, acosf, ::acos)
OPSDK_UNARY(atan, atanf, ::atan)
OPSDK_UNARY(sinh, sinhf, ::sinh)
OPSDK_UNARY(cosh, coshf, ::cosh)
OPSDK_UNARY(asinh, asinhf, ::asinh)
OPSDK_UNARY(acosh, acoshf, ::acosh)
OPSDK_UNARY(atanh, atanhf, ::atanh)
OPSDK_UNARY(erf, erff, ::erf)
OPSDK_UNARY(erfc, erfcf, ::erfc)
OPSDK_UNARY(erfcx, erfcxf, ::erfcx)
OPSDK_UNARY(abs, fabsf, ::fabs)
OPSDK_UNARY(floor, floorf, ::floor)
OPSDK_UNARY(ceil, ceilf, ::ceil)
#undef OPSDK_UNARY

#define OPSDK_BINARY(name, f32, f64)                                                      \
    __device__ __forceinline__ float name(float x, float y) { return f32(x, y); }         \
    __device__ __forceinline__ double name(double x, double y) { return f64(x, y); }

OPSDK_BINARY(pow, powf, ::pow)
OPSDK_BINARY(fmin, fminf, ::fmin)
OPSDK_BINARY(fmax, fmaxf, ::fmax)
OPSDK_BINARY(copysign, copysignf, ::copysign)
OPSDK_BINARY(atan2, atan2f, ::atan2)
#undef OPSDK_BINARY

/* 1 / (1 + exp(-u)) from e = exp(-|u|) <= 1: accurate in both tails */
template <typename T> __device__ __forceinline__ T sigmoid_of(T u) {
    T e = exp(-abs(u)), inv = T(1) / (T(1) + e);
    return u >= T(0) ? inv : e * inv;
}
__device__ __forceinline__ float sigmoid(float u) { return sigmoid_of(u); }
__device__ __forceinline__ double sigmoid(double u) { return sigmoid_of(u); }

/* log(1 + exp(u)) = max(u, 0) + log1p(exp(-|u|)) */
template <typename T> __device__ __forceinline__ T softplus_of(T u) {
    return fmax(u, T(0)) + log1p(exp(-abs(u)));
}
__device__ __forceinline__ float softplus(float u) { return softplus_of(u); }
__device__ __forceinline__ double softplus(double u) { return softplus_of(u); }

/* tanh(softplus(u)) = n / (n + gap) with e = exp(-|u|): u >= 0: n = 1 + 2e, gap = 2e^2;
 * u < 0: n = e^2 + 2e, gap = 2 (as maths.h: one exp, no cancellation) */
template <typename T> __device__ __forceinline__ void tanh_softplus_parts(T u, T *n, T *gap) {
    T e = exp(-abs(u));
    if (u >= T(0)) {
        *n = T(1) + T(2) * e;
        *gap = T(2) * e * e;
    } else {
        *n = e * e + T(2) * e;
        *gap = T(2);
    }
}
template <typename T> __device__ __forceinline__ T tanh_softplus_of(T u) {
    T n, gap;
    tanh_softplus_parts(u, &n, &gap);
    return n / (n + gap);
}
template <typename T> __device__ __forceinline__ T sech2_softplus_of(T u) {
    T n, gap;
    tanh_softplus_parts(u, &n, &gap);
    T inv = T(1) / (n + gap);
    return gap * inv * (T(1) + n * inv);
}
__device__ __forceinline__ float tanh_softplus(float u) { return tanh_softplus_of(u); }
__device__ __forceinline__ double tanh_softplus(double u) { return tanh_softplus_of(u); }
__device__ __forceinline__ float sech2_softplus(float u) { return sech2_softplus_of(u); }
__device__ __forceinline__ double sech2_softplus(double u) { return sech2_softplus_of(u); }

}  // namespace opsdk

#endif
