/* opsdk/rows.cuh: the block reduction of the CUDA kernels opsdk.kernels.rows writes (a block
 * per row). Every thread of the block calls rows_reduce with its partial value; each gets the
 * block's sum (how 0), max (1) or min (2). Partials are doubles: sums accumulate in double for
 * float32 too, and a float's max or min is exact in double; a NaN wins a max or min (as NumPy's),
 * whichever side of the combination it is on. `red` is the kernel's __shared__ double[33] (or
 * more); blockDim.x must be a multiple of 32 (the adapters launch 256).
 */
#ifndef OPSDK_ROWS_CUH
#define OPSDK_ROWS_CUH

namespace opsdk {

__device__ __forceinline__ double rows_identity(int how) {
    double inf = __longlong_as_double(0x7ff0000000000000LL);
    return how == 0 ? 0.0 : how == 1 ? -inf : inf;
}

__device__ __forceinline__ double rows_combine(double a, double b, int how) {
    return how == 0 ? a + b : (how == 1 ? b > a : b < a) || b != b ? b : a;
}

__device__ __forceinline__ double rows_reduce(double v, int how, double *red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    for (int offset = 16; offset > 0; offset >>= 1)
        v = rows_combine(v, __shfl_down_sync(0xffffffffu, v, offset), how);
    __syncthreads();  /* red may still be read by the previous reduction */
    if (lane == 0) red[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < warps ? red[lane] : rows_identity(how);
        for (int offset = 16; offset > 0; offset >>= 1)
            v = rows_combine(v, __shfl_down_sync(0xffffffffu, v, offset), how);
        if (lane == 0) red[32] = v;
    }
    __syncthreads();
    return red[32];
}

}  /* namespace opsdk */

#endif
