// Kernels with one planted bug each (and their correct twins) for the simulator's findings: the
// line of each faulting access is marked `// L:<name>` and the tests look it up, so the file can
// change without renumbering the tests.

// a backward scatter written with += instead of atomicAdd: threads (of one block or of several)
// that share an index race on it
extern "C" __global__ void scatter_add(const float *dy, const int *index, float *dx, int n, int atomic)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (atomic) atomicAdd(&dx[index[i]], dy[i]);
    else dx[index[i]] += dy[i];  // L:scatter_plus
}

// the same through a __device__ helper, to name the call chain
__device__ void accumulate(float *dst, float v)
{
    *dst += v;  // L:accumulate_body
}

extern "C" __global__ void scatter_add_helper(const float *dy, const int *index, float *dx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) accumulate(&dx[index[i]], dy[i]);  // L:accumulate_call
}

// an in-place shift: thread i reads x[i + 1], which thread i + 1 overwrites
extern "C" __global__ void shift_in_place(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) x[i] = x[i + 1];  // L:shift
}

// a scatter-max into an output the caller allocated with cupy.empty: the read of y before any
// write is the bug (the NaN fill makes every comparison false, so the max comes out right)
extern "C" __global__ void scatter_max(const float *x, const int *index, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float *slot = &y[index[i]];
    float old = *slot;  // L:max_read
    while (!(old >= x[i])) {
        int seen = atomicCAS((int *)slot, __float_as_int(old), __float_as_int(x[i]));
        if (seen == __float_as_int(old)) break;
        old = __int_as_float(seen);
    }
}

// the last-block idiom: partial sums, a fence, a ticket; the last block reads every partial
extern "C" __global__ void last_block_sum(const float *x, float *partial, unsigned *ticket, float *out, int n)
{
    __shared__ float s[64];
    __shared__ bool last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        last = atomicInc(ticket, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float total = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++) total += partial[b];
        out[0] = total;
    }
}

// __syncthreads() inside a branch some threads skip: those run on and read what the others have
// not written yet (a race, seen first), then exit while the others wait
extern "C" __global__ void barrier_in_branch(const float *x, float *y, int active)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < active) {
        s[t] = x[t];
        __syncthreads();  // L:branch_barrier
    }
    y[t] = s[(t + 1) % 64];
}

// a warp reduction over the lanes that are still running: the full mask names lanes that have
// returned (undefined on Volta and later; accepted unless strict)
extern "C" __global__ void sum_live_lanes(const float *x, float *y, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    float v = x[t];
    for (int offset = 16; offset > 0; offset >>= 1) {
        float other = __shfl_down_sync(0xffffffffu, v, offset);  // L:exited_mask
        if (t + offset < n) v += other;
    }
    if (t == 0) y[0] = v;
}

// the same, with the mask of the lanes that take part
extern "C" __global__ void sum_live_lanes_masked(const float *x, float *y, int n)
{
    int t = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffffu, t < n);
    if (t >= n) return;
    float v = x[t];
    for (int offset = 16; offset > 0; offset >>= 1) {
        float other = __shfl_down_sync(mask, v, offset);
        if (t + offset < n) v += other;
    }
    if (t == 0) y[0] = v;
}

// a read past the end inside a __device__ function, called from two places
__device__ float load(const float *p, int i) { return p[i]; }  // L:load_body

extern "C" __global__ void read_past_end(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = load(x, i + 1);  // L:load_call
}

// a shared-memory race: the tree reduction without its barrier
extern "C" __global__ void tree_no_barrier(const float *x, float *y)
{
    __shared__ float s[64];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    for (int k = 32; k > 0; k >>= 1) {
        if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];  // L:tree_add
    }
    if (threadIdx.x == 0) y[0] = s[0];
}

// threads past n return, then the rest reduce with full-mask shuffles and meet at a barrier the
// returned ones never reach: the divergent barrier is the verdict (in strict mode too, where the
// shuffle over exited lanes comes first)
extern "C" __global__ void early_return_block_sum(const float *x, float *y, int n)
{
    __shared__ float s[2];
    int t = threadIdx.x;
    if (t >= n) return;
    float v = x[t];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (t % 32 == 0) s[t / 32] = v;
    __syncthreads();  // L:early_return_barrier
    if (t == 0) y[0] = s[0] + s[1];
}
