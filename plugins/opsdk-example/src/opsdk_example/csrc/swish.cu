// example.swish, CUDA backend: y = x * sigmoid(beta * x) and its gradient, grid-stride loops.
//
// CuPy compiles this file (NVRTC) on the first call on a GPU; opsdk_example/swish_kernels.py
// launches the extern "C" kernels below with opsdk.kernels.launch_1d.

// exp only ever sees -|z|, so it never overflows
__device__ float sigmoid(float z)
{
    float e = expf(-fabsf(z));
    return z >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}

__device__ double sigmoid(double z)
{
    double e = exp(-fabs(z));
    return z >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

template <typename T>
__device__ void swish_fwd(const T *x, T *y, long long n, T beta)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        y[i] = x[i] * sigmoid(beta * x[i]);
}

// dx = dy * (s + beta * x * s * (1 - s)), s = sigmoid(beta * x)
template <typename T>
__device__ void swish_bwd(const T *x, const T *dy, T *dx, long long n, T beta)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x) {
        T s = sigmoid(beta * x[i]);
        dx[i] = dy[i] * (s + beta * x[i] * s * (T(1) - s));
    }
}

extern "C" __global__ void swish_fwd_f32(const float *x, float *y, long long n, float beta)
{
    swish_fwd(x, y, n, beta);
}

extern "C" __global__ void swish_fwd_f64(const double *x, double *y, long long n, double beta)
{
    swish_fwd(x, y, n, beta);
}

extern "C" __global__ void swish_bwd_f32(const float *x, const float *dy, float *dx, long long n,
                                         float beta)
{
    swish_bwd(x, dy, dx, n, beta);
}

extern "C" __global__ void swish_bwd_f64(const double *x, const double *dy, double *dx,
                                         long long n, double beta)
{
    swish_bwd(x, dy, dx, n, beta);
}
