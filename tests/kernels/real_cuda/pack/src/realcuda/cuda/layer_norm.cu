// LayerNorm over the last axis with Welford statistics, forward and backward.
// Ported (structure and maths, rewritten) from NVIDIA/apex csrc/layer_norm_cuda_kernel.cu:
// cuWelfordOnlineSum / cuChanOnlineSum / cuWelfordMuSigma2 (per-thread Welford, a rotating
// warp shuffle, then a halving tree over the warps of the block in dynamic shared memory),
// cuApplyLayerNorm (rows strided over gridDim.y), cuComputeGradInput (two sums per row, the same
// halving tree), and the two-stage gamma/beta gradient (cuComputePartGradGammaBeta + final sum).
// Launch: block (32, 4), grid (1, rows); dynamic shared memory (4 + 2) * sizeof(U) for forward,
// 2 * 32 * (4 / 2) * sizeof(U) for dx.

template <typename U>
__device__ void welford_push(U x, U &mu, U &m2, U &count)
{
    count = count + U(1);
    U delta = x - mu;
    mu = mu + delta / count;
    m2 = m2 + delta * (x - mu);
}

template <typename U>
__device__ void welford_merge(U mu_b, U m2_b, U count_b, U &mu, U &m2, U &count)
{
    U delta = mu_b - mu;
    U n_a = count, n_b = count_b;
    count = count + count_b;
    if (count > U(0)) {
        U f_a = n_a / count, f_b = n_b / count;
        mu = f_a * mu + f_b * mu_b;
        m2 = m2 + m2_b + delta * delta * f_a * f_b * count;
    } else {
        mu = U(0);
        m2 = U(0);
    }
}

// mean and biased variance of row x[0..n) over the whole (32, blockDim.y) block
template <typename T, typename U>
__device__ void row_moments(const T *__restrict__ x, int n, U *buf, U &mu, U &var)
{
    U count = U(0), m2 = U(0);
    mu = U(0);
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    const int nthreads = blockDim.x * blockDim.y;
    for (int i = tid; i < n; i += nthreads)
        welford_push(static_cast<U>(__ldg(&x[i])), mu, m2, count);
    // rotate: after five steps every lane holds the statistics of its whole warp
    for (int step = 0; step < 5; ++step) {
        int src = (threadIdx.x + (1 << step)) & 31;
        U mu_b = __shfl_sync(0xffffffffu, mu, src);
        U m2_b = __shfl_sync(0xffffffffu, m2, src);
        U count_b = __shfl_sync(0xffffffffu, count, src);
        welford_merge(mu_b, m2_b, count_b, mu, m2, count);
    }
    if (blockDim.y > 1) {
        U *ubuf = buf;                  // blockDim.y values: (mu, m2) of the upper warps
        U *cbuf = buf + blockDim.y;     // blockDim.y / 2 counts
        for (int half = blockDim.y / 2; half > 0; half /= 2) {
            if (threadIdx.x == 0 && threadIdx.y >= half && threadIdx.y < 2 * half) {
                const int slot = threadIdx.y - half;
                ubuf[2 * slot] = mu;
                ubuf[2 * slot + 1] = m2;
                cbuf[slot] = count;
            }
            __syncthreads();
            if (threadIdx.x == 0 && threadIdx.y < half)
                welford_merge(ubuf[2 * threadIdx.y], ubuf[2 * threadIdx.y + 1], cbuf[threadIdx.y],
                              mu, m2, count);
            __syncthreads();
        }
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            ubuf[0] = mu;
            ubuf[1] = m2;
        }
        __syncthreads();
        mu = ubuf[0];
        var = ubuf[1] / U(n);
    } else {
        mu = __shfl_sync(0xffffffffu, mu, 0);
        var = __shfl_sync(0xffffffffu, m2 / U(n), 0);
    }
}

template <typename T, typename U>
__device__ void layer_norm_fwd(const T *__restrict__ x, const T *__restrict__ w, const T *__restrict__ b,
                               T *__restrict__ y, T *__restrict__ mean, T *__restrict__ rstd,
                               int rows, int n, U eps)
{
    extern __shared__ unsigned char ln_smem[];
    U *buf = reinterpret_cast<U *>(ln_smem);
    for (int row = blockIdx.y; row < rows; row += gridDim.y) {
        U mu, var;
        row_moments<T, U>(x + (long long)row * n, n, buf, mu, var);
        const U inv = U(1) / sqrt(var + eps);
        const T *xr = x + (long long)row * n;
        T *yr = y + (long long)row * n;
        const int tid = threadIdx.x + threadIdx.y * blockDim.x;
        for (int i = tid; i < n; i += blockDim.x * blockDim.y)
            yr[i] = static_cast<T>(static_cast<U>(w[i]) * (inv * (static_cast<U>(xr[i]) - mu)) + static_cast<U>(b[i]));
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            mean[row] = static_cast<T>(mu);
            rstd[row] = static_cast<T>(inv);
        }
        __syncthreads();  // buf is written again by the next row
    }
}

// dx = rstd / n * (n * g - sum(g) - xhat * sum(g * xhat)), g = dy * w
template <typename T, typename U>
__device__ void layer_norm_bwd_dx(const T *__restrict__ x, const T *__restrict__ w, const T *__restrict__ mean,
                                  const T *__restrict__ rstd, const T *__restrict__ dy, T *__restrict__ dx,
                                  int rows, int n)
{
    extern __shared__ unsigned char ln_smem[];
    U *buf = reinterpret_cast<U *>(ln_smem);
    for (int row = blockIdx.y; row < rows; row += gridDim.y) {
        const U mu = static_cast<U>(mean[row]);
        const U inv = static_cast<U>(rstd[row]);
        const T *xr = x + (long long)row * n;
        const T *dyr = dy + (long long)row * n;
        U sum_g = U(0), sum_gx = U(0);
        for (int i = threadIdx.x + threadIdx.y * blockDim.x; i < n; i += blockDim.x * blockDim.y) {
            const U g = static_cast<U>(dyr[i]) * static_cast<U>(w[i]);
            sum_g += g;
            sum_gx += g * (static_cast<U>(xr[i]) - mu) * inv;
        }
        for (int mask = 1; mask < 32; mask *= 2) {
            sum_g += __shfl_xor_sync(0xffffffffu, sum_g, mask);
            sum_gx += __shfl_xor_sync(0xffffffffu, sum_gx, mask);
        }
        if (blockDim.y > 1) {
            for (int half = blockDim.y / 2; half > 0; half /= 2) {
                if (threadIdx.y >= half && threadIdx.y < 2 * half) {
                    const int slot = (threadIdx.y - half) * blockDim.x + threadIdx.x;
                    buf[2 * slot] = sum_g;
                    buf[2 * slot + 1] = sum_gx;
                }
                __syncthreads();
                if (threadIdx.y < half) {
                    const int slot = threadIdx.y * blockDim.x + threadIdx.x;
                    sum_g += buf[2 * slot];
                    sum_gx += buf[2 * slot + 1];
                }
                __syncthreads();
            }
            if (threadIdx.y == 0) {
                buf[2 * threadIdx.x] = sum_g;
                buf[2 * threadIdx.x + 1] = sum_gx;
            }
            __syncthreads();
            if (threadIdx.y != 0) {
                sum_g = buf[2 * threadIdx.x];
                sum_gx = buf[2 * threadIdx.x + 1];
            }
        }
        const U fn = U(n);
        T *dxr = dx + (long long)row * n;
        for (int i = threadIdx.x + threadIdx.y * blockDim.x; i < n; i += blockDim.x * blockDim.y) {
            const U xhat = (static_cast<U>(xr[i]) - mu) * inv;
            const U g = static_cast<U>(dyr[i]) * static_cast<U>(w[i]);
            dxr[i] = static_cast<T>(inv / fn * (fn * g - sum_g - xhat * sum_gx));
        }
        __syncthreads();  // buf is written again by the next row
    }
}

// stage 1: block (32, 8) sums a slab of rows for 32 columns; part[2][parts][n]
template <typename T, typename U>
__device__ void layer_norm_bwd_part(const T *__restrict__ x, const T *__restrict__ mean, const T *__restrict__ rstd,
                                    const T *__restrict__ dy, U *__restrict__ part, int rows, int n)
{
    __shared__ U s_dw[8][33];  // 33: one column of padding, no bank conflicts on the transposed read
    __shared__ U s_db[8][33];
    const int col = blockIdx.x * 32 + threadIdx.x;
    U dw = U(0), db = U(0);
    if (col < n) {
        for (int row = blockIdx.y * 8 + threadIdx.y; row < rows; row += gridDim.y * 8) {
            const U g = static_cast<U>(dy[(long long)row * n + col]);
            dw += g * (static_cast<U>(x[(long long)row * n + col]) - static_cast<U>(mean[row])) * static_cast<U>(rstd[row]);
            db += g;
        }
    }
    s_dw[threadIdx.y][threadIdx.x] = dw;
    s_db[threadIdx.y][threadIdx.x] = db;
    __syncthreads();
    if (threadIdx.y == 0 && col < n) {
        U sw = U(0), sb = U(0);
        for (int k = 0; k < 8; ++k) {
            sw += s_dw[k][threadIdx.x];
            sb += s_db[k][threadIdx.x];
        }
        part[(long long)blockIdx.y * n + col] = sw;
        part[((long long)gridDim.y + blockIdx.y) * n + col] = sb;
    }
}

// stage 2: one thread per column adds the parts
template <typename T, typename U>
__device__ void layer_norm_bwd_final(const U *__restrict__ part, T *__restrict__ dw, T *__restrict__ db, int parts, int n)
{
    for (int col = blockIdx.x * blockDim.x + threadIdx.x; col < n; col += blockDim.x * gridDim.x) {
        U sw = U(0), sb = U(0);
        for (int p = 0; p < parts; ++p) {
            sw += part[(long long)p * n + col];
            sb += part[((long long)parts + p) * n + col];
        }
        dw[col] = static_cast<T>(sw);
        db[col] = static_cast<T>(sb);
    }
}

extern "C" __global__ void ln_fwd_f32(const float *x, const float *w, const float *b, float *y, float *mean,
                                      float *rstd, int rows, int n, float eps)
{
    layer_norm_fwd<float, float>(x, w, b, y, mean, rstd, rows, n, eps);
}

extern "C" __global__ void ln_fwd_f64(const double *x, const double *w, const double *b, double *y, double *mean,
                                      double *rstd, int rows, int n, double eps)
{
    layer_norm_fwd<double, double>(x, w, b, y, mean, rstd, rows, n, eps);
}

extern "C" __global__ void ln_bwd_dx_f32(const float *x, const float *w, const float *mean, const float *rstd,
                                         const float *dy, float *dx, int rows, int n)
{
    layer_norm_bwd_dx<float, float>(x, w, mean, rstd, dy, dx, rows, n);
}

extern "C" __global__ void ln_bwd_dx_f64(const double *x, const double *w, const double *mean, const double *rstd,
                                         const double *dy, double *dx, int rows, int n)
{
    layer_norm_bwd_dx<double, double>(x, w, mean, rstd, dy, dx, rows, n);
}

extern "C" __global__ void ln_bwd_part_f32(const float *x, const float *mean, const float *rstd, const float *dy,
                                           float *part, int rows, int n)
{
    layer_norm_bwd_part<float, float>(x, mean, rstd, dy, part, rows, n);
}

extern "C" __global__ void ln_bwd_part_f64(const double *x, const double *mean, const double *rstd, const double *dy,
                                           double *part, int rows, int n)
{
    layer_norm_bwd_part<double, double>(x, mean, rstd, dy, part, rows, n);
}

extern "C" __global__ void ln_bwd_final_f32(const float *part, float *dw, float *db, int parts, int n)
{
    layer_norm_bwd_final<float, float>(part, dw, db, parts, n);
}

extern "C" __global__ void ln_bwd_final_f64(const double *part, double *dw, double *db, int parts, int n)
{
    layer_norm_bwd_final<double, double>(part, dw, db, parts, n);
}
