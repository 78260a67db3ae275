// Fused bias + GELU (tanh form), out of place: y = gelu(x + bias[col]) on x[m, n].
// Ported (structure and maths, rewritten) from NVIDIA/FasterTransformer
// src/fastertransformer/kernels/activation_kernels.cu (addBiasGelu: a grid-stride loop with
// __ldg(&bias[id % n]); the half specialisation works on half2 pairs, __hadd2 and
// __half22float2) and from karpathy/llm.c dev/cuda/gelu_forward.cu (128-bit packed loads:
// float4 over the flattened array, the remainder element by element).
#include <cuda_fp16.h>

#define GELU_SCALE 0.7978845608028654f   // sqrt(2 / pi)

__device__ __forceinline__ float gelu(float x)
{
    float cube = 0.044715f * x * x * x;
    return 0.5f * x * (1.0f + tanhf(GELU_SCALE * (x + cube)));
}

__device__ __forceinline__ double gelu(double x)
{
    double cube = 0.044715 * x * x * x;
    return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + cube)));
}

__device__ __forceinline__ half2 gelu(half2 v)
{
    float2 f = __half22float2(v);
    return __floats2half2_rn(gelu(f.x), gelu(f.y));
}

template <typename T>
__device__ void bias_gelu(const T *__restrict__ x, const T *__restrict__ bias, T *__restrict__ y, int m, int n)
{
    for (int id = blockIdx.x * blockDim.x + threadIdx.x; id < m * n; id += blockDim.x * gridDim.x)
        y[id] = gelu(x[id] + __ldg(&bias[id % n]));
}

extern "C" __global__ void bias_gelu_f64(const double *x, const double *bias, double *y, int m, int n)
{
    bias_gelu<double>(x, bias, y, m, n);
}

// float: four elements per load and store; the last (m * n) % 4 one by one
extern "C" __global__ void bias_gelu_f32(const float *__restrict__ x, const float *__restrict__ bias,
                                         float *__restrict__ y, int m, int n)
{
    const int total = m * n;
    const int quads = total / 4;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < quads; q += blockDim.x * gridDim.x) {
        float4 v = x4[q];
        const int base = 4 * q;
        v.x = gelu(v.x + __ldg(&bias[base % n]));
        v.y = gelu(v.y + __ldg(&bias[(base + 1) % n]));
        v.z = gelu(v.z + __ldg(&bias[(base + 2) % n]));
        v.w = gelu(v.w + __ldg(&bias[(base + 3) % n]));
        y4[q] = v;
    }
    for (int id = 4 * quads + blockIdx.x * blockDim.x + threadIdx.x; id < total; id += blockDim.x * gridDim.x)
        y[id] = gelu(x[id] + __ldg(&bias[id % n]));
}

// half, n even: half2 pairs of x and of bias (the pair at column (2 * id) % n)
extern "C" __global__ void bias_gelu_f16x2(const __half *x, const __half *bias, __half *y, int m, int n)
{
    const half2 *x2 = reinterpret_cast<const half2 *>(x);
    half2 *y2 = reinterpret_cast<half2 *>(y);
    for (int id = blockIdx.x * blockDim.x + threadIdx.x; id < m * n / 2; id += blockDim.x * gridDim.x) {
        half2 b = __ldg(reinterpret_cast<const half2 *>(bias + (2 * id) % n));
        y2[id] = gelu(__hadd2(x2[id], b));
    }
}

// half, any n: element by element, in float
extern "C" __global__ void bias_gelu_f16(const __half *x, const __half *bias, __half *y, int m, int n)
{
    for (int id = blockIdx.x * blockDim.x + threadIdx.x; id < m * n; id += blockDim.x * gridDim.x)
        y[id] = __float2half(gelu(__half2float(x[id]) + __half2float(__ldg(&bias[id % n]))));
}
