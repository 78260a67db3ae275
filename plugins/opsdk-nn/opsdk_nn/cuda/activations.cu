// Fused elementwise activations: forward, backward and double backward, grid-stride kernels.
//   nn_ACT_fwd_S(x, y, n, p0, p1)                 y = f(x)
//   nn_ACT_bwd_S(x, dy, dx, n, p0, p1)            dx = dy f'(x)
//   nn_ACT_bwd2_S(x, dy, g, gx, gdy, n, p0, p1)   gx = g dy f''(x), gdy = g f'(x)
// The maths mirrors csrc/act_math.h (every exp takes a non-positive argument); CUDA's own
// erfc/exp are accurate, so gelu uses erfc directly.
#include "nn_common.cuh"

template <typename T> __device__ __forceinline__ void logistic(T u, T e, T &s, T &s1) {
    T inv = T(1) / (T(1) + e);
    s = u >= T(0) ? inv : e * inv;
    s1 = e * inv * inv;
}

struct Gelu {
    template <typename T> __device__ static void eval(T x, T, T, T &f, T &d1, T &d2) {
        T e = nn_exp(T(-0.5) * x * x);
        T cdf = T(0.5) * nn_erfc(T(-0.70710678118654752440) * x);
        T pdf = e * T(0.39894228040143267794);
        f = x * cdf;
        d1 = cdf + x * pdf;
        d2 = pdf * (T(2) - x * x);
    }
};

struct GeluTanh {
    template <typename T> __device__ static void eval(T x, T, T, T &f, T &d1, T &d2) {
        const T c = T(0.79788456080286535588), a = T(0.044715);
        T x2 = x * x;
        T u = T(2) * c * x * (T(1) + a * x2);
        T s, s1;
        logistic(u, nn_exp(u < T(0) ? u : -u), s, s1);
        T du = T(2) * c * (T(1) + T(3) * a * x2);
        T ds = du * s1;
        T dds = T(12) * c * a * x * s1 + du * ds * (T(1) - T(2) * s);
        f = x * s;
        d1 = s + x * ds;
        d2 = T(2) * ds + x * dds;
    }
};

struct Silu {
    template <typename T> __device__ static void eval(T x, T, T, T &f, T &d1, T &d2) {
        T s, s1;
        logistic(x, nn_exp(x < T(0) ? x : -x), s, s1);
        f = x * s;
        d1 = s + x * s1;
        d2 = s1 * (T(2) + x * (T(1) - T(2) * s));
    }
};

struct Softplus {
    template <typename T> __device__ static void eval(T x, T beta, T threshold, T &f, T &d1, T &d2) {
        T u = beta * x;
        T e = nn_exp(u < T(0) ? u : -u);
        T s, s1;
        logistic(u, e, s, s1);
        bool linear = u > threshold;
        f = linear ? x : ((u > T(0) ? u : T(0)) + nn_log1p(e)) / beta;
        d1 = linear ? T(1) : s;
        d2 = linear ? T(0) : beta * s1;
    }
};

struct Mish {
    template <typename T> __device__ static void eval(T x, T, T, T &f, T &d1, T &d2) {
        T e = nn_exp(x < T(0) ? x : -x);
        bool pos = x >= T(0);
        T num = pos ? T(1) + T(2) * e : e * (e + T(2));
        T gap = pos ? T(2) * e * e : T(2);
        T inv = T(1) / (num + gap);
        T tn = num * inv, one_minus = gap * inv;
        T s, s1;
        logistic(x, e, s, s1);
        T sech2 = one_minus * (T(1) + tn);
        T dt = sech2 * s;
        T ddt = T(-2) * tn * dt * s + sech2 * s1;
        f = x * tn;
        d1 = tn + x * dt;
        d2 = T(2) * dt + x * ddt;
    }
};

template <class A, typename T>
__device__ void act_fwd(const T *__restrict__ x, T *__restrict__ y, nn_i64 n, T p0, T p1) {
    NN_GRID_STRIDE(i, n) {
        T f, d1, d2;
        A::eval(x[i], p0, p1, f, d1, d2);
        y[i] = f;
    }
}

template <class A, typename T>
__device__ void act_bwd(const T *__restrict__ x, const T *__restrict__ dy, T *__restrict__ dx, nn_i64 n,
                        T p0, T p1) {
    NN_GRID_STRIDE(i, n) {
        T f, d1, d2;
        A::eval(x[i], p0, p1, f, d1, d2);
        dx[i] = dy[i] * d1;
    }
}

template <class A, typename T>
__device__ void act_bwd2(const T *__restrict__ x, const T *__restrict__ dy, const T *__restrict__ g,
                         T *__restrict__ gx, T *__restrict__ gdy, nn_i64 n, T p0, T p1) {
    NN_GRID_STRIDE(i, n) {
        T f, d1, d2;
        A::eval(x[i], p0, p1, f, d1, d2);
        T gi = g[i];
        gx[i] = gi * dy[i] * d2;
        gdy[i] = gi * d1;
    }
}

#define NN_ACT(ACT, A, T, S)                                                                      \
    extern "C" __global__ void nn_##ACT##_fwd_##S(const T *x, T *y, nn_i64 n, double p0, double p1) { \
        act_fwd<A, T>(x, y, n, T(p0), T(p1));                                                     \
    }                                                                                             \
    extern "C" __global__ void nn_##ACT##_bwd_##S(const T *x, const T *dy, T *dx, nn_i64 n, double p0, \
                                                   double p1) {                                   \
        act_bwd<A, T>(x, dy, dx, n, T(p0), T(p1));                                                \
    }                                                                                             \
    extern "C" __global__ void nn_##ACT##_bwd2_##S(const T *x, const T *dy, const T *g, T *gx, T *gdy, \
                                                    nn_i64 n, double p0, double p1) {             \
        act_bwd2<A, T>(x, dy, g, gx, gdy, n, T(p0), T(p1));                                       \
    }

#define NN_BOTH(ACT, A) NN_ACT(ACT, A, float, f32) NN_ACT(ACT, A, double, f64)

NN_BOTH(gelu, Gelu)
NN_BOTH(gelu_tanh, GeluTanh)
NN_BOTH(silu, Silu)
NN_BOTH(softplus, Softplus)
NN_BOTH(mish, Mish)
