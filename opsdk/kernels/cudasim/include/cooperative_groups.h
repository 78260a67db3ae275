// cooperative_groups.h for the opsdk CUDA simulator: the block and warp-tile groups most kernels
// use (this_thread_block, tiled_partition<N>, their sync, shuffles and votes), built on the
// simulator's barriers and warp collectives, so the same diagnoses apply. Grid-wide groups
// (this_grid().sync()) are not modelled: blocks run one after another.
#pragma once

namespace cooperative_groups {

class thread_block {
  public:
    void sync() const { __syncthreads(); }
    unsigned long long size() const { return (unsigned long long)blockDim.x * blockDim.y * blockDim.z; }
    unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const {
        return threadIdx.x + (unsigned long long)blockDim.x * (threadIdx.y + (unsigned long long)blockDim.y * threadIdx.z);
    }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }
inline void sync(const thread_block &g) { g.sync(); }

// a warp-sized or smaller tile: lanes [k N, (k + 1) N) of one warp
template <unsigned int N> class thread_block_tile {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tile sizes are powers of two up to 32");

    static unsigned int lane() { return (unsigned int)(this_thread_block().thread_rank() % 32); }

  public:
    static constexpr unsigned int num_threads() { return N; }
    static constexpr unsigned int size() { return N; }
    unsigned int thread_rank() const { return lane() % N; }
    unsigned int meta_group_rank() const { return (unsigned int)(this_thread_block().thread_rank() / N); }
    unsigned int meta_group_size() const { return (unsigned int)((this_thread_block().size() + N - 1) / N); }
    unsigned int build_mask() const {
        unsigned int ones = N == 32 ? 0xffffffffu : ((1u << N) - 1);
        return ones << (lane() & ~(N - 1));
    }
    void sync() const { __syncwarp(build_mask()); }
    template <class T> T shfl(T var, int src) const { return __shfl_sync(build_mask(), var, src, N); }
    template <class T> T shfl_down(T var, unsigned int delta) const { return __shfl_down_sync(build_mask(), var, delta, N); }
    template <class T> T shfl_up(T var, unsigned int delta) const { return __shfl_up_sync(build_mask(), var, delta, N); }
    template <class T> T shfl_xor(T var, int mask) const { return __shfl_xor_sync(build_mask(), var, mask, N); }
    int any(int pred) const { return __any_sync(build_mask(), pred); }
    int all(int pred) const { return __all_sync(build_mask(), pred); }
    unsigned int ballot(int pred) const { return __ballot_sync(build_mask(), pred) >> (lane() & ~(N - 1)); }
};

template <unsigned int N> inline thread_block_tile<N> tiled_partition(const thread_block &) {
    return thread_block_tile<N>();
}
template <unsigned int N> inline void sync(const thread_block_tile<N> &g) { g.sync(); }

template <class T> struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};

// cg::reduce over a tile: every lane gets the result
template <unsigned int N, class T, class Op> inline T reduce(const thread_block_tile<N> &g, T value, Op op) {
    for (unsigned int offset = N / 2; offset > 0; offset /= 2) value = op(value, g.shfl_xor(value, (int)offset));
    return value;
}

}  // namespace cooperative_groups
