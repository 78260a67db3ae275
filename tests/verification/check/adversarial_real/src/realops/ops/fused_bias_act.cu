/* realops.fused_bias_act: the CUDA kernels (see fused_bias_act.c for the maths and parameters).
 *
 * Ported from NVlabs/stylegan2-ada-pytorch, torch_utils/ops/bias_act.cu: elementwise modes as
 * grid-stride loops with 64-bit indices; the bias gradient one thread per channel, in double.
 */

__device__ double sigmoid_d(double z)
{
    double e = exp(-fabs(z));
    return z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

__device__ double act_value(double z, int act, double alpha)
{
    if (act == 3) return z > 0 ? z : alpha * z;
    if (act == 9) return z * sigmoid_d(z);
    return z;
}

__device__ double act_grad(double z, int act, double alpha)
{
    if (act == 3) return z > 0 ? 1.0 : alpha;
    if (act == 9) {
        double s = sigmoid_d(z);
        return s * (1.0 + z * (1.0 - s));
    }
    return 1.0;
}

__device__ double act_grad2(double z, int act)
{
    if (act == 9) {
        double s = sigmoid_d(z);
        return s * (1.0 - s) * (2.0 + z * (1.0 - 2.0 * s));
    }
    return 0.0;
}

#define GRID_STRIDE(i, n) \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long)blockDim.x * gridDim.x)

template <typename T>
__device__ void forward_loop(const T *x, const T *b, T *y, long long n, long long step, long long channels,
                             int act, double alpha, double gain)
{
    GRID_STRIDE(i, n) y[i] = (T)(act_value((double)x[i] + b[(i / step) % channels], act, alpha) * gain);
}

template <typename T>
__device__ void grad_loop(const T *dy, const T *x, const T *b, T *dx, long long n, long long step,
                          long long channels, int act, double alpha, double gain)
{
    GRID_STRIDE(i, n) dx[i] = (T)(dy[i] * act_grad((double)x[i] + b[(i / step) % channels], act, alpha) * gain);
}

template <typename T>
__device__ void grad2_loop(const T *ddx, const T *dy, const T *x, const T *b, T *out, long long n,
                           long long step, long long channels, int act, double gain)
{
    GRID_STRIDE(i, n)
        out[i] = (T)((double)ddx[i] * dy[i] * act_grad2((double)x[i] + b[(i / step) % channels], act) * gain);
}

template <typename T>
__device__ void bias_grad_loop(const T *dx, T *db, long long batch, long long channels, long long step)
{
    GRID_STRIDE(c, channels) {
        double acc = 0.0;
        for (long long k = 0; k < batch; k++)
            for (long long s = 0; s < step; s++) acc += dx[(k * channels + c) * step + s];
        db[c] = (T)acc;
    }
}

extern "C" __global__ void bias_act_forward_f32(const float *x, const float *b, float *y, long long n, long long step,
                                                long long channels, int act, double alpha, double gain)
{
    forward_loop(x, b, y, n, step, channels, act, alpha, gain);
}

extern "C" __global__ void bias_act_forward_f64(const double *x, const double *b, double *y, long long n,
                                                long long step, long long channels, int act, double alpha,
                                                double gain)
{
    forward_loop(x, b, y, n, step, channels, act, alpha, gain);
}

extern "C" __global__ void bias_act_grad_f32(const float *dy, const float *x, const float *b, float *dx, long long n,
                                             long long step, long long channels, int act, double alpha, double gain)
{
    grad_loop(dy, x, b, dx, n, step, channels, act, alpha, gain);
}

extern "C" __global__ void bias_act_grad_f64(const double *dy, const double *x, const double *b, double *dx,
                                             long long n, long long step, long long channels, int act, double alpha,
                                             double gain)
{
    grad_loop(dy, x, b, dx, n, step, channels, act, alpha, gain);
}

extern "C" __global__ void bias_act_grad2_f32(const float *ddx, const float *dy, const float *x, const float *b,
                                              float *out, long long n, long long step, long long channels, int act,
                                              double alpha, double gain)
{
    grad2_loop(ddx, dy, x, b, out, n, step, channels, act, gain);
}

extern "C" __global__ void bias_act_grad2_f64(const double *ddx, const double *dy, const double *x, const double *b,
                                              double *out, long long n, long long step, long long channels, int act,
                                              double alpha, double gain)
{
    grad2_loop(ddx, dy, x, b, out, n, step, channels, act, gain);
}

extern "C" __global__ void bias_act_bias_grad_f32(const float *dx, float *db, long long batch, long long channels,
                                                  long long step)
{
    bias_grad_loop(dx, db, batch, channels, step);
}

extern "C" __global__ void bias_act_bias_grad_f64(const double *dx, double *db, long long batch, long long channels,
                                                  long long step)
{
    bias_grad_loop(dx, db, batch, channels, step);
}
