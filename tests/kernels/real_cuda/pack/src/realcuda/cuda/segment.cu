// Segment reductions over a CSR index pointer, and a scatter-max over a COO index.
// Ported (structure and maths, rewritten) from rusty1s/pytorch_scatter
// csrc/cuda/segment_csr_cuda.cu (segment_csr_kernel: TB lanes per row, __ldg of indptr, a
// __shfl_down_sync(FULL_MASK, ...) tree; segment_csr_broadcast_kernel: a thread per (row, k);
// gather_csr_kernel, the backward of a segment sum), csrc/cuda/scatter_cuda.cu (scatter_kernel:
// a thread per source element, an atomic into out) and csrc/cuda/atomics.cuh (a float max by an
// atomicCAS loop). out of scatter_max starts at the lowest value, empty segments end at 0.

#define FULL_MASK 0xffffffffu
#ifndef SEGMENT_TB
#define SEGMENT_TB 32
#endif

template <typename T, int TB>
__device__ void segment_sum_csr(const T *src, const long long *indptr, T *out, int N)
{
    int thread_idx = blockIdx.x * blockDim.x + threadIdx.x;
    int row_idx = thread_idx / TB;
    int lane_idx = thread_idx & (TB - 1);
    if (row_idx < N) {
        long long row_start = __ldg(indptr + row_idx);
        long long row_end = __ldg(indptr + row_idx + 1);
        T val = T(0);
        for (long long e = row_start + lane_idx; e < row_end; e += TB)
            val += src[e];
#pragma unroll
        for (int i = TB / 2; i > 0; i /= 2)
            val += __shfl_down_sync(FULL_MASK, val, i);
        if (lane_idx == 0)
            out[row_idx] = val;
    }
}

// K > 1 columns: one thread per (row, column), the row's entries in order
template <typename T>
__device__ void segment_sum_csr_broadcast(const T *src, const long long *indptr, T *out, int N, int K)
{
    int thread_idx = blockIdx.x * blockDim.x + threadIdx.x;
    int row_idx = thread_idx / K;
    int lane_idx = thread_idx % K;
    if (thread_idx < N * K) {
        long long row_start = __ldg(indptr + row_idx);
        long long row_end = __ldg(indptr + row_idx + 1);
        T val = T(0);
        for (long long e = row_start; e < row_end; e++)
            val += src[K * e + lane_idx];
        out[thread_idx] = val;
    }
}

// backward of the sum: each entry of a row gets the row's gradient
template <typename T>
__device__ void gather_csr(const T *grad_out, const long long *indptr, T *grad_src, int N, int K)
{
    int thread_idx = blockIdx.x * blockDim.x + threadIdx.x;
    int row_idx = thread_idx / K;
    int lane_idx = thread_idx % K;
    if (thread_idx < N * K) {
        long long row_start = __ldg(indptr + row_idx);
        long long row_end = __ldg(indptr + row_idx + 1);
        T val = grad_out[thread_idx];
        for (long long e = row_start; e < row_end; e++)
            grad_src[K * e + lane_idx] = val;
    }
}

__device__ __forceinline__ float atomic_max(float *address, float val)
{
    int *address_as_int = reinterpret_cast<int *>(address);
    int old = *address_as_int, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ __forceinline__ double atomic_max(double *address, double val)
{
    unsigned long long *address_as_ull = reinterpret_cast<unsigned long long *>(address);
    unsigned long long old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed, __double_as_longlong(fmax(val, __longlong_as_double(assumed))));
    } while (assumed != old);
    return __longlong_as_double(old);
}

template <typename T>
__device__ void scatter_max(const T *src, const long long *index, T *out, int E)
{
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < E; e += blockDim.x * gridDim.x)
        atomic_max(out + index[e], src[e]);
}

template <typename T>
__device__ void fill(T *out, T value, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = value;
}

// empty segments hold the lowest value after the scatter: make them 0
template <typename T>
__device__ void zero_untouched(T *out, T lowest, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        if (out[i] == lowest) out[i] = T(0);
}

#define SEGMENT_ENTRY(SUFFIX, T)                                                                              \
    extern "C" __global__ void segment_sum_##SUFFIX(const T *src, const long long *indptr, T *out, int N)    \
    {                                                                                                        \
        segment_sum_csr<T, SEGMENT_TB>(src, indptr, out, N);                                                 \
    }                                                                                                        \
    extern "C" __global__ void segment_sum_k_##SUFFIX(const T *src, const long long *indptr, T *out, int N,  \
                                                       int K)                                                \
    {                                                                                                        \
        segment_sum_csr_broadcast<T>(src, indptr, out, N, K);                                                \
    }                                                                                                        \
    extern "C" __global__ void gather_csr_##SUFFIX(const T *grad_out, const long long *indptr, T *grad_src,  \
                                                    int N, int K)                                            \
    {                                                                                                        \
        gather_csr<T>(grad_out, indptr, grad_src, N, K);                                                     \
    }                                                                                                        \
    extern "C" __global__ void scatter_max_##SUFFIX(const T *src, const long long *index, T *out, int E)     \
    {                                                                                                        \
        scatter_max<T>(src, index, out, E);                                                                  \
    }                                                                                                        \
    extern "C" __global__ void fill_##SUFFIX(T *out, T value, int n) { fill<T>(out, value, n); }             \
    extern "C" __global__ void zero_untouched_##SUFFIX(T *out, T lowest, int n)                              \
    {                                                                                                        \
        zero_untouched<T>(out, lowest, n);                                                                   \
    }

SEGMENT_ENTRY(f32, float)
SEGMENT_ENTRY(f64, double)
