// Inclusive prefix sum of a 1-D array by warp shuffles, after NVIDIA/cuda-samples
// Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu (shfl_scan_test: a __shfl_up_sync
// scan in each warp, the warp totals in dynamic shared memory scanned by warp 0 under the mask
// (1 << warps) - 1, each block's total to partial_sums; uniform_add: a block's offset read once
// into __shared__ buf and added to every element). Rewritten out of place, for any length (the
// host scans the partial sums recursively): float, double; half into float and int32 into a
// 64-bit integer (wider accumulators, as torch.cumsum has).
#include <cuda_fp16.h>

template <typename T, typename Acc>
__device__ void shfl_scan_block(const T *__restrict__ in, Acc *__restrict__ out, Acc *__restrict__ partial_sums,
                                int n)
{
    extern __shared__ unsigned char scan_smem[];
    Acc *sums = reinterpret_cast<Acc *>(scan_smem);
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane_id = threadIdx.x % warpSize;
    const int warp_id = threadIdx.x / warpSize;
    const int warps = blockDim.x / warpSize;

    Acc value = id < n ? static_cast<Acc>(in[id]) : Acc(0);
#pragma unroll
    for (int i = 1; i <= 32; i *= 2) {
        Acc up = __shfl_up_sync(0xffffffffu, value, i, 32);
        if (lane_id >= i) value += up;
    }
    if (threadIdx.x % warpSize == warpSize - 1)
        sums[warp_id] = value;
    __syncthreads();

    if (warp_id == 0 && lane_id < warps) {
        Acc warp_sum = sums[lane_id];
        const unsigned int mask = (1u << warps) - 1u;
        for (int i = 1; i <= warps; i *= 2) {
            Acc up = __shfl_up_sync(mask, warp_sum, i, warps);
            if (lane_id >= i) warp_sum += up;
        }
        sums[lane_id] = warp_sum;
    }
    __syncthreads();

    if (warp_id > 0)
        value += sums[warp_id - 1];
    if (id < n)
        out[id] = value;
    if (threadIdx.x == blockDim.x - 1)
        partial_sums[blockIdx.x] = value;
}

// data[blockDim.x:] += partial[block - 1]: launched with one block less, on data + blockDim.x
template <typename Acc>
__device__ void uniform_add(Acc *data, const Acc *partial_sums, int len)
{
    __shared__ Acc buf;
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        buf = partial_sums[blockIdx.x];
    __syncthreads();
    if (id >= len) return;
    data[id] += buf;
}

extern "C" __global__ void scan_block_f32(const float *in, float *out, float *partial, int n)
{
    shfl_scan_block<float, float>(in, out, partial, n);
}

extern "C" __global__ void scan_block_f64(const double *in, double *out, double *partial, int n)
{
    shfl_scan_block<double, double>(in, out, partial, n);
}

extern "C" __global__ void scan_block_f16(const __half *in, float *out, float *partial, int n)
{
    shfl_scan_block<__half, float>(in, out, partial, n);
}

extern "C" __global__ void scan_block_i32(const int *in, long long *out, long long *partial, int n)
{
    shfl_scan_block<int, long long>(in, out, partial, n);
}

extern "C" __global__ void scan_block_i64(const long long *in, long long *out, long long *partial, int n)
{
    shfl_scan_block<long long, long long>(in, out, partial, n);
}

extern "C" __global__ void uniform_add_f32(float *data, const float *partial, int len) { uniform_add<float>(data, partial, len); }
extern "C" __global__ void uniform_add_f64(double *data, const double *partial, int len) { uniform_add<double>(data, partial, len); }
extern "C" __global__ void uniform_add_i64(long long *data, const long long *partial, int len) { uniform_add<long long>(data, partial, len); }
