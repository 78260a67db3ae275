// Kernels behind the simulator's fixes the outsider's packs led to (test_outsider_findings.py).
#include <cuda_fp16.h>

// a warp reduction through shared memory ordered by __syncwarp() (no mask argument)
extern "C" __global__ void syncwarp_sum(const float *x, float *y) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = x[t];
    s[t + 32] = x[t + 32];
    __syncwarp();
    float v = s[t];
    for (int k = 32; k > 0; k >>= 1) {
        v += s[t + k];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
    if (t == 0) y[0] = s[0];
}

// a shuffle between a store and another lane's load of shared memory orders nothing
extern "C" __global__ void shuffle_is_no_fence(float *y) {
    __shared__ float s[32];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    float v = __shfl_sync(0xffffffffu, (float)t, 0);
    y[t] = v + s[t ^ 1];
}

// mode 0: thread 0 zeroes the total with no barrier before everyone's atomicAdd;
// mode 1: thread 0 reads the total right after the atomics, with no barrier;
// mode 2: both with their barriers (right)
extern "C" __global__ void shared_total(const float *x, float *y, int mode) {
    __shared__ float total;
    if (threadIdx.x == 0) total = 0.0f;
    if (mode != 0) __syncthreads();
    atomicAdd(&total, x[threadIdx.x]);
    if (mode != 1) __syncthreads();
    if (threadIdx.x == 0) y[0] = total;
}

// a float4 load `offset` floats into x
extern "C" __global__ void load_float4(const float *x, float *y, long long offset) {
    float4 v = *reinterpret_cast<const float4 *>(x + offset);
    y[0] = v.x + v.y + v.z + v.w;
}

// a plain C++ conversion, and the intrinsic (which saturates as a GPU's cvt does)
extern "C" __global__ void to_int(const double *x, int *plain, int *intrinsic) {
    intrinsic[0] = __double2int_rz(x[0]);
    plain[0] = (int)x[0];
}

// an accumulator nobody zeroed
extern "C" __global__ void uninit_sum(const float *x, float *y, int n) {
    float acc;
    for (int i = 0; i < n; i++) acc += x[i];
    y[0] = acc;
}

extern "C" __global__ void double_to_half_bits(const double *x, unsigned short *bits) {
    bits[threadIdx.x] = __half_as_ushort(__double2half(x[threadIdx.x]));
}

// where each thread and block came in the order the simulator ran them
extern "C" __global__ void arrival(int *counter, int *thread_order, int *block_order) {
    int k = atomicAdd(&counter[0], 1);
    thread_order[k] = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) block_order[atomicAdd(&counter[1], 1)] = blockIdx.x;
}

// a float4 copy `offset` floats into x (the host compiler makes it one aligned 16-byte move)
extern "C" __global__ void copy_float4(const float *x, float *y, long long offset) {
    reinterpret_cast<float4 *>(y)[0] = *reinterpret_cast<const float4 *>(x + offset);
}
