// The bodies of three realcuda kernels as plain CPU loops over blocks and threads, compiled with
// g++ -O2: what the simulator's time per launch is compared with (bench_native.py).
// Each __syncthreads() ends a loop over the block's threads; a warp shuffle is done for the 32
// lanes at once on an array of their registers. Same arithmetic, same order, as the .cu files.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static float gelu(float x)
{
    float cube = 0.044715f * x * x * x;
    return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + cube)));
}

// bias_gelu_f32: grid-stride loop over float4 quads, then the remainder
static void bias_gelu(const float *x, const float *bias, float *y, int m, int n, int grid, int block)
{
    const int total = m * n, quads = total / 4, stride = grid * block;
    for (int b = 0; b < grid; ++b)
        for (int t = 0; t < block; ++t) {
            for (int q = b * block + t; q < quads; q += stride) {
                const int base = 4 * q;
                for (int k = 0; k < 4; ++k) y[base + k] = gelu(x[base + k] + bias[(base + k) % n]);
            }
            for (int id = 4 * quads + b * block + t; id < total; id += stride) y[id] = gelu(x[id] + bias[id % n]);
        }
}

static void warp_reduce_sum(float *v)   // v[32]: __shfl_xor_sync butterfly, every lane gets the sum
{
    float tmp[32];
    for (int mask = 16; mask > 0; mask >>= 1) {
        for (int l = 0; l < 32; ++l) tmp[l] = v[l] + v[l ^ mask];
        std::memcpy(v, tmp, sizeof(tmp));
    }
}

// rms_norm_fwd_f32: a block per row, block_reduce_sum (warp shuffles, shared[32], a barrier)
static void rms_norm(const float *x, const float *w, float *y, float *rstd, float eps, int rows, int n, int block)
{
    std::vector<float> val(block);
    float shared[32];
    const int warps = (block + 31) / 32;
    for (int row = 0; row < rows; ++row) {
        const float *xr = x + (long long)row * n;
        for (int t = 0; t < block; ++t) {
            float s = 0.0f;
            for (int i = t; i < n; i += block) s += xr[i] * xr[i];
            val[t] = s;
        }
        for (int wi = 0; wi < warps; ++wi) warp_reduce_sum(&val[32 * wi]);
        for (int wi = 0; wi < warps; ++wi) shared[wi] = val[32 * wi];          // lane 0 of each warp
        // __syncthreads(); every warp reduces the warp totals again
        for (int t = 0; t < block; ++t) val[t] = (t < block / 32.f) ? shared[t & 31] : 0.0f;
        for (int wi = 0; wi < warps; ++wi) warp_reduce_sum(&val[32 * wi]);
        const float s_variance = 1.0f / sqrtf(val[0] / n + eps);                  // thread 0
        rstd[row] = s_variance;
        // __syncthreads()
        for (int t = 0; t < block; ++t)
            for (int i = t; i < n; i += block) y[(long long)row * n + i] = xr[i] * s_variance * w[i];
    }
}

// matmul_tiled<float, 16>: As / Bs tiles, a loop over the block's threads between barriers
static void matmul(float *C, const float *A, const float *B, int M, int K, int N)
{
    const int BS = 16;
    float As[BS][BS], Bs[BS][BS], Csub[BS][BS];
    for (int by = 0; by < (M + BS - 1) / BS; ++by)
        for (int bx = 0; bx < (N + BS - 1) / BS; ++bx) {
            std::memset(Csub, 0, sizeof(Csub));
            for (int k0 = 0; k0 < K; k0 += BS) {
                for (int ty = 0; ty < BS; ++ty)
                    for (int tx = 0; tx < BS; ++tx) {
                        const int row = by * BS + ty, col = bx * BS + tx;
                        As[ty][tx] = (row < M && k0 + tx < K) ? A[(long long)row * K + k0 + tx] : 0.0f;
                        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(long long)(k0 + ty) * N + col] : 0.0f;
                    }
                for (int ty = 0; ty < BS; ++ty)
                    for (int tx = 0; tx < BS; ++tx)
                        for (int k = 0; k < BS; ++k) Csub[ty][tx] += As[ty][k] * Bs[k][tx];
            }
            for (int ty = 0; ty < BS; ++ty)
                for (int tx = 0; tx < BS; ++tx) {
                    const int row = by * BS + ty, col = bx * BS + tx;
                    if (row < M && col < N) C[(long long)row * N + col] = Csub[ty][tx];
                }
        }
}

// usage: kernels_native KERNEL A B [C] REPEATS   -> prints "ms_per_launch checksum"
int main(int argc, char **argv)
{
    if (argc < 5) return 2;
    const char *k = argv[1];
    const int a = atoi(argv[2]), b = atoi(argv[3]), c = atoi(argv[4]), reps = argc > 5 ? atoi(argv[5]) : 5;
    std::vector<float> x((size_t)a * b + (size_t)b * c + 8), w(b + 8), y((size_t)a * b + (size_t)a * c + 8), r(a + 8);
    for (size_t i = 0; i < x.size(); ++i) x[i] = (float)((i * 2654435761u) % 1000) / 250.0f - 2.0f;
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.5f + (float)(i % 7) / 7.0f;
    double best = 1e30;
    for (int rep = 0; rep < reps; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        if (!strcmp(k, "bias_gelu")) bias_gelu(x.data(), w.data(), y.data(), a, b, 64, 256);
        else if (!strcmp(k, "rms_norm")) rms_norm(x.data(), w.data(), y.data(), r.data(), 1e-6f, a, b, c);
        else if (!strcmp(k, "matmul")) matmul(y.data(), x.data(), x.data() + (size_t)a * b, a, b, c);
        else return 2;
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (ms < best) best = ms;
    }
    double sum = 0;
    for (float v : y) sum += v;
    printf("%.4f %.6g\n", best, sum);
    return 0;
}
