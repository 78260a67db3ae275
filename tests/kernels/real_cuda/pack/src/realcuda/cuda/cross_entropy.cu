// Fused softmax + cross-entropy + logits gradient, a block per row.
// Ported (structure and maths, rewritten) from karpathy/llm.c dev/cuda/classifier_fused.cu:
// prepare_softmax_blockwide (online max/sum over the row walked backwards, cg::reduce in each
// warp, then across warps through __shared__ shared_maxval[WARP_SIZE] / shared_sumval[WARP_SIZE])
// and fused_classifier_kernel3 (loss = -log p[target], dlogits = (p - 1[target]) * dloss), plus
// the float4 loads of prepare_softmax_blockwide / fused_classifier_kernel2, which need the row
// stride P to be a multiple of 4 (llm.c pads the vocabulary). Rewritten for float and double.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

constexpr int WARP_SIZE = 32;

template <typename T>
struct SoftmaxParams {
    T scale;
    T offset;
};

template <typename T>
__device__ SoftmaxParams<T> block_softmax_params(cg::thread_block_tile<32> &warp, T thread_max, T thread_sum)
{
    __shared__ T shared_maxval[WARP_SIZE];
    __shared__ T shared_sumval[WARP_SIZE];
    const int num_warps = blockDim.x / WARP_SIZE;
    const int warp_id = threadIdx.x / WARP_SIZE;
    const int lane_id = threadIdx.x % WARP_SIZE;
    T warp_max = cg::reduce(warp, thread_max, cg::greater<T>{});
    if (lane_id == 0) shared_maxval[warp_id] = warp_max;
    __syncthreads();
    warp_max = (lane_id < num_warps) ? shared_maxval[lane_id] : T(-INFINITY);
    T block_max = cg::reduce(warp, warp_max, cg::greater<T>{});
    thread_sum *= exp(thread_max - block_max);
    T warp_sum = cg::reduce(warp, thread_sum, cg::plus<T>{});
    if (lane_id == 0) shared_sumval[warp_id] = warp_sum;
    __syncthreads();
    warp_sum = (lane_id < num_warps) ? shared_sumval[lane_id] : T(0);
    T block_sum = cg::reduce(warp, warp_sum, cg::plus<T>{});
    return SoftmaxParams<T>{T(1) / block_sum, block_max};
}

template <typename T>
__device__ __forceinline__ void online_push(T v, T &thread_max, T &thread_sum)
{
    T old_max = thread_max;
    thread_max = thread_max > v ? thread_max : v;
    thread_sum *= exp(old_max - thread_max);
    thread_sum += exp(v - thread_max);
}

template <typename T>
__device__ void fused_classifier(T *dlogits, T *losses, const T *logits, const T *dlosses, const int *targets,
                                 int V, int P, int write_dlogits)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    long long idx = blockIdx.x;
    int ix = targets[idx];
    const T *x = logits + idx * P;
    T thread_max = T(-INFINITY), thread_sum = T(0);
    // backwards, so the second pass finds the row's start still in cache
    for (int i = V + threadIdx.x - blockDim.x; i >= 0; i -= blockDim.x)
        online_push(x[i], thread_max, thread_sum);
    SoftmaxParams<T> sp = block_softmax_params(warp, thread_max, thread_sum);
    if (threadIdx.x == 0)
        losses[idx] = -log(exp(x[ix] - sp.offset) * sp.scale);
    if (!write_dlogits) return;
    T dloss = dlosses[idx];
    for (int i = threadIdx.x; i < V; i += blockDim.x) {
        T prob = exp(x[i] - sp.offset) * sp.scale;
        T indicator = i == ix ? T(1) : T(0);
        dlogits[idx * P + i] = (prob - indicator) * dloss;
    }
}

// float rows read as float4: P % 4 == 0, the tail of the last quad (beyond V) skipped
__device__ __forceinline__ float vec_at(const float4 &v, int k) { return reinterpret_cast<const float *>(&v)[k]; }

__device__ void fused_classifier_vec4(float *dlogits, float *losses, const float *logits, const float *dlosses,
                                      const int *targets, int V, int P, int write_dlogits)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    long long idx = blockIdx.x;
    int ix = targets[idx];
    const float4 *x4 = reinterpret_cast<const float4 *>(logits + idx * P);
    const int quads = (V + 3) / 4;
    float thread_max = -INFINITY, thread_sum = 0.0f;
    for (int i = quads + threadIdx.x - blockDim.x; i >= 0; i -= blockDim.x) {
        float4 v4 = x4[i];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            if (i * 4 + k >= V) continue;
            online_push(vec_at(v4, k), thread_max, thread_sum);
        }
    }
    SoftmaxParams<float> sp = block_softmax_params(warp, thread_max, thread_sum);
    if (threadIdx.x == 0)
        losses[idx] = -logf(expf(logits[idx * P + ix] - sp.offset) * sp.scale);
    if (!write_dlogits) return;
    float dloss = dlosses[idx];
    for (int i = threadIdx.x; i < quads; i += blockDim.x) {
        float4 v4 = x4[i];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            int element = i * 4 + k;
            if (element >= V) break;
            float prob = expf(vec_at(v4, k) - sp.offset) * sp.scale;
            dlogits[idx * P + element] = (prob - (element == ix ? 1.0f : 0.0f)) * dloss;
        }
    }
}

extern "C" __global__ void classifier_f32(float *dlogits, float *losses, const float *logits, const float *dlosses,
                                          const int *targets, int V, int P, int write_dlogits)
{
    fused_classifier<float>(dlogits, losses, logits, dlosses, targets, V, P, write_dlogits);
}

extern "C" __global__ void classifier_f64(double *dlogits, double *losses, const double *logits, const double *dlosses,
                                          const int *targets, int V, int P, int write_dlogits)
{
    fused_classifier<double>(dlogits, losses, logits, dlosses, targets, V, P, write_dlogits);
}

extern "C" __global__ void classifier_vec4_f32(float *dlogits, float *losses, const float *logits, const float *dlosses,
                                               const int *targets, int V, int P, int write_dlogits)
{
    fused_classifier_vec4(dlogits, losses, logits, dlosses, targets, V, P, write_dlogits);
}
