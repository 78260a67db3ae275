/* Value and first two derivatives of each activation, written once for both precisions.
 *
 * Included by activations.c with NN_T (float or double), NN_F(name) (adds the dtype suffix),
 * NN_EXP (exp of x <= 0), NN_LOG1P_UNIT (log(1 + u) for u in [0, 1]) and NN_ERFC_Q defined.
 * Each function computes f, f' and f'' at x; a kernel that stores only some of them lets the
 * compiler drop the rest after inlining. Every exp takes a non-positive argument, so nothing
 * overflows: the logistic function is built from e = exp(-|u|) on both sides of 0.
 */

/* sigmoid(u) and sigmoid'(u) = s (1 - s) from e = exp(-|u|) */
static inline void NN_F(logistic)(NN_T u, NN_T e, NN_T *s, NN_T *s1) {
    NN_T inv = (NN_T)1 / ((NN_T)1 + e);
    *s = u >= 0 ? inv : e * inv;
    *s1 = e * inv * inv;
}

/* gelu(x) = x Phi(x), Phi(x) = erfc(-x / sqrt 2) / 2; exp(-x^2 / 2) serves both erfc and phi */
static inline void NN_F(gelu)(NN_T x, NN_T p0, NN_T p1, NN_T *f, NN_T *d1, NN_T *d2) {
    (void)p0, (void)p1;
    NN_T z = (x < 0 ? -x : x) * (NN_T)0.70710678118654752440;
    NN_T t = (NN_T)2 / ((NN_T)2 + z);
    NN_T e = NN_EXP((NN_T)-0.5 * x * x);
    NN_T half_erfc = (NN_T)0.5 * t * NN_ERFC_Q(t) * e;
    NN_T cdf = x < 0 ? half_erfc : (NN_T)1 - half_erfc;
    NN_T pdf = e * (NN_T)0.39894228040143267794;
    *f = x * cdf;
    *d1 = cdf + x * pdf;
    *d2 = pdf * ((NN_T)2 - x * x);
}

/* gelu, tanh form: x (1 + tanh(k)) / 2 = x sigmoid(2k), k = sqrt(2/pi) (x + 0.044715 x^3) */
static inline void NN_F(gelu_tanh)(NN_T x, NN_T p0, NN_T p1, NN_T *f, NN_T *d1, NN_T *d2) {
    (void)p0, (void)p1;
    const NN_T c = (NN_T)0.79788456080286535588, a = (NN_T)0.044715;
    NN_T x2 = x * x;
    NN_T u = (NN_T)2 * c * x * ((NN_T)1 + a * x2);
    NN_T s, s1;
    NN_F(logistic)(u, NN_EXP(u < 0 ? u : -u), &s, &s1);
    NN_T du = (NN_T)2 * c * ((NN_T)1 + (NN_T)3 * a * x2);
    NN_T ddu = (NN_T)12 * c * a * x;
    NN_T ds = du * s1;                                     /* d sigmoid(u) / dx */
    NN_T dds = ddu * s1 + du * ds * ((NN_T)1 - (NN_T)2 * s);
    *f = x * s;
    *d1 = s + x * ds;
    *d2 = (NN_T)2 * ds + x * dds;
}

/* silu(x) = x sigmoid(x) */
static inline void NN_F(silu)(NN_T x, NN_T p0, NN_T p1, NN_T *f, NN_T *d1, NN_T *d2) {
    (void)p0, (void)p1;
    NN_T s, s1;
    NN_F(logistic)(x, NN_EXP(x < 0 ? x : -x), &s, &s1);
    *f = x * s;
    *d1 = s + x * s1;
    *d2 = s1 * ((NN_T)2 + x * ((NN_T)1 - (NN_T)2 * s));
}

/* softplus(x) = log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (Paddle) */
static inline void NN_F(softplus)(NN_T x, NN_T beta, NN_T threshold, NN_T *f, NN_T *d1, NN_T *d2) {
    NN_T u = beta * x;
    NN_T e = NN_EXP(u < 0 ? u : -u);
    NN_T s, s1;
    NN_F(logistic)(u, e, &s, &s1);
    NN_T soft = ((u > 0 ? u : (NN_T)0) + NN_LOG1P_UNIT(e)) / beta;
    int linear = u > threshold;
    *f = linear ? x : soft;
    *d1 = linear ? (NN_T)1 : s;
    *d2 = linear ? (NN_T)0 : beta * s1;
}

/* mish(x) = x tanh(softplus(x)); with e = exp(-|x|), tanh(softplus(x)) = n / d exactly:
 * x >= 0: n = 1 + 2e, d = n + 2e^2;  x < 0: n = e^2 + 2e, d = n + 2. 1 - T is formed as
 * (d - n) / d so it keeps its precision where T is close to 1. */
static inline void NN_F(mish)(NN_T x, NN_T p0, NN_T p1, NN_T *f, NN_T *d1, NN_T *d2) {
    (void)p0, (void)p1;
    NN_T e = NN_EXP(x < 0 ? x : -x);
    int pos = x >= 0;
    NN_T num = pos ? (NN_T)1 + (NN_T)2 * e : e * (e + (NN_T)2);
    NN_T gap = pos ? (NN_T)2 * e * e : (NN_T)2;            /* d - n */
    NN_T inv = (NN_T)1 / (num + gap);
    NN_T tn = num * inv, one_minus = gap * inv;
    NN_T s, s1;
    NN_F(logistic)(x, e, &s, &s1);
    NN_T sech2 = one_minus * ((NN_T)1 + tn);               /* 1 - T^2 */
    NN_T dt = sech2 * s;                                   /* dT/dx: softplus' = sigmoid */
    NN_T ddt = (NN_T)-2 * tn * dt * s + sech2 * s1;
    *f = x * tn;
    *d1 = tn + x * dt;
    *d2 = (NN_T)2 * dt + x * ddt;
}
