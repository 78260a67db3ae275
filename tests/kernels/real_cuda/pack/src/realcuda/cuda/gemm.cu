// C = A B with shared-memory tiles, after NVIDIA/cuda-samples
// Samples/0_Introduction/matrixMul/matrixMul.cu (MatrixMulCUDA<BLOCK_SIZE>: a BLOCK_SIZE x
// BLOCK_SIZE tile of A and of B per step in __shared__ As / Bs, __syncthreads after loading and
// after using them, #pragma unroll over the tile). Rewritten with bounds checks, so any
// M x K by K x N works (the sample needs multiples of the block size), for float and double.
// Launch: block (BLOCK_SIZE, BLOCK_SIZE), grid (ceil(N / BLOCK_SIZE), ceil(M / BLOCK_SIZE)).

template <typename T, int BLOCK_SIZE>
__global__ void matmul_tiled(T *C, const T *A, const T *B, int M, int K, int N)
{
    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = by * BLOCK_SIZE + ty;
    const int col = bx * BLOCK_SIZE + tx;
    T Csub = 0;
    for (int k0 = 0; k0 < K; k0 += BLOCK_SIZE) {
        __shared__ T As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ T Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(long long)row * K + k0 + tx] : T(0);
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(long long)(k0 + ty) * N + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(long long)row * N + col] = Csub;
}
