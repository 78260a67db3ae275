/* opsdk/maths.h: elementwise maths for C kernels, one function per dtype (_f32, _f64).
 *
 * float32: exp, expm1, log, log1p, tanh, erfc, erfcx, sigmoid, softplus, tanh_softplus (tanh(softplus(u)),
 * mish's core) and sech2_softplus (1 - tanh_softplus^2) are written here, branch-free
 * (selects, not jumps), so loops calling them vectorize without -ffast-math: glibc's scalar
 * expf & co. stop gcc from vectorizing, and -ffast-math would break inf and nan. Each is
 * within about 1 ulp of the float64 result over the whole float range; inf and nan behave as
 * in C99 Annex F. The rarer functions (sin, erf, ...) call libm.
 * float64: libm, plus the stable compositions (sigmoid, softplus).
 *
 * sigmoid(u) = 1 / (1 + exp(-u)) and softplus(u) = log(1 + exp(u)) never overflow: both are
 * built from exp(-|u|) <= 1.
 */
#ifndef OPSDK_MATHS_H
#define OPSDK_MATHS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Every function here is inlined where it is called: a loop vectorizes only over inlined maths,
 * and gcc's inliner stops at a size (a loop whose body grew past it called a scalar
 * opsdk_exp_neg_f32 per element, 20 times slower). */
#if defined(__GNUC__)
#define OPSDK_ALWAYS_INLINE __attribute__((always_inline))
#else
#define OPSDK_ALWAYS_INLINE
#endif
#define OPSDK_INLINE static inline OPSDK_ALWAYS_INLINE

OPSDK_INLINE float opsdk_f32_from_bits(uint32_t bits) { float f; memcpy(&f, &bits, sizeof f); return f; }
OPSDK_INLINE uint32_t opsdk_bits_of_f32(float f) { uint32_t bits; memcpy(&bits, &f, sizeof bits); return bits; }

/* exp(r) - 1 for |r| <= ln(2) / 2, Taylor series to r^8 (truncation below 2e-10, relative) */
OPSDK_INLINE float opsdk_expm1_reduced_f32(float r) {
    float p = 1.0f / 40320.0f;
    p = p * r + 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    return r + r * (r * p); /* r * (r * p) keeps the sign of r: expm1(-0) = -0 */
}

/* x = k ln 2 + r, |r| <= ln(2) / 2; k as a float (x clamped to [-104, 89], nan to 0) */
OPSDK_INLINE float opsdk_reduce_f32(float x, float *kf) {
    float xc = x > -104.0f ? x : -104.0f; /* nan compares false: it never reaches the float -> int conversion */
    xc = xc < 89.0f ? xc : 89.0f;
    float k = xc * 1.44269504088896341f + 12582912.0f; /* 1.5 * 2^23: rounds to an integer */
    k -= 12582912.0f;
    *kf = k;
    return (xc - k * 0.693145751953125f) - k * 1.428606765330187045e-06f;
}

/* 2^k for an integer k in [-150, 129], as two normal powers of two (their product may be
 * subnormal, zero or inf, rounded once) */
OPSDK_INLINE void opsdk_pow2_f32(float kf, float *s1, float *s2) {
    int32_t k = (int32_t)kf;
    int32_t k1 = k >> 1, k2 = k - k1; /* gcc shifts signed integers arithmetically: k1 = floor(k / 2) */
    *s1 = opsdk_f32_from_bits((uint32_t)(k1 + 127) << 23);
    *s2 = opsdk_f32_from_bits((uint32_t)(k2 + 127) << 23);
}

/* s * 2 exp(r) for |r| <= ln(2) / 2, s a constant power of two (folded into the coefficients,
 * exactly): twice a degree-6 polynomial fitted to exp (relative error 9e-8 after float rounding);
 * the factor 2 lets the scale below be 2^(k-1), a normal number up to the top of the float range */
OPSDK_INLINE float opsdk_exp_reduced2_scaled_f32(float r, float s) {
    float p = 0.002771858125925064f * s;
    p = p * r + 0.016749527305364608f * s;
    p = p * r + 0.08333545178174972f * s;
    p = p * r + 0.3333284258842468f * s;
    p = p * r + 0.9999998807907104f * s;
    p = p * r + 2.0f * s;
    return p * r + 2.0f * s;
}

OPSDK_INLINE float opsdk_exp_reduced2_f32(float r) { return opsdk_exp_reduced2_scaled_f32(r, 1.0f); }

/* exp(xc) for xc in [-104, 89] (clamped by the caller, which keeps x for nan): 2 exp(r) 2^(k-1),
 * x = k ln 2 + r; results below 2^-126 take the power 2^(k-1+64) and a second factor 2^-64,
 * so a subnormal result rounds once and is right; past ln(FLT_MAX) the product overflows to
 * inf as exp does (1.8 ulp) */
OPSDK_INLINE float opsdk_exp_clamped_f32(float xc) {
    float k = xc * 1.44269504088896341f + 12582912.0f; /* 1.5 * 2^23: rounds to an integer */
    k -= 12582912.0f;
    float r = (xc - k * 0.693145751953125f) - k * 1.428606765330187045e-06f;
    int low = k < -125.0f;
    int32_t ki = (int32_t)k - 1 + (low ? 64 : 0);
    return (opsdk_exp_reduced2_f32(r) * opsdk_f32_from_bits((uint32_t)(ki + 127) << 23))
           * (low ? 5.421010862427522e-20f : 1.0f);
}

OPSDK_INLINE float opsdk_exp_f32(float x) {
    float xc = x > -104.0f ? x : -104.0f; /* nan compares false: it never reaches the float -> int conversion */
    xc = xc < 89.0f ? xc : 89.0f;
    float y = opsdk_exp_clamped_f32(xc);
    return x != x ? x : y;
}

/* exp(x) - 1 = 2^k (exp(r) - 1) + (2^k - 1): exact for k = 0, no cancellation elsewhere; for
 * k > 64 the 1 no longer counts and 2^k alone would overflow before exp(x) does */
OPSDK_INLINE float opsdk_expm1_f32(float x) {
    float kf, s1, s2;
    float r = opsdk_reduce_f32(x, &kf);
    opsdk_pow2_f32(kf, &s1, &s2);
    float q = opsdk_expm1_reduced_f32(r);
    float s = s1 * s2;
    float y = kf > 64.0f ? ((1.0f + q) * s1) * s2 : s * q + (s - 1.0f);
    return (x != x || x == 0.0f) ? x : y; /* nan, and the sign of zero, pass through */
}

/* log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]: 2 atanh(s), s = f / (2 + f), |s| <= 0.172 */
OPSDK_INLINE float opsdk_log1p_reduced_f32(float f) {
    float s = f / (2.0f + f), z = s * s;
    float p = 1.0f / 11.0f;
    p = p * z + 1.0f / 9.0f;
    p = p * z + 1.0f / 7.0f;
    p = p * z + 1.0f / 5.0f;
    p = p * z + 1.0f / 3.0f;
    return 2.0f * s + 2.0f * s * z * p;
}

OPSDK_INLINE float opsdk_log_f32(float x) {
    int sub = x < 1.17549435e-38f;               /* subnormal (or not positive): scale by 2^23 */
    float xs = sub ? x * 8388608.0f : x;
    uint32_t bits = opsdk_bits_of_f32(xs);
    int32_t e = (int32_t)((bits >> 23) & 0xff) - 127 - (sub ? 23 : 0);
    float m = opsdk_f32_from_bits((bits & 0x007fffffu) | 0x3f800000u); /* in [1, 2) */
    int big = m > 1.41421356f;
    m = big ? 0.5f * m : m;
    float ef = (float)(e + big);
    float y = ef * 0.693145751953125f + (opsdk_log1p_reduced_f32(m - 1.0f) + ef * 1.428606765330187045e-06f);
    y = x == 0.0f ? -INFINITY : y;
    y = x < 0.0f ? NAN : y;
    return (x != x || x == INFINITY) ? x : y;
}

/* log(1 + u) = log(w) + (u - (w - 1)) / w with w = 1 + u rounded: the second term restores what
 * rounding w lost, so tiny u keep their precision */
OPSDK_INLINE float opsdk_log1p_f32(float u) {
    float w = 1.0f + u;
    float y = opsdk_log_f32(w) + (u - (w - 1.0f)) / w;
    y = w == 1.0f ? u : y;
    y = u == -1.0f ? -INFINITY : y;
    return u == INFINITY ? u : y;
}

/* exp(x) for x <= 0 (every exp of -|u| below): opsdk_exp_f32 without its overflow side, which
 * lets every result take the same scale, 2^-64 2 exp(r) (the 2^-64 folded into the polynomial's
 * coefficients) times 2^(k+63) (normal for k >= -150): exact where the result is normal, rounded
 * once where it is subnormal, no select. The rounding sum kb = k + 190 + 1.5 * 2^23 holds k + 190
 * in its low mantissa bits, so kb's bits shifted by 23 are those of 2^(k+63) (the higher bits
 * shift out): no float -> int conversion, no add. nan stays nan through the arithmetic (the
 * clamp keeps it: nan < -104 is false). */
OPSDK_INLINE float opsdk_exp_neg_f32(float x) {
    float xc = x < -104.0f ? -104.0f : x; /* exp(-104) rounds to 0 already */
    float kb = xc * 1.44269504088896341f + 12583102.0f; /* 1.5 * 2^23 + 190: rounds x / ln 2 to an integer k */
    float k = kb - 12583102.0f;
    float r = (xc - k * 0.693145751953125f) - k * 1.428606765330187045e-06f;
    float scale = opsdk_f32_from_bits(opsdk_bits_of_f32(kb) << 23); /* 2^(k+63) */
    return opsdk_exp_reduced2_scaled_f32(r, 5.421010862427522e-20f) * scale;
}

/* log(1 + e) for e in [0, 1]: 2 atanh(s), s = e / (2 + e) <= 1/3, as w + w z q(z) with w = 2s =
 * e / (1 + e/2) and z = w^2 <= 4/9: q is a degree-4 fit of (atanh(s) / s - 1) / (4 s^2) there
 * (relative error of the result 1.1e-9 with float coefficients; the series to s^15 it replaces
 * took two terms more) */
OPSDK_INLINE float opsdk_log1p_unit_f32(float e) {
    float w = e / (0.5f * e + 1.0f), z = w * w;
    float q = 0.0001134719277615659f;
    q = q * z + 0.00042389286682009697f;
    q = q * z + 0.002233795588836074f;
    q = q * z + 0.012499907054007053f;
    q = q * z + 0.0833333358168602f;
    return w + w * z * q;
}

OPSDK_INLINE float opsdk_sigmoid_f32(float u) {
    float e = opsdk_exp_neg_f32(-fabsf(u));
    float inv = 1.0f / (1.0f + e);
    return u >= 0.0f ? inv : e * inv;
}

OPSDK_INLINE float opsdk_softplus_f32(float u) {
    return (u > 0.0f ? u : 0.0f) + opsdk_log1p_unit_f32(opsdk_exp_neg_f32(-fabsf(u)));
}

/* tanh(softplus(u)) = n / d exactly, with e = exp(-|u|): u >= 0: n = 1 + 2e, d = n + 2e^2;
 * u < 0: n = e^2 + 2e, d = n + 2 (mish's core: one exp, one division). sech2_softplus(u) =
 * 1 - tanh(softplus(u))^2 = (d - n)(d + n) / d^2, without the cancellation of 1 - T^2 near 1. */
OPSDK_INLINE void opsdk_tanh_softplus_parts_f32(float u, float *n, float *gap) {
    float e = opsdk_exp_neg_f32(-fabsf(u));
    int pos = u >= 0.0f;
    *n = pos ? 1.0f + 2.0f * e : e * (e + 2.0f);
    *gap = pos ? 2.0f * e * e : 2.0f;
}

/* n * (1 / d), not n / d: with sech2_softplus at the same u, the compiler computes 1 / d once */
OPSDK_INLINE float opsdk_tanh_softplus_f32(float u) {
    float n, gap;
    opsdk_tanh_softplus_parts_f32(u, &n, &gap);
    return n * (1.0f / (n + gap));
}

OPSDK_INLINE float opsdk_sech2_softplus_f32(float u) {
    float n, gap;
    opsdk_tanh_softplus_parts_f32(u, &n, &gap);
    float inv = 1.0f / (n + gap);
    return gap * inv * (1.0f + n * inv);
}

/* tanh(x) = -expm1(-2|x|) / (2 + expm1(-2|x|)), the sign of x restored */
OPSDK_INLINE float opsdk_tanh_f32(float x) {
    float em = opsdk_expm1_f32(-2.0f * fabsf(x));
    return copysignf(-em / (2.0f + em), x);
}

OPSDK_INLINE float opsdk_sqrt_f32(float x) { return sqrtf(x); }
OPSDK_INLINE float opsdk_cbrt_f32(float x) { return cbrtf(x); }
OPSDK_INLINE float opsdk_pow_f32(float x, float y) { return powf(x, y); }
OPSDK_INLINE float opsdk_sin_f32(float x) { return sinf(x); }
OPSDK_INLINE float opsdk_cos_f32(float x) { return cosf(x); }
OPSDK_INLINE float opsdk_tan_f32(float x) { return tanf(x); }
OPSDK_INLINE float opsdk_asin_f32(float x) { return asinf(x); }
OPSDK_INLINE float opsdk_acos_f32(float x) { return acosf(x); }
OPSDK_INLINE float opsdk_atan_f32(float x) { return atanf(x); }
OPSDK_INLINE float opsdk_sinh_f32(float x) { return sinhf(x); }
OPSDK_INLINE float opsdk_cosh_f32(float x) { return coshf(x); }
OPSDK_INLINE float opsdk_asinh_f32(float x) { return asinhf(x); }
OPSDK_INLINE float opsdk_acosh_f32(float x) { return acoshf(x); }
OPSDK_INLINE float opsdk_atanh_f32(float x) { return atanhf(x); }
OPSDK_INLINE float opsdk_erf_f32(float x) { return erff(x); }
/* erfcx(z) = exp(z^2) erfc(z) = t Q(t) for z >= 0, t = 2 / (2 + z): Q is smooth on t in (0, 1]
 * (every z >= 0; erfcx(z) -> 1 / (sqrt(pi) z)), fitted there by plugins/opsdk-nn/tools/fit_erfc.py
 * (relative error 1.2e-8; 1.6e-7 after float rounding). No exp: it vectorizes and is cheap. */
OPSDK_INLINE float opsdk_erfcx_pos_f32(float z) {
    float t = 2.0f / (2.0f + z);
    float q = 0.043173108249902725f;
    q = q * t - 0.23460571467876434f;
    q = q * t + 0.49338623881340027f;
    q = q * t - 0.4545643627643585f;
    q = q * t + 0.13185054063796997f;
    q = q * t - 0.05905115231871605f;
    q = q * t + 0.09341482073068619f;
    q = q * t + 0.17532406747341156f;
    q = q * t + 0.24688388407230377f;
    q = q * t + 0.28209376335144043f;
    q = q * t + 0.282094806432724f;
    return t * q; /* z = inf: 0; nan stays nan */
}

/* exp(s z^2) for s = +-1, z >= 0, as exp(s h^2) exp(s (z - h)(z + h)) with h = z cut to 12 bits
 * (h^2 exact; z^2 rounded whole would cost up to z^2 ulps); d = z^2 - h^2 < z^2 / 1024, its exp
 * by a short series (d clamped at 1/8, reached only where the result is 0 or inf anyway) */
OPSDK_INLINE float opsdk_exp_square_f32(float z, float s) {
    float h = opsdk_f32_from_bits(opsdk_bits_of_f32(z) & 0xfffff000u);
    float d = (z - h) * (z + h);
    d = s * (d < 0.125f ? d : 0.125f);
    float ed = 1.0f / 120.0f;
    ed = ed * d + 1.0f / 24.0f;
    ed = ed * d + 1.0f / 6.0f;
    ed = ed * d + 0.5f;
    ed = ed * d + 1.0f;
    ed = ed * d + 1.0f;
    float a = s * (h * h);
    return (s < 0.0f ? opsdk_exp_neg_f32(a) : opsdk_exp_f32(a)) * ed; /* s is a constant: one is kept */
}

/* the scaled complementary error function exp(x^2) erfc(x); for x < 0 it is 2 exp(x^2) -
 * erfcx(-x) (inf past x = -9.4). A body whose argument is an abs() gets only the x >= 0 side:
 * the compiler knows abs(u) < 0 is false. */
OPSDK_INLINE float opsdk_erfcx_f32(float x) {
    float z = fabsf(x);
    float pos = opsdk_erfcx_pos_f32(z);
    return x < 0.0f ? 2.0f * opsdk_exp_square_f32(z, 1.0f) - pos : pos;
}

/* erfc(x) = erfcx(|x|) exp(-x^2), and 2 - that for x < 0; within 4e-7 (relative) of erfc */
OPSDK_INLINE float opsdk_erfc_f32(float x) {
    float z = fabsf(x);
    float r = z == INFINITY ? 0.0f : opsdk_erfcx_pos_f32(z) * opsdk_exp_square_f32(z, -1.0f);
    return x < 0.0f ? 2.0f - r : r;
}

OPSDK_INLINE float opsdk_abs_f32(float x) { return fabsf(x); }

OPSDK_INLINE double opsdk_exp_f64(double x) { return exp(x); }
OPSDK_INLINE double opsdk_expm1_f64(double x) { return expm1(x); }
OPSDK_INLINE double opsdk_log_f64(double x) { return log(x); }
OPSDK_INLINE double opsdk_log1p_f64(double x) { return log1p(x); }
OPSDK_INLINE double opsdk_tanh_f64(double x) { return tanh(x); }
OPSDK_INLINE double opsdk_sigmoid_f64(double u) {
    double e = exp(-fabs(u));
    double inv = 1.0 / (1.0 + e);
    return u >= 0.0 ? inv : e * inv;
}
OPSDK_INLINE double opsdk_softplus_f64(double u) { return (u > 0.0 ? u : 0.0) + log1p(exp(-fabs(u))); }
OPSDK_INLINE void opsdk_tanh_softplus_parts_f64(double u, double *n, double *gap) {
    double e = exp(-fabs(u));
    int pos = u >= 0.0;
    *n = pos ? 1.0 + 2.0 * e : e * (e + 2.0);
    *gap = pos ? 2.0 * e * e : 2.0;
}
OPSDK_INLINE double opsdk_tanh_softplus_f64(double u) {
    double n, gap;
    opsdk_tanh_softplus_parts_f64(u, &n, &gap);
    return n * (1.0 / (n + gap));
}
OPSDK_INLINE double opsdk_sech2_softplus_f64(double u) {
    double n, gap;
    opsdk_tanh_softplus_parts_f64(u, &n, &gap);
    double inv = 1.0 / (n + gap);
    return gap * inv * (1.0 + n * inv);
}
OPSDK_INLINE double opsdk_sqrt_f64(double x) { return sqrt(x); }
OPSDK_INLINE double opsdk_cbrt_f64(double x) { return cbrt(x); }
OPSDK_INLINE double opsdk_pow_f64(double x, double y) { return pow(x, y); }
OPSDK_INLINE double opsdk_sin_f64(double x) { return sin(x); }
OPSDK_INLINE double opsdk_cos_f64(double x) { return cos(x); }
OPSDK_INLINE double opsdk_tan_f64(double x) { return tan(x); }
OPSDK_INLINE double opsdk_asin_f64(double x) { return asin(x); }
OPSDK_INLINE double opsdk_acos_f64(double x) { return acos(x); }
OPSDK_INLINE double opsdk_atan_f64(double x) { return atan(x); }
OPSDK_INLINE double opsdk_sinh_f64(double x) { return sinh(x); }
OPSDK_INLINE double opsdk_cosh_f64(double x) { return cosh(x); }
OPSDK_INLINE double opsdk_asinh_f64(double x) { return asinh(x); }
OPSDK_INLINE double opsdk_acosh_f64(double x) { return acosh(x); }
OPSDK_INLINE double opsdk_atanh_f64(double x) { return atanh(x); }
OPSDK_INLINE double opsdk_erf_f64(double x) { return erf(x); }
OPSDK_INLINE double opsdk_erfc_f64(double x) { return erfc(x); }
/* exp(x^2) erfc(x): libm's product where erfc(z) has not underflowed (z < 26; exp(z^2) loses up
 * to z^2 ulps, 7e-14 relative), past it the asymptotic series 1 / (sqrt(pi) z) sum (-1)^k
 * (2k-1)!! / (2 z^2)^k to k = 5 (next term below 2e-15) */
OPSDK_INLINE double opsdk_erfcx_f64(double x) {
    double z = fabs(x);
    double w = 1.0 / (2.0 * z * z);
    double series = 0.56418958354775628695 / z *
                    (1.0 - w * (1.0 - 3.0 * w * (1.0 - 5.0 * w * (1.0 - 7.0 * w * (1.0 - 9.0 * w)))));
    double pos = z < 26.0 ? exp(z * z) * erfc(z) : series;
    return x < 0.0 ? 2.0 * exp(z * z) - pos : pos;
}
OPSDK_INLINE double opsdk_abs_f64(double x) { return fabs(x); }

#endif
