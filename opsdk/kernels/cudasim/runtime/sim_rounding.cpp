// Arithmetic with a rounding mode other than to-nearest: __fadd_rz, __fdiv_ru, __dsqrt_rd, ...
#include "sim_internal.h"

#include <fenv.h>
#include <math.h>

// ---------------------------------------------------------------------------------------------
// arithmetic with a rounding mode other than to-nearest (__fadd_rz, __fdiv_ru, ...)

static int fe_mode(int rnd) {
    switch (rnd) {
    case 1: return FE_TOWARDZERO;
    case 2: return FE_UPWARD;
    case 3: return FE_DOWNWARD;
    default: return FE_TONEAREST;
    }
}

// op: 0 add 1 sub 2 mul 3 div 4 fma 5 sqrt 6 rcp
EXPORT float opsdk_sim_fround(int op, int rnd, float a, float b, float c) {
    int saved = fegetround();
    fesetround(fe_mode(rnd));
    volatile float x = a, y = b, z = c;
    float r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = fmaf(x, y, z); break;
    case 5: r = sqrtf(x); break;
    default: r = 1.0f / x; break;
    }
    volatile float out = r;
    fesetround(saved);
    return out;
}

EXPORT double opsdk_sim_dround(int op, int rnd, double a, double b, double c) {
    int saved = fegetround();
    fesetround(fe_mode(rnd));
    volatile double x = a, y = b, z = c;
    double r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = fma(x, y, z); break;
    case 5: r = sqrt(x); break;
    default: r = 1.0 / x; break;
    }
    volatile double out = r;
    fesetround(saved);
    return out;
}

