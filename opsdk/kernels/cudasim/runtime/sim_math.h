// CUDA's device maths API on the host: the functions <cmath> lacks (rsqrtf, sinpi, normcdf,
// erfinv, ...), float overloads CUDA provides in C++, min/max, the intrinsics (__expf, __fdividef,
// __float2int_rn, __popc, __shfl-free bit tricks, directed-rounding arithmetic). Fast intrinsics
// reproduce the GPU's main error term (their input is rounded to float before ex2/lg2) but not
// every ulp of its approximation.
#ifndef OPSDK_SIM_MATH_H
#define OPSDK_SIM_MATH_H

// -- functions <cmath> has no name for ------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float sinpif(float x) { return (float)sin(M_PI * (double)x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline float cospif(float x) { return (float)cos(M_PI * (double)x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline void sincospif(float x, float *s, float *c) { *s = sinpif(x), *c = cospif(x); }
inline void sincospi(double x, double *s, double *c) { *s = sinpi(x), *c = cospi(x); }
inline float normcdff(float x) { return (float)(0.5 * erfc(-(double)x * 0.70710678118654752440)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }
inline double erfinv(double y) {
    if (y <= -1.0) return y == -1.0 ? -HUGE_VAL : NAN;
    if (y >= 1.0) return y == 1.0 ? HUGE_VAL : NAN;
    // Giles' single-precision starting point, then Newton steps on erf(x) - y
    double w = -log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w; x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w; x = -0.00125372503 + x * w; x = -0.00417768164 + x * w;
        x = 0.246640727 + x * w; x = 1.50140941 + x * w;
    } else {
        w = sqrt(w) - 3.0;
        x = -0.000200214257;
        x = 0.000100950558 + x * w; x = 0.00134934322 + x * w; x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w; x = -0.0076224613 + x * w; x = 0.00943887047 + x * w;
        x = 1.00167406 + x * w; x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 3; i++) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    return x;
}
inline float erfinvf(float y) { return (float)erfinv((double)y); }
inline double erfcinv(double y) { return erfinv(1.0 - y); }
inline float erfcinvf(float y) { return (float)erfcinv((double)y); }
inline double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return (float)normcdfinv((double)p); }
inline double erfcx(double x) {
    if (x < 25.0) return exp(x * x) * erfc(x);
    double x2 = x * x;  // asymptotic series, exp(x^2) overflows
    return (1.0 / (x * 1.7724538509055160)) * (1.0 - 0.5 / x2 + 0.75 / (x2 * x2));
}
inline float erfcxf(float x) { return (float)erfcx((double)x); }
inline float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
inline double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
inline float norm3df(float a, float b, float c) { return (float)sqrt((double)a * a + (double)b * b + (double)c * c); }
inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float norm4df(float a, float b, float c, float d) {
    return (float)sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d);
}
inline double norm4d(double a, double b, double c, double d) { return sqrt(a * a + b * b + c * c + d * d); }
inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }
inline float cyl_bessel_i0f(float x) { return (float)std::cyl_bessel_i(0.0, (double)x); }
inline float cyl_bessel_i1f(float x) { return (float)std::cyl_bessel_i(1.0, (double)x); }
inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0.0, x); }
inline double cyl_bessel_i1(double x) { return std::cyl_bessel_i(1.0, x); }

// CUDA's C++ float overloads of the double names above
inline float rsqrt(float x) { return rsqrtf(x); }
inline float rcbrt(float x) { return rcbrtf(x); }
inline float sinpi(float x) { return sinpif(x); }
inline float cospi(float x) { return cospif(x); }
inline float normcdf(float x) { return normcdff(x); }
inline float normcdfinv(float x) { return normcdfinvf(x); }
inline float erfinv(float x) { return erfinvf(x); }
inline float erfcinv(float x) { return erfcinvf(x); }
inline float erfcx(float x) { return erfcxf(x); }
inline float rhypot(float x, float y) { return rhypotf(x, y); }
inline float norm3d(float a, float b, float c) { return norm3df(a, b, c); }
inline float rnorm3d(float a, float b, float c) { return rnorm3df(a, b, c); }
inline float fdivide(float x, float y) { return x / y; }

// -- min / max (CUDA: overloads for every arithmetic pair, the usual conversions) ---------------
#define OPSDK_SIM_MINMAX(T)                                        \
    inline T min(T a, T b) { return b < a ? b : a; }               \
    inline T max(T a, T b) { return a < b ? b : a; }
OPSDK_SIM_MINMAX(int)
OPSDK_SIM_MINMAX(unsigned int)
OPSDK_SIM_MINMAX(long)
OPSDK_SIM_MINMAX(unsigned long)
OPSDK_SIM_MINMAX(long long)
OPSDK_SIM_MINMAX(unsigned long long)
#undef OPSDK_SIM_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                          !std::is_same<A, B>::value>::type>
inline typename std::common_type<A, B>::type min(A a, B b) {
    typedef typename std::common_type<A, B>::type C;
    return min((C)a, (C)b);
}
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                          !std::is_same<A, B>::value>::type>
inline typename std::common_type<A, B>::type max(A a, B b) {
    typedef typename std::common_type<A, B>::type C;
    return max((C)a, (C)b);
}

// -- fast intrinsics ----------------------------------------------------------------------------------
inline float __opsdk_ftz(float x) { return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x; }
inline float __fdividef(float x, float y) {
    float ay = fabsf(y);
    if (ay > 0x1p126f && ay < INFINITY) return 0.0f;  // the GPU's approximate division underflows
    return __opsdk_ftz(x / y);
}
inline float __expf(float x) { return __opsdk_ftz(exp2f(__opsdk_ftz(x) * 1.44269504088896341f)); }
inline float __exp10f(float x) { return __opsdk_ftz(exp2f(__opsdk_ftz(x) * 3.32192809488736235f)); }
inline float __log2f(float x) { return log2f(__opsdk_ftz(x)); }
inline float __logf(float x) { return __log2f(x) * 0.693147180559945309f; }
inline float __log10f(float x) { return __log2f(x) * 0.301029995663981195f; }
inline float __powf(float x, float y) { return exp2f(y * __log2f(x)); }
inline float __sinf(float x) { return sinf(__opsdk_ftz(x)); }
inline float __cosf(float x) { return cosf(__opsdk_ftz(x)); }
inline float __tanf(float x) { return __fdividef(__sinf(x), __cosf(x)); }
inline float __tanhf(float x) { return tanhf(x); }
inline void __sincosf(float x, float *s, float *c) { *s = __sinf(x), *c = __cosf(x); }
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

// -- arithmetic with an explicit rounding mode ----------------------------------------------------
#define OPSDK_SIM_ROUNDED(SUFFIX, R)                                                                  \
    inline float __fadd_##SUFFIX(float a, float b) { return opsdk_sim_fround(0, R, a, b, 0); }        \
    inline float __fsub_##SUFFIX(float a, float b) { return opsdk_sim_fround(1, R, a, b, 0); }        \
    inline float __fmul_##SUFFIX(float a, float b) { return opsdk_sim_fround(2, R, a, b, 0); }        \
    inline float __fdiv_##SUFFIX(float a, float b) { return opsdk_sim_fround(3, R, a, b, 0); }        \
    inline float __fmaf_##SUFFIX(float a, float b, float c) { return opsdk_sim_fround(4, R, a, b, c); } \
    inline float __fsqrt_##SUFFIX(float a) { return opsdk_sim_fround(5, R, a, 0, 0); }                \
    inline float __frcp_##SUFFIX(float a) { return opsdk_sim_fround(6, R, a, 0, 0); }                 \
    inline double __dadd_##SUFFIX(double a, double b) { return opsdk_sim_dround(0, R, a, b, 0); }     \
    inline double __dsub_##SUFFIX(double a, double b) { return opsdk_sim_dround(1, R, a, b, 0); }     \
    inline double __dmul_##SUFFIX(double a, double b) { return opsdk_sim_dround(2, R, a, b, 0); }     \
    inline double __ddiv_##SUFFIX(double a, double b) { return opsdk_sim_dround(3, R, a, b, 0); }     \
    inline double __fma_##SUFFIX(double a, double b, double c) { return opsdk_sim_dround(4, R, a, b, c); } \
    inline double __dsqrt_##SUFFIX(double a) { return opsdk_sim_dround(5, R, a, 0, 0); }              \
    inline double __drcp_##SUFFIX(double a) { return opsdk_sim_dround(6, R, a, 0, 0); }
OPSDK_SIM_ROUNDED(rn, 0)
OPSDK_SIM_ROUNDED(rz, 1)
OPSDK_SIM_ROUNDED(ru, 2)
OPSDK_SIM_ROUNDED(rd, 3)
#undef OPSDK_SIM_ROUNDED
inline float __frsqrt_rn(float x) { return (float)(1.0 / sqrt((double)x)); }

// -- conversions: float to integer saturates and sends NaN to 0, as cvt does ---------------------
namespace opsdk_sim {
template <class I, class F> inline I to_int(F x, int mode) {
    if (x != x) return 0;
    F r = mode == 0 ? nearbyint(x) : mode == 1 ? trunc(x) : mode == 2 ? ceil(x) : floor(x);
    if (r >= (F)std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
    if (r <= (F)std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
    return (I)r;
}
// round `exact` (held exactly in W) to F in a directed mode
template <class F, class W> inline F to_float(W exact, int mode) {
    F r = (F)exact;
    if (mode == 0 || (W)r == exact || r != r) return r;
    bool above = (W)r > exact;
    if (mode == 2) return above ? r : nextafter(r, (F)INFINITY);
    if (mode == 3) return above ? nextafter(r, -(F)INFINITY) : r;
    return (exact > 0) == above ? nextafter(r, (F)0) : r;
}
}  // namespace opsdk_sim
#define OPSDK_SIM_F2I(FROM, F, TO, I)                                                                \
    inline I __##FROM##2##TO##_rn(F x) { return ::opsdk_sim::to_int<I>(x, 0); }                      \
    inline I __##FROM##2##TO##_rz(F x) { return ::opsdk_sim::to_int<I>(x, 1); }                      \
    inline I __##FROM##2##TO##_ru(F x) { return ::opsdk_sim::to_int<I>(x, 2); }                      \
    inline I __##FROM##2##TO##_rd(F x) { return ::opsdk_sim::to_int<I>(x, 3); }
OPSDK_SIM_F2I(float, float, int, int)
OPSDK_SIM_F2I(float, float, uint, unsigned int)
OPSDK_SIM_F2I(float, float, ll, long long)
OPSDK_SIM_F2I(float, float, ull, unsigned long long)
OPSDK_SIM_F2I(double, double, int, int)
OPSDK_SIM_F2I(double, double, uint, unsigned int)
OPSDK_SIM_F2I(double, double, ll, long long)
OPSDK_SIM_F2I(double, double, ull, unsigned long long)
#undef OPSDK_SIM_F2I
#define OPSDK_SIM_I2F(FROM, I, TO, F, W)                                                             \
    inline F __##FROM##2##TO##_rn(I x) { return ::opsdk_sim::to_float<F, W>((W)x, 0); }               \
    inline F __##FROM##2##TO##_rz(I x) { return ::opsdk_sim::to_float<F, W>((W)x, 1); }               \
    inline F __##FROM##2##TO##_ru(I x) { return ::opsdk_sim::to_float<F, W>((W)x, 2); }               \
    inline F __##FROM##2##TO##_rd(I x) { return ::opsdk_sim::to_float<F, W>((W)x, 3); }
OPSDK_SIM_I2F(int, int, float, float, double)
OPSDK_SIM_I2F(uint, unsigned int, float, float, double)
OPSDK_SIM_I2F(ll, long long, float, float, long double)
OPSDK_SIM_I2F(ull, unsigned long long, float, float, long double)
OPSDK_SIM_I2F(ll, long long, double, double, long double)
OPSDK_SIM_I2F(ull, unsigned long long, double, double, long double)
OPSDK_SIM_I2F(double, double, float, float, double)
#undef OPSDK_SIM_I2F
inline double __int2double_rn(int x) { return (double)x; }
inline double __uint2double_rn(unsigned int x) { return (double)x; }
inline float __int_as_float(int x) { return ::opsdk_sim::unbits<float>((uint32_t)x); }
inline int __float_as_int(float x) { return (int)(uint32_t)::opsdk_sim::bits(x); }
inline float __uint_as_float(unsigned int x) { return ::opsdk_sim::unbits<float>(x); }
inline unsigned int __float_as_uint(float x) { return (uint32_t)::opsdk_sim::bits(x); }
inline double __longlong_as_double(long long x) { return ::opsdk_sim::unbits<double>((uint64_t)x); }
inline long long __double_as_longlong(double x) { return (long long)::opsdk_sim::bits(x); }
inline int __double2hiint(double x) { return (int)(::opsdk_sim::bits(x) >> 32); }
inline int __double2loint(double x) { return (int)(uint32_t)::opsdk_sim::bits(x); }
inline double __hiloint2double(int hi, int lo) {
    return ::opsdk_sim::unbits<double>(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}
inline int __finitef(float x) { return isfinite(x); }
inline int __isinff(float x) { return isinf(x); }
inline int __isnanf(float x) { return isnan(x); }

// -- integer intrinsics -------------------------------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    unsigned int r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline unsigned long long __brevll(unsigned long long x) {
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    uint64_t v = ((uint64_t)y << 32) | x;
    unsigned int r = 0;
    for (int i = 0; i < 4; i++) r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
    return r;
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s) {
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return (unsigned int)((v << (s & 31)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s) {
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return (unsigned int)((v << (s < 32 ? s : 32)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s) {
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return (unsigned int)(v >> (s & 31));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s) {
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return (unsigned int)(v >> (s < 32 ? s : 32));
}
inline int __mul24(int a, int b) { return (int)(((int64_t)(a << 8 >> 8) * (b << 8 >> 8))); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xFFFFFFu) * (b & 0xFFFFFFu); }
inline int __mulhi(int a, int b) { return (int)(((int64_t)a * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) { return (unsigned int)(((uint64_t)a * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline unsigned int __sad(int x, int y, unsigned int z) { return z + (unsigned int)(x > y ? x - y : y - x); }
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
inline int __hadd(int a, int b) { return (int)(((int64_t)a + b) >> 1); }
inline int __rhadd(int a, int b) { return (int)(((int64_t)a + b + 1) >> 1); }
inline unsigned int __uhadd(unsigned int a, unsigned int b) { return (unsigned int)(((uint64_t)a + b) >> 1); }
inline unsigned int __urhadd(unsigned int a, unsigned int b) { return (unsigned int)(((uint64_t)a + b + 1) >> 1); }

#endif
