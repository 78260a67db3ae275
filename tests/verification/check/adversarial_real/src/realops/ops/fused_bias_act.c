/* realops.fused_bias_act: the C kernels of bias + activation + gain (see fused_bias_act.py).
 *
 * Ported from NVlabs/stylegan2-ada-pytorch, torch_utils/ops/bias_act.cu (bias_act_kernel): one
 * pass over x [N, C, S] with the bias of channel c = (i / S) % C, in three modes, as the
 * source's `grad` parameter (0: y, 1: dx, 2: the second-order term), and the bias gradient,
 * which the source leaves to torch (`dx.sum([i for i in range(dx.ndim) if i != dim])`).
 *
 *   bias_act_forward_T(x, b, y, n, step, channels, act, alpha, gain)     y  = act(x + b) gain
 *   bias_act_grad_T(dy, x, b, dx, n, step, channels, act, alpha, gain)   dx = dy act'(x + b) gain
 *   bias_act_grad2_T(ddx, dy, x, b, out, n, ...)                         out = ddx dy act''(x + b) gain
 *   bias_act_bias_grad_T(dx, db, batch, channels, step)                  db[c] = sum of dx[:, c, :]
 *
 * act: 1 linear, 3 lrelu (slope alpha below 0), 9 swish (x sigmoid(x)), the source's codes.
 * The bias gradient sums in double, so float32 batches of any size keep their precision.
 *
 * Bug switches (the pack's bug variants compile this file with one defined):
 *   REALOPS_BUG_GRAD2_NO_GAIN   the second-order term forgets the gain
 *   REALOPS_BUG_DB_FLOAT        the bias gradient of float32 sums in a float accumulator
 *   REALOPS_BUG_SWISH_UNGUARDED swish' as c (z + d) / d^2 with c = exp(z), d = c + 1, without the
 *                               source's `z > 40` guard: inf / inf = NaN for large z
 */
#include <math.h>
#include <stdint.h>

#ifdef REALOPS_BUG_DB_FLOAT
#define DB_ACC_f32 float
#else
#define DB_ACC_f32 double
#endif
#define DB_ACC_f64 double

#ifdef REALOPS_BUG_GRAD2_NO_GAIN
#define GAIN2 1.0
#else
#define GAIN2 gain
#endif

static double sigmoid(double z)
{
    double e = exp(-fabs(z));
    return z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

static double act_value(double z, int act, double alpha)
{
    if (act == 3) return z > 0 ? z : alpha * z;
    if (act == 9) return z * sigmoid(z);
    return z;
}

static double act_grad(double z, int act, double alpha)
{
    if (act == 3) return z > 0 ? 1.0 : alpha;
    if (act == 9) {
#ifdef REALOPS_BUG_SWISH_UNGUARDED
        double c = exp(z), d = c + 1.0;
        return c * (z + d) / (d * d);
#else
        double s = sigmoid(z);
        return s * (1.0 + z * (1.0 - s));
#endif
    }
    return 1.0;
}

static double act_grad2(double z, int act)
{
    if (act == 9) {
        double s = sigmoid(z);
        return s * (1.0 - s) * (2.0 + z * (1.0 - 2.0 * s));
    }
    return 0.0;   /* linear and lrelu: piecewise linear */
}

#define BIAS_ACT(T, SUFFIX)                                                                         \
    void bias_act_forward_##SUFFIX(const T *x, const T *b, T *y, int64_t n, int64_t step,           \
                                   int64_t channels, int act, double alpha, double gain)            \
    {                                                                                               \
        for (int64_t i = 0; i < n; i++)                                                             \
            y[i] = (T)(act_value((double)x[i] + b[(i / step) % channels], act, alpha) * gain);      \
    }                                                                                               \
    void bias_act_grad_##SUFFIX(const T *dy, const T *x, const T *b, T *dx, int64_t n,              \
                                int64_t step, int64_t channels, int act, double alpha, double gain) \
    {                                                                                               \
        for (int64_t i = 0; i < n; i++)                                                             \
            dx[i] = (T)(dy[i] * act_grad((double)x[i] + b[(i / step) % channels], act, alpha) * gain); \
    }                                                                                               \
    void bias_act_grad2_##SUFFIX(const T *ddx, const T *dy, const T *x, const T *b, T *out,         \
                                 int64_t n, int64_t step, int64_t channels, int act, double alpha,  \
                                 double gain)                                                       \
    {                                                                                               \
        (void)alpha;                                                                                \
        for (int64_t i = 0; i < n; i++)                                                             \
            out[i] = (T)((double)ddx[i] * dy[i] *                                                   \
                         act_grad2((double)x[i] + b[(i / step) % channels], act) * GAIN2);          \
    }                                                                                               \
    void bias_act_bias_grad_##SUFFIX(const T *dx, T *db, int64_t batch, int64_t channels,           \
                                     int64_t step)                                                  \
    {                                                                                               \
        for (int64_t c = 0; c < channels; c++) {                                                    \
            DB_ACC_##SUFFIX acc = 0;                                                                \
            for (int64_t k = 0; k < batch; k++) {                                                   \
                const T *row = dx + (k * channels + c) * step;                                      \
                for (int64_t s = 0; s < step; s++) acc += row[s];                                   \
            }                                                                                       \
            db[c] = (T)acc;                                                                         \
        }                                                                                           \
    }

BIAS_ACT(float, f32)
BIAS_ACT(double, f64)
