// Scaled, masked softmax over rows of at most 1024 elements: one warp (or a part of one) per row.
// Ported (structure and maths, rewritten) from NVIDIA/Megatron-LM
// megatron/fused_kernels/scaled_masked_softmax.h: scaled_masked_softmax_warp_forward/_backward,
// warp_reduce over WARP_SIZE lanes with __shfl_xor_sync, copy_vector for 4-element loads,
// masked elements set to -10000 (a fully masked row becomes uniform), and the launch rule:
// WARP_SIZE = min(next power of two, 32) lanes per row, 128 threads per block.
#include <cuda_fp16.h>

template <typename T> __device__ __forceinline__ T neg_inf() { return -INFINITY; }

template <typename T, int N> __device__ __forceinline__ void copy_vector(T *dst, const T *src)
{
#pragma unroll
    for (int i = 0; i < N; ++i) dst[i] = src[i];
}

// four mask bytes in one 4-byte load, as Megatron's copy_vector<uint8_t, 4>
template <> __device__ __forceinline__ void copy_vector<unsigned char, 4>(unsigned char *dst, const unsigned char *src)
{
    *reinterpret_cast<uchar4 *>(dst) = *reinterpret_cast<const uchar4 *>(src);
}

template <typename T> struct Add { __device__ __forceinline__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct Max { __device__ __forceinline__ T operator()(T a, T b) const { return a < b ? b : a; } };

template <typename acc_t, int WARP_BATCH, int WARP_SIZE, template <typename> class ReduceOp>
__device__ __forceinline__ void warp_reduce(acc_t *sum)
{
    ReduceOp<acc_t> r;
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
#pragma unroll
        for (int i = 0; i < WARP_BATCH; ++i) {
            acc_t b = __shfl_xor_sync(0xffffffffu, sum[i], offset, WARP_SIZE);
            sum[i] = r(sum[i], b);
        }
    }
}

template <typename input_t, typename acc_t, int LOG2_ELEMENTS>
__global__ void masked_softmax_fwd(input_t *dst, const input_t *src, const unsigned char *mask, acc_t scale,
                                   int rows, int element_count)
{
    constexpr int NEXT_POW2 = 1 << LOG2_ELEMENTS;
    constexpr int WARP_SIZE = NEXT_POW2 < 32 ? NEXT_POW2 : 32;
    constexpr int WARP_ITERATIONS = NEXT_POW2 / WARP_SIZE;
    constexpr int WARP_BATCH = NEXT_POW2 <= 128 ? 2 : 1;
    constexpr int ELEMENTS_PER_LDG_STG = WARP_ITERATIONS < 4 ? 1 : 4;

    int first_batch = (blockDim.y * blockIdx.x + threadIdx.y) * WARP_BATCH;
    int local_batches = rows - first_batch;
    if (local_batches > WARP_BATCH) local_batches = WARP_BATCH;
    int local_idx = threadIdx.x;
    long long offset = (long long)first_batch * element_count + ELEMENTS_PER_LDG_STG * local_idx;
    src += offset;
    dst += offset;
    mask += offset;

    acc_t elements[WARP_BATCH][WARP_ITERATIONS];
    input_t temp_data[ELEMENTS_PER_LDG_STG];
    unsigned char temp_mask[ELEMENTS_PER_LDG_STG];
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
        int batch_element_count = (i >= local_batches) ? 0 : element_count;
#pragma unroll
        for (int it = 0; it < WARP_ITERATIONS; it += ELEMENTS_PER_LDG_STG) {
            int element_index = ELEMENTS_PER_LDG_STG * local_idx + it * WARP_SIZE;
            if (element_index < batch_element_count) {
                long long at = (long long)i * element_count + it * WARP_SIZE;
                copy_vector<input_t, ELEMENTS_PER_LDG_STG>(temp_data, src + at);
                copy_vector<unsigned char, ELEMENTS_PER_LDG_STG>(temp_mask, mask + at);
#pragma unroll
                for (int e = 0; e < ELEMENTS_PER_LDG_STG; ++e)
                    elements[i][it + e] = temp_mask[e] != 1 ? static_cast<acc_t>(temp_data[e]) * scale : acc_t(-10000.0);
            } else {
#pragma unroll
                for (int e = 0; e < ELEMENTS_PER_LDG_STG; ++e) elements[i][it + e] = neg_inf<acc_t>();
            }
        }
    }

    acc_t max_value[WARP_BATCH];
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
        max_value[i] = elements[i][0];
#pragma unroll
        for (int it = 1; it < WARP_ITERATIONS; ++it)
            max_value[i] = max_value[i] > elements[i][it] ? max_value[i] : elements[i][it];
    }
    warp_reduce<acc_t, WARP_BATCH, WARP_SIZE, Max>(max_value);

    acc_t sum[WARP_BATCH] = {acc_t(0)};
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
#pragma unroll
        for (int it = 0; it < WARP_ITERATIONS; ++it) {
            elements[i][it] = exp(elements[i][it] - max_value[i]);
            sum[i] += elements[i][it];
        }
    }
    warp_reduce<acc_t, WARP_BATCH, WARP_SIZE, Add>(sum);

#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
        if (i >= local_batches) break;
#pragma unroll
        for (int it = 0; it < WARP_ITERATIONS; it += ELEMENTS_PER_LDG_STG) {
            int element_index = ELEMENTS_PER_LDG_STG * local_idx + it * WARP_SIZE;
            if (element_index < element_count) {
                input_t out[ELEMENTS_PER_LDG_STG];
#pragma unroll
                for (int e = 0; e < ELEMENTS_PER_LDG_STG; ++e) out[e] = static_cast<input_t>(elements[i][it + e] / sum[i]);
                copy_vector<input_t, ELEMENTS_PER_LDG_STG>(dst + (long long)i * element_count + it * WARP_SIZE, out);
            }
        }
    }
}

// dx = scale * y * (dy - sum(dy * y))
template <typename input_t, typename acc_t, int LOG2_ELEMENTS>
__global__ void masked_softmax_bwd(input_t *grad_input, const input_t *grad, const input_t *output, acc_t scale,
                                   int rows, int element_count)
{
    constexpr int NEXT_POW2 = 1 << LOG2_ELEMENTS;
    constexpr int WARP_SIZE = NEXT_POW2 < 32 ? NEXT_POW2 : 32;
    constexpr int WARP_ITERATIONS = NEXT_POW2 / WARP_SIZE;
    constexpr int WARP_BATCH = NEXT_POW2 <= 128 ? 2 : 1;

    int first_batch = (blockDim.y * blockIdx.x + threadIdx.y) * WARP_BATCH;
    int local_batches = rows - first_batch;
    if (local_batches > WARP_BATCH) local_batches = WARP_BATCH;
    int local_idx = threadIdx.x;
    long long offset = (long long)first_batch * element_count + local_idx;
    grad += offset;
    output += offset;
    grad_input += offset;

    acc_t gy[WARP_BATCH][WARP_ITERATIONS];
    acc_t y[WARP_BATCH][WARP_ITERATIONS];
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
        int batch_element_count = (i >= local_batches) ? 0 : element_count;
#pragma unroll
        for (int it = 0; it < WARP_ITERATIONS; ++it) {
            int element_index = local_idx + it * WARP_SIZE;
            if (element_index < batch_element_count) {
                y[i][it] = static_cast<acc_t>(output[i * element_count + it * WARP_SIZE]);
                gy[i][it] = static_cast<acc_t>(grad[i * element_count + it * WARP_SIZE]) * y[i][it];
            } else {
                y[i][it] = acc_t(0);
                gy[i][it] = acc_t(0);
            }
        }
    }
    acc_t sum[WARP_BATCH];
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
        sum[i] = gy[i][0];
#pragma unroll
        for (int it = 1; it < WARP_ITERATIONS; ++it) sum[i] += gy[i][it];
    }
    warp_reduce<acc_t, WARP_BATCH, WARP_SIZE, Add>(sum);
#pragma unroll
    for (int i = 0; i < WARP_BATCH; ++i) {
        if (i >= local_batches) break;
#pragma unroll
        for (int it = 0; it < WARP_ITERATIONS; ++it) {
            int element_index = local_idx + it * WARP_SIZE;
            if (element_index < element_count)
                grad_input[i * element_count + it * WARP_SIZE] =
                    static_cast<input_t>(scale * (gy[i][it] - y[i][it] * sum[i]));
        }
    }
}
