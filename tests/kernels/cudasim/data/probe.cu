// Kernels the simulator's tests launch: each exercises one CUDA behaviour.

extern "C" __global__ void index3d(unsigned *out)
{
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned per = blockDim.x * blockDim.y * blockDim.z;
    unsigned i = b * per + t;
    out[4 * i + 0] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z;
    out[4 * i + 1] = blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z;
    out[4 * i + 2] = blockDim.x + 10 * blockDim.y + 100 * blockDim.z;
    out[4 * i + 3] = gridDim.x + 10 * gridDim.y + 100 * gridDim.z;
}

extern "C" __global__ void copy_unchecked(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i];
}

extern "C" __global__ void write_at(float *y, long long i) { if (threadIdx.x == 0) y[i] = 1.0f; }
extern "C" __global__ void read_at(const float *x, float *y, long long i) { if (threadIdx.x == 0) y[0] = x[i]; }

extern "C" __global__ void grid_stride_scale(const double *x, double *y, long long n, double a)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        y[i] = a * x[i];
}

// a block-wide tree reduction; `skip` leaves out the barrier after the store (0: correct,
// 1: no barrier after the store, 2: no barrier inside the loop)
extern "C" __global__ void block_sum(const float *x, float *out, int n, int skip)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = t < n ? x[blockIdx.x * blockDim.x + t] : 0.0f;
    if (skip != 1) __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        if (skip != 2) __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void shared_out_of_bounds(float *out)
{
    __shared__ float s[32];
    s[threadIdx.x] = 1.0f;  // launched with more than 32 threads
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void dynamic_shared(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void exit_before_barrier(float *out, int n)
{
    if ((int)threadIdx.x >= n) return;
    __syncthreads();
    out[threadIdx.x] = 1.0f;
}

extern "C" __global__ void divergent_barriers(float *out)
{
    if (threadIdx.x < 64) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1.0f;
}

extern "C" __global__ void barrier_votes(int *out)
{
    int p = threadIdx.x % 3 == 0;
    out[0] = __syncthreads_count(p);
    out[1] = __syncthreads_and(threadIdx.x < 1000);
    out[2] = __syncthreads_or(threadIdx.x == 5);
}

// mode 0 idx, 1 up, 2 down, 3 xor: out[lane] = value of the source lane (lane * 10 + 1)
extern "C" __global__ void shuffle(int *out, int mode, int arg, int width)
{
    int v = (int)threadIdx.x * 10 + 1;
    int r = 0;
    if (mode == 0) r = __shfl_sync(0xffffffffu, v, arg, width);
    if (mode == 1) r = __shfl_up_sync(0xffffffffu, v, (unsigned)arg, width);
    if (mode == 2) r = __shfl_down_sync(0xffffffffu, v, (unsigned)arg, width);
    if (mode == 3) r = __shfl_xor_sync(0xffffffffu, v, arg, width);
    out[threadIdx.x] = r;
}

extern "C" __global__ void shuffle_double(double *out)
{
    double v = threadIdx.x + 0.5;
    out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, v, 1);
}

extern "C" __global__ void warp_sum(const float *x, float *out, unsigned mask)
{
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(mask, v, o);
    if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}

extern "C" __global__ void warp_sum_after_exit(const float *x, float *out, int n)
{
    if ((int)threadIdx.x >= n) return;
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[0] = v;
}

extern "C" __global__ void shuffle_waits_for_barrier(float *out)
{
    float v = 1.0f;
    if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffffu, v, 1);
    else __syncthreads();
    out[threadIdx.x] = v;
}

extern "C" __global__ void votes(unsigned *out)
{
    int lane = threadIdx.x, pred = 0;
    unsigned r[9];
    r[0] = __ballot_sync(0xffffffffu, lane & 1);
    r[1] = __all_sync(0xffffffffu, lane < 32);
    r[2] = __any_sync(0xffffffffu, lane == 31);
    r[3] = __all_sync(0xffffffffu, lane < 31);
    r[4] = __match_any_sync(0xffffffffu, lane / 8);
    r[5] = __match_all_sync(0xffffffffu, 7, &pred);
    r[6] = pred;
    r[7] = __reduce_add_sync(0xffffffffu, (unsigned)lane);
    r[8] = (unsigned)__reduce_min_sync(0xffffffffu, lane - 3);
    if (lane == 0)
        for (int i = 0; i < 9; i++) out[i] = r[i];
}

extern "C" __global__ void active_in_branch(unsigned *out)
{
    if (threadIdx.x < 16) {
        unsigned m = __activemask();
        out[threadIdx.x] = m;
        out[32 + threadIdx.x] = __shfl_sync(m, (unsigned)threadIdx.x, 0);
    }
}

extern "C" __global__ void atomics(int *counter, float *total, unsigned *bits, int *lowest)
{
    atomicAdd(counter, 1);
    atomicAdd(total, 0.5f);
    atomicOr(bits, 1u << (threadIdx.x % 32));
    atomicMin(lowest, -(int)threadIdx.x);
}

extern "C" __global__ void shared_atomics(int *out)
{
    __shared__ int hist[4];
    if (threadIdx.x < 4) hist[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&hist[threadIdx.x % 4], 1);
    __syncthreads();
    if (threadIdx.x < 4) out[threadIdx.x] = hist[threadIdx.x];
}

extern "C" __global__ void divide(const int *a, int *out, int b) { out[threadIdx.x] = a[threadIdx.x] / b; }

extern "C" __global__ void asserts(const float *x) { assert(x[threadIdx.x] >= 0.0f); }

extern "C" __global__ void spin_forever(int *flag)
{
    while (atomicAdd(flag, 0) == 0) {
    }
}

// int arithmetic wraps at 2^32 on a GPU (and here: -fwrapv); unsigned built-ins too
extern "C" __global__ void int_products(int *out, int a, int b)
{
    out[0] = a * b;
    out[1] = (int)(blockIdx.x * 4294967295u);  // unsigned int: blockIdx.x * (2^32 - 1) wraps
}

extern "C" __global__ void takes_scalars(double *out, float f, double d, int i, long long l, unsigned char c, bool b)
{
    out[0] = f, out[1] = d, out[2] = i, out[3] = (double)l, out[4] = c, out[5] = b;
}

extern "C" __global__ void takes_half(const __half *x, __half *y, __half s)
{
    y[threadIdx.x] = __hmul(x[threadIdx.x], s);
}

extern "C" __global__ void maths(const float *x, float *out, const double *xd, double *outd)
{
    float v = x[threadIdx.x];
    double w = xd[threadIdx.x];
    out[8 * threadIdx.x + 0] = expf(v);
    out[8 * threadIdx.x + 1] = erff(v);
    out[8 * threadIdx.x + 2] = rsqrtf(v + 4.0f);
    out[8 * threadIdx.x + 3] = __expf(v);
    out[8 * threadIdx.x + 4] = __fdividef(v, 3.0f);
    out[8 * threadIdx.x + 5] = fmaf(v, v, 1.0f);
    out[8 * threadIdx.x + 6] = normcdff(v);
    out[8 * threadIdx.x + 7] = __int_as_float(__float_as_int(v));
    outd[4 * threadIdx.x + 0] = exp(w);
    outd[4 * threadIdx.x + 1] = rsqrt(w + 4.0);
    outd[4 * threadIdx.x + 2] = erfinv(w / 4.0);
    outd[4 * threadIdx.x + 3] = (double)__float2int_rn((float)w * 2.5f);
}

template <typename T>
__global__ void axpy(const T *x, T *y, T a, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

extern "C" __global__ void printer(int tag) { if (threadIdx.x == 0 && blockIdx.x == 0) printf("probe says %d\n", tag); }

extern "C" __global__ void uninit_output(float *y, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n - 1) y[i] = 1.0f;  // the last element is never written
}

__device__ int deep(int depth)
{
    volatile char pad[4096];
    pad[0] = (char)depth;
    return depth > 0 ? deep(depth - 1) + pad[0] : pad[0];
}

extern "C" __global__ void recursion(int *out, int depth) { out[0] = deep(depth); }

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// a block reduction written with cooperative groups: tiles of 32 reduce, then the warps' sums
extern "C" __global__ void cg_sum(const float *x, float *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float warps[32];
    float v = cg::reduce(tile, x[block.thread_rank()], cg::plus<float>());
    if (tile.thread_rank() == 0) warps[tile.meta_group_rank()] = v;
    block.sync();
    if (block.thread_rank() == 0) {
        float total = 0.0f;
        for (unsigned i = 0; i < tile.meta_group_size(); i++) total += warps[i];
        out[0] = total;
    }
}
