// RMSNorm (T5 LayerNorm) forward: one block per row, a block-wide sum of squares.
// Ported (structure and maths, rewritten) from NVIDIA/FasterTransformer
// src/fastertransformer/kernels/reduce_kernel_utils.cuh (warpReduceSum with __shfl_xor_sync and
// FINAL_MASK, blockReduceSum over a static __shared__ T shared[32]) and
// src/fastertransformer/kernels/layernorm_kernels.cu (generalT5LayerNorm: __shared__ s_variance,
// block = min(n, 1024) rounded up to a multiple of 32, so some threads own no column).
// y = x * rsqrt(mean(x^2) + eps) * gamma; rstd is also written (for the backward).
#include <cuda_fp16.h>

#define FINAL_MASK 0xffffffffu

template <typename T>
__inline__ __device__ T warp_reduce_sum(T val)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
    return val;
}

template <typename T>
__inline__ __device__ T block_reduce_sum(T val)
{
    static __shared__ T shared[32];
    const int lane = threadIdx.x & 0x1f;
    const int wid = threadIdx.x >> 5;
    val = warp_reduce_sum<T>(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();
    // blockDim.x / 32.f: a block that is not a multiple of 32 still counts its last warp
    val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)0.0f;
    val = warp_reduce_sum<T>(val);
    return val;
}

template <typename T, typename Acc>
__device__ void rms_norm_fwd(const T *__restrict__ input, const T *__restrict__ gamma, T *__restrict__ output,
                             T *__restrict__ rstd, Acc eps, int m, int n)
{
    const int tid = threadIdx.x;
    __shared__ Acc s_variance;
    Acc local_sum = Acc(0);
    for (int i = tid; i < n; i += blockDim.x) {
        Acc v = static_cast<Acc>(__ldg(&input[(long long)blockIdx.x * n + i]));
        local_sum += v * v;
    }
    Acc variance = block_reduce_sum<Acc>(local_sum);
    if (threadIdx.x == 0) {
        s_variance = Acc(1) / sqrt(variance / static_cast<Acc>(n) + eps);
        rstd[blockIdx.x] = static_cast<T>(s_variance);
    }
    __syncthreads();
    for (int i = tid; i < n; i += blockDim.x) {
        Acc v = static_cast<Acc>(input[(long long)blockIdx.x * n + i]);
        output[(long long)blockIdx.x * n + i] = static_cast<T>(v * s_variance * static_cast<Acc>(__ldg(&gamma[i])));
    }
}

extern "C" __global__ void rms_norm_fwd_f16(const __half *x, const __half *w, __half *y, __half *rstd, float eps, int m, int n)
{
    rms_norm_fwd<__half, float>(x, w, y, rstd, eps, m, n);
}

extern "C" __global__ void rms_norm_fwd_f32(const float *x, const float *w, float *y, float *rstd, float eps, int m, int n)
{
    rms_norm_fwd<float, float>(x, w, y, rstd, eps, m, n);
}

extern "C" __global__ void rms_norm_fwd_f64(const double *x, const double *w, double *y, double *rstd, double eps, int m, int n)
{
    rms_norm_fwd<double, double>(x, w, y, rstd, eps, m, n);
}
