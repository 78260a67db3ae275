// Kernels for the simulator's fast paths (test_fast_paths.py): each path must find what the
// general one finds. The line of each access a test expects in a report is marked `// L:<name>`.

// shared memory written as whole words, read as bytes (and the reverse), with or without the
// barrier that orders them: a word's four byte shadows kept as one must come apart again. The
// first writes are ordered before everything by a barrier; the second ones race with the other
// thread's read when there is no second barrier (reported at the read or at the write, whichever
// the schedule runs last)
extern "C" __global__ void word_then_byte(int *out, int barrier)
{
    __shared__ unsigned int words[64];
    unsigned char *bytes = reinterpret_cast<unsigned char *>(words);
    int t = threadIdx.x;
    words[t] = 0;
    __syncthreads();
    words[t] = 0x01020304u * (t + 1);  // L:word_write
    if (barrier) __syncthreads();
    out[t] = bytes[(t ^ 1) * 4 + 2];  // L:byte_read
}

extern "C" __global__ void bytes_then_word(unsigned int *out, int barrier)
{
    __shared__ unsigned int words[16];
    unsigned char *bytes = reinterpret_cast<unsigned char *>(words);
    int t = threadIdx.x;  // 64 threads: one byte each
    bytes[t] = 0;
    __syncthreads();
    bytes[t] = (unsigned char)(t + 1);  // L:byte_write
    if (barrier) __syncthreads();
    if (t < 16) out[t] = words[(t + 1) % 16];  // L:word_read
}

// a word read whole by every thread, then written whole by one of them without a barrier
extern "C" __global__ void readers_then_writer(float *out)
{
    __shared__ float cell;
    if (threadIdx.x == 0) cell = 1.0f;
    __syncthreads();
    float v = cell;
    if (threadIdx.x == 37) cell = 2.0f;  // L:late_write
    out[threadIdx.x] = v;
}

// threads that exit at once beside threads that wait at barriers and shuffle, with arrays on
// their stacks: stacks are handed from exited threads to fresh ones
extern "C" __global__ void mixed_exits(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 64 >= 32) {  // whole warps leave at once
        if (i < n) y[i] = -x[i];
        return;
    }
    float local[16];
    for (int k = 0; k < 16; k++) local[k] = (i < n ? x[i] : 0.0f) * k;
    float v = 0.0f;
    for (int k = 0; k < 16; k++) v += local[(k * 7) % 16];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (i < n) y[i] = v;
}

// warp 1 spins (shuffling) until warp 0 raises a flag in shared memory: the warp that spins must
// let the other run
extern "C" __global__ void spin_on_flag(int *out)
{
    __shared__ int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    int warp = threadIdx.x / 32, spins = 0;
    if (warp == 1) {
        while (__shfl_sync(0xffffffffu, atomicAdd(&flag, 0), 0) == 0) spins++;
    } else if (warp == 0) {
        for (int k = 0; k < 300; k++) __syncwarp();
        if (threadIdx.x == 0) atomicExch(&flag, 1);
    }
    out[threadIdx.x] = spins > 0;
}

// many allocations at once, each read at its last element: the page-indexed lookup of the hot
// allocations must tell them apart, and still find the one past the end
extern "C" __global__ void gather8(const float *a0, const float *a1, const float *a2, const float *a3,
                                   const float *a4, const float *a5, const float *a6, const float *a7,
                                   float *out, int n, int past)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = a0[i] + a1[i] + a2[i] + a3[i] + a4[i] + a5[i] + a6[i] + a7[i];
    if (past && i == n - 1) v += a5[i + 1];  // L:past_end
    out[i] = v;
}

// global memory's atomic records are kept apart, for the allocations that see atomics: a plain
// store and an atomic of another thread still race, either way round, in a block or across blocks
// (reported at whichever of the two the schedule runs second)
extern "C" __global__ void atomics_then_store(int *x, int *done)
{
    atomicAdd(&x[0], 1);  // L:atomics_first
    if (blockIdx.x * blockDim.x + threadIdx.x == 37) x[0] = 0;  // L:store_after_atomics
    done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

extern "C" __global__ void store_then_atomics(int *x, int *done)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) x[1] = 5;  // L:store_first
    else atomicAdd(&x[1], 1);  // L:atomic_after_store
    done[i] = 1;
}

// the loop every atomicCAS update starts with a plain read: no race with the other threads' CAS
extern "C" __global__ void cas_max(int *x, const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int old = x[2];
    while (old < v[i]) {
        int seen = atomicCAS(&x[2], old, v[i]);
        if (seen == old) break;
        old = seen;
    }
}

// whole words of shared memory, each finding the shared-word fast path hands to the general one:
// what = 0 correct (a word per thread, a broadcast read after the barrier, dynamic memory), 1 a
// neighbour's word read while the neighbour writes it again (no barrier between), 2 a word no
// thread wrote, 3 a write of a word the other threads read (broadcast) without a barrier, 4 a
// read past the dynamic memory launched, 5 a plain read of a word other threads update atomically
extern "C" __global__ void shared_words(float *out, int what)
{
    __shared__ float cells[64];
    __shared__ int counter;
    extern __shared__ float dyn[];
    int t = threadIdx.x;
    if (t == 0) counter = 0;
    if (what != 2 || t != 5) cells[t] = (float)t;
    dyn[t] = 2.0f * t;
    __syncthreads();
    if (what == 1) cells[t] = (float)t;  // L:cell_write
    float v = cells[(t + 1) % 64] + dyn[(t + 3) % 64];  // L:cell_read
    if (what == 4) v += dyn[64 + t];  // L:dyn_past
    v += cells[0];  // L:broadcast
    if (what == 3 && t == 40) cells[0] = 1.0f;  // L:broadcast_write
    __syncthreads();
    if (what == 5) {
        atomicAdd(&counter, 1);  // L:count
        v += counter;  // L:count_read
    }
    out[t] = v;
}
