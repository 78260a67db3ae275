// example.swish, CUDA backend: y = x * sigmoid(beta * x) and its gradient, grid-stride loops.
//
// CuPy compiles this file (NVRTC) on the first call on a GPU; opsdk reads the extern "C"
// declarations below and launches each over n elements (opsdk.kernels.launch_1d), so a kernel
// may get fewer threads than elements: each thread strides through the array. __restrict__
// tells the compiler that inputs and output never overlap (opsdk allocates the output), so it
// may load the inputs through the read-only cache.

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
__device__ void swish_fwd(const T *__restrict__ x, T *__restrict__ y, long long n, T beta)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        y[i] = x[i] * sigmoid(beta * x[i]);
}

// dx = dy * (s + beta * x * s * (1 - s)), s = sigmoid(beta * x)
template <typename T>
__device__ void swish_bwd(const T *__restrict__ x, const T *__restrict__ dy, T *__restrict__ dx,
                          long long n, T beta)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x) {
        T s = sigmoid(beta * x[i]);
        dx[i] = dy[i] * (s + beta * x[i] * s * (T(1) - s));
    }
}

extern "C" __global__ void swish_fwd_f32(const float *__restrict__ x, float *__restrict__ y, long long n, float beta)
{
    swish_fwd(x, y, n, beta);
}

extern "C" __global__ void swish_fwd_f64(const double *__restrict__ x, double *__restrict__ y, long long n, double beta)
{
    swish_fwd(x, y, n, beta);
}

extern "C" __global__ void swish_bwd_f32(const float *__restrict__ x, const float *__restrict__ dy,
                                         float *__restrict__ dx, long long n, float beta)
{
    swish_bwd(x, dy, dx, n, beta);
}

extern "C" __global__ void swish_bwd_f64(const double *__restrict__ x, const double *__restrict__ dy,
                                         double *__restrict__ dx, long long n, double beta)
{
    swish_bwd(x, dy, dx, n, beta);
}
