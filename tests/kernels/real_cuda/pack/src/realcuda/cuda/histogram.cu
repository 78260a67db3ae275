// Histograms with shared-memory sub-histograms, after NVIDIA/cuda-samples
// Samples/2_Concepts_and_Techniques/histogram/histogram256.cu (a sub-histogram per warp in
// shared memory, shared atomics, per-block partial histograms merged by a second kernel with a
// shared-memory tree under cg::sync) and histogram64.cu (a byte counter per thread and bin in a
// static __shared__ unsigned char s_Hist[THREADS * BINS], cleared as 32-bit words; a thread may
// count at most 255 values, which the host guarantees through the grid size).
// Rewritten: the 256-bin kernel is a weighted bincount (float weights) with a runtime bin count.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define MERGE_THREADS 128
#define H64_THREADS 64
#define H64_BINS 64

// dynamic shared memory: (blockDim.x / 32) * bins values of T
template <typename T>
__device__ void bincount_partial(const long long *__restrict__ index, const T *__restrict__ weight,
                                 T *__restrict__ partial, int n, int bins)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ unsigned char hist_smem[];
    T *s_hist = reinterpret_cast<T *>(hist_smem);
    T *s_warp_hist = s_hist + (threadIdx.x >> 5) * bins;
    const int warps = blockDim.x >> 5;
    for (int i = threadIdx.x; i < warps * bins; i += blockDim.x)
        s_hist[i] = T(0);
    cg::sync(cta);
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n; pos += blockDim.x * gridDim.x)
        atomicAdd(s_warp_hist + index[pos], weight[pos]);
    cg::sync(cta);
    for (int bin = threadIdx.x; bin < bins; bin += blockDim.x) {
        T sum = T(0);
        for (int w = 0; w < warps; ++w)
            sum += s_hist[bin + w * bins];
        partial[blockIdx.x * bins + bin] = sum;
    }
}

// one block per bin: the bin's partial sums over all blocks, a shared-memory tree
template <typename T>
__device__ void bincount_merge(T *__restrict__ hist, const T *__restrict__ partial, int count, int bins)
{
    cg::thread_block cta = cg::this_thread_block();
    T sum = T(0);
    for (int i = threadIdx.x; i < count; i += MERGE_THREADS)
        sum += partial[blockIdx.x + i * bins];
    __shared__ T data[MERGE_THREADS];
    data[threadIdx.x] = sum;
    for (int stride = MERGE_THREADS / 2; stride > 0; stride >>= 1) {
        cg::sync(cta);
        if (threadIdx.x < stride)
            data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        hist[blockIdx.x] = data[0];
}

// 64 bins of the low six bits of each byte; partial[block][bin]
extern "C" __global__ void histogram64(unsigned int *__restrict__ partial, const unsigned char *__restrict__ data, int n)
{
    __shared__ unsigned char s_Hist[H64_THREADS * H64_BINS];
    unsigned int *s_words = reinterpret_cast<unsigned int *>(s_Hist);
#pragma unroll
    for (int j = 0; j < H64_BINS / 4; j++)
        s_words[threadIdx.x + j * H64_THREADS] = 0;
    __syncthreads();
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n; pos += blockDim.x * gridDim.x)
        s_Hist[(data[pos] & 63) * H64_THREADS + threadIdx.x]++;
    __syncthreads();
    if (threadIdx.x < H64_BINS) {
        unsigned int sum = 0;
        // start at a different column in each thread, as the sample does against bank conflicts
        for (int i = 0; i < H64_THREADS; i++)
            sum += s_Hist[threadIdx.x * H64_THREADS + ((i + threadIdx.x) % H64_THREADS)];
        partial[blockIdx.x * H64_BINS + threadIdx.x] = sum;
    }
}

extern "C" __global__ void histogram64_merge(unsigned int *__restrict__ hist, const unsigned int *__restrict__ partial, int count)
{
    for (int bin = threadIdx.x; bin < H64_BINS; bin += blockDim.x) {
        unsigned int sum = 0;
        for (int b = 0; b < count; ++b)
            sum += partial[b * H64_BINS + bin];
        hist[bin] = sum;
    }
}

extern "C" __global__ void bincount_partial_f32(const long long *index, const float *weight, float *partial, int n, int bins)
{
    bincount_partial<float>(index, weight, partial, n, bins);
}

extern "C" __global__ void bincount_partial_f64(const long long *index, const double *weight, double *partial, int n, int bins)
{
    bincount_partial<double>(index, weight, partial, n, bins);
}

extern "C" __global__ void bincount_merge_f32(float *hist, const float *partial, int count, int bins)
{
    bincount_merge<float>(hist, partial, count, bins);
}

extern "C" __global__ void bincount_merge_f64(double *hist, const double *partial, int count, int bins)
{
    bincount_merge<double>(hist, partial, count, bins);
}
