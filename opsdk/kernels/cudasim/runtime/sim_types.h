// CUDA's vector types (with CUDA's alignments), make_* constructors, and the half types
// (__half, __half2, __nv_bfloat16, __nv_bfloat162: stored as bits, computed in float and rounded
// to nearest even, as one GPU instruction does).
#ifndef OPSDK_SIM_TYPES_H
#define OPSDK_SIM_TYPES_H

// uint3 comes from sim_abi.h (it is also the type of threadIdx and blockIdx)
#define OPSDK_SIM_VEC124(T, N, A1, A2, A4)                                                                    \
    struct __attribute__((aligned(A1))) N##1 { T x; };                                                      \
    struct __attribute__((aligned(A2))) N##2 { T x, y; };                                                   \
    struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                                             \
    inline N##1 make_##N##1(T x) { return N##1{x}; }                                                        \
    inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                                                \
    inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define OPSDK_SIM_VEC(T, N, A1, A2, A3, A4)                                                                  \
    OPSDK_SIM_VEC124(T, N, A1, A2, A4)                                                                      \
    struct N##3 { T x, y, z; };                                                                             \
    inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
OPSDK_SIM_VEC(signed char, char, 1, 2, 1, 4)
OPSDK_SIM_VEC(unsigned char, uchar, 1, 2, 1, 4)
OPSDK_SIM_VEC(short, short, 2, 4, 2, 8)
OPSDK_SIM_VEC(unsigned short, ushort, 2, 4, 2, 8)
OPSDK_SIM_VEC(int, int, 4, 8, 4, 16)
OPSDK_SIM_VEC124(unsigned int, uint, 4, 8, 16)
OPSDK_SIM_VEC(long, long, 8, 16, 8, 16)
OPSDK_SIM_VEC(unsigned long, ulong, 8, 16, 8, 16)
OPSDK_SIM_VEC(long long, longlong, 8, 16, 8, 16)
OPSDK_SIM_VEC(unsigned long long, ulonglong, 8, 16, 8, 16)
OPSDK_SIM_VEC(float, float, 4, 8, 4, 16)
OPSDK_SIM_VEC(double, double, 8, 16, 8, 16)
#undef OPSDK_SIM_VEC
#undef OPSDK_SIM_VEC124
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
inline dim3 make_dim3(unsigned int x, unsigned int y, unsigned int z) { return dim3(x, y, z); }

namespace opsdk_sim {
// float <-> IEEE binary16 / bfloat16 bits, round to nearest even
inline uint16_t float_to_half_bits(float f) {
    uint32_t x;
    __builtin_memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t mant = x & 0x7FFFFFu;
    int exp = (int)((x >> 23) & 0xFF);
    if (exp == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u | (mant >> 13) : 0));
    int e = exp - 127 + 15;
    if (e >= 0x1F) return (uint16_t)(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1))) half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = (uint32_t)(e << 10) | (mant >> 13), rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) half++;
    return (uint16_t)(sign | half);
}

inline float half_bits_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    int exp = (h >> 10) & 0x1F;
    uint32_t mant = h & 0x3FFu, x;
    if (exp == 0x1F) x = sign | 0x7F800000u | (mant << 13);
    else if (exp) x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13);
    else if (!mant) x = sign;
    else {
        int e = -1;
        do { e++; mant <<= 1; } while (!(mant & 0x400u));
        x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
    }
    float f;
    __builtin_memcpy(&f, &x, 4);
    return f;
}

inline uint16_t float_to_bf16_bits(float f) {
    uint32_t x;
    __builtin_memcpy(&x, &f, 4);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7FFFu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

// a double as the float that rounds to the same 16-bit float as the double itself does: rounded
// to odd (the lowest bit set when inexact), so rounding it again cannot land on a false tie
inline float round_to_odd_float(double d) {
    float f = (float)d;
    if ((double)f != d && f == f) {
        uint32_t b;
        __builtin_memcpy(&b, &f, 4);
        if (!(b & 1u)) {
            f = nextafterf(f, (double)f < d ? INFINITY : -INFINITY);
        }
    }
    return f;
}

inline float bf16_bits_to_float(uint16_t b) {
    uint32_t x = (uint32_t)b << 16;
    float f;
    __builtin_memcpy(&f, &x, 4);
    return f;
}
}  // namespace opsdk_sim

#define OPSDK_SIM_HALF(H, TO, FROM)                                                                       \
    struct H {                                                                                             \
        unsigned short __x;                                                                                \
        H() = default;                                                                                     \
        H(float f) : __x(::opsdk_sim::TO(f)) {}                                                            \
        H(double f) : __x(::opsdk_sim::TO(::opsdk_sim::round_to_odd_float(f))) {}                          \
        H(int i) : __x(::opsdk_sim::TO((float)i)) {}                                                       \
        operator float() const { return ::opsdk_sim::FROM(__x); }                                          \
        H &operator+=(H o) { return *this = H(float(*this) + float(o)); }                                  \
        H &operator-=(H o) { return *this = H(float(*this) - float(o)); }                                  \
        H &operator*=(H o) { return *this = H(float(*this) * float(o)); }                                  \
        H &operator/=(H o) { return *this = H(float(*this) / float(o)); }                                  \
    };                                                                                                     \
    inline H operator+(H a, H b) { return H(float(a) + float(b)); }                                       \
    inline H operator-(H a, H b) { return H(float(a) - float(b)); }                                       \
    inline H operator*(H a, H b) { return H(float(a) * float(b)); }                                       \
    inline H operator/(H a, H b) { return H(float(a) / float(b)); }                                       \
    inline H operator-(H a) { H r; r.__x = a.__x ^ 0x8000u; return r; }                                   \
    inline bool operator==(H a, H b) { return float(a) == float(b); }                                     \
    inline bool operator!=(H a, H b) { return float(a) != float(b); }                                     \
    inline bool operator<(H a, H b) { return float(a) < float(b); }                                       \
    inline bool operator>(H a, H b) { return float(a) > float(b); }                                       \
    inline bool operator<=(H a, H b) { return float(a) <= float(b); }                                     \
    inline bool operator>=(H a, H b) { return float(a) >= float(b); }                                     \
    struct __attribute__((aligned(4))) H##2 {                                                              \
        H x, y;                                                                                            \
    };
OPSDK_SIM_HALF(__half, float_to_half_bits, half_bits_to_float)
OPSDK_SIM_HALF(__nv_bfloat16, float_to_bf16_bits, bf16_bits_to_float)
#undef OPSDK_SIM_HALF
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double f) { return __half(f); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int i) { return __half((float)i); }
namespace opsdk_sim {
// a 16-bit float to int as cvt does: NaN gives 0, infinities the int's limits
inline int half_to_int(float f, bool nearest) {
    if (f != f) return 0;
    if (f > 65504.0f) return INT_MAX;
    if (f < -65504.0f) return INT_MIN;
    return (int)(nearest ? nearbyintf(f) : f);
}
}  // namespace opsdk_sim
inline int __half2int_rn(__half h) { return ::opsdk_sim::half_to_int(float(h), true); }
inline int __half2int_rz(__half h) { return ::opsdk_sim::half_to_int(float(h), false); }
inline __half __ushort_as_half(unsigned short b) { __half h; h.__x = b; return h; }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __short_as_half(short b) { __half h; h.__x = (unsigned short)b; return h; }
inline short __half_as_short(__half h) { return (short)h.__x; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 make_half2(__half a, __half b) { return __half2{a, b}; }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { __half r; r.__x = a.__x & 0x7FFFu; return r; }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }
inline __half __hmax(__half a, __half b) { return float(a) > float(b) ? a : b; }
inline __half __hmin(__half a, __half b) { return float(a) < float(b) ? a : b; }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return (a.__x & 0x7FFFu) > 0x7C00u; }
inline int __hisinf(__half a) { return (a.__x & 0x7FFFu) == 0x7C00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; }
inline __half hexp(__half a) { return __half(expf(float(a))); }
inline __half hlog(__half a) { return __half(logf(float(a))); }
inline __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }
inline __half hrcp(__half a) { return __half(1.0f / float(a)); }
inline __half hsin(__half a) { return __half(sinf(float(a))); }
inline __half hcos(__half a) { return __half(cosf(float(a))); }
inline __half htanh(__half a) { return __half(tanhf(float(a))); }
inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{a.x + b.x, a.y + b.y}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2{a.x - b.x, a.y - b.y}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{a.x * b.x, a.y * b.y}; }
inline __half2 __h2div(__half2 a, __half2 b) { return __half2{a.x / b.x, a.y / b.y}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half2 __hneg2(__half2 a) { return __half2{-a.x, -a.y}; }

inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return float(b); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short b) { __nv_bfloat16 h; h.__x = b; return h; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(b)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{float(h.x), float(h.y)}; }

namespace opsdk_sim {
// a read-modify-write of a 16-bit float: fibers never interleave between the load and the swap
template <class H> inline H atomic_add_half(H *p, H v) {
    H old = unbits<H>(opsdk_sim_atomic(11, (void *)p, 2, OPSDK_KIND_FLOAT, 0, 0));
    opsdk_sim_atomic(2, (void *)p, 2, OPSDK_KIND_FLOAT, bits(H(float(old) + float(v))), 0);
    return old;
}
}  // namespace opsdk_sim
inline __half atomicAdd(__half *p, __half v) { return ::opsdk_sim::atomic_add_half(p, v); }
inline __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v) { return ::opsdk_sim::atomic_add_half(p, v); }
inline __half2 atomicAdd(__half2 *p, __half2 v) {
    return __half2{atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y)};
}

#endif
