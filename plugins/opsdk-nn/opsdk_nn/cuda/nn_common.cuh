// Shared helpers of the opsdk-nn CUDA kernels. NVRTC compiles these without the CUDA or C++
// standard headers, so only built-in types and math functions appear here.
#ifndef OPSDK_NN_COMMON_CUH
#define OPSDK_NN_COMMON_CUH

typedef long long nn_i64;

#define NN_FULL_MASK 0xffffffffu

// one grid-stride loop over [0, n)
#define NN_GRID_STRIDE(i, n)                                                            \
    for (nn_i64 i = (nn_i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n);             \
         i += (nn_i64)blockDim.x * gridDim.x)

__device__ __forceinline__ float nn_exp(float x) { return expf(x); }
__device__ __forceinline__ double nn_exp(double x) { return exp(x); }
__device__ __forceinline__ float nn_log(float x) { return logf(x); }
__device__ __forceinline__ double nn_log(double x) { return log(x); }
__device__ __forceinline__ float nn_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double nn_rsqrt(double x) { return rsqrt(x); }

template <typename T> __device__ __forceinline__ T nn_neg_inf();
template <> __device__ __forceinline__ float nn_neg_inf<float>() { return __int_as_float(0xff800000); }
template <> __device__ __forceinline__ double nn_neg_inf<double>() {
    return __longlong_as_double(0xfff0000000000000ULL);
}

// a > b ? a : b that lets a NaN through (fmax would drop it and hide a NaN row)
template <typename T> __device__ __forceinline__ T nn_max(T a, T b) { return (a > b || a != a) ? a : b; }

template <typename T> __device__ __forceinline__ T warp_sum(T v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(NN_FULL_MASK, v, offset);
    return v;
}

template <typename T> __device__ __forceinline__ T warp_max(T v) {
    for (int offset = 16; offset > 0; offset >>= 1) v = nn_max(v, __shfl_xor_sync(NN_FULL_MASK, v, offset));
    return v;
}

// Reductions over one row, done either by one warp (ROWS: lanes 0..31 of that warp) or by a
// whole block (BLOCK: warp shuffles, then the warps' results through shared memory). Every
// thread of the warp / block must call them, and every one gets the result.
template <typename T, bool BLOCK> struct RowReduce {
    __device__ static T sum(T v, T *scratch) {
        v = warp_sum(v);
        if (!BLOCK) return v;
        int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
        __syncthreads();  // scratch may still be read by the previous reduction
        if (lane == 0) scratch[warp] = v;
        __syncthreads();
        v = threadIdx.x < warps ? scratch[threadIdx.x] : T(0);
        if (warp == 0) v = warp_sum(v);
        if (threadIdx.x == 0) scratch[0] = v;
        __syncthreads();
        return scratch[0];
    }
    __device__ static T max(T v, T *scratch) {
        v = warp_max(v);
        if (!BLOCK) return v;
        int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
        __syncthreads();
        if (lane == 0) scratch[warp] = v;
        __syncthreads();
        v = threadIdx.x < warps ? scratch[threadIdx.x] : nn_neg_inf<T>();
        if (warp == 0) v = warp_max(v);
        if (threadIdx.x == 0) scratch[0] = v;
        __syncthreads();
        return scratch[0];
    }
};

// Which rows this thread works on, and its first column and column step within a row.
// ROWS: one warp per row, rows strided by the number of warps in the grid.
// BLOCK: one block per row, rows strided by the number of blocks.
template <bool BLOCK> struct RowLayout {
    nn_i64 first_row, row_step;
    int column, column_step;
    __device__ RowLayout() {
        if (BLOCK) {
            first_row = blockIdx.x;
            row_step = gridDim.x;
            column = threadIdx.x;
            column_step = blockDim.x;
        } else {
            nn_i64 thread = (nn_i64)blockIdx.x * blockDim.x + threadIdx.x;
            first_row = thread >> 5;
            row_step = ((nn_i64)gridDim.x * blockDim.x) >> 5;
            column = threadIdx.x & 31;
            column_step = 32;
        }
    }
};

// Shared scratch for block reductions: 32 values of the widest type, reused as either
#define NN_SCRATCH(T) __shared__ double scratch_raw_[32]; T *scratch = reinterpret_cast<T *>(scratch_raw_)

#endif
