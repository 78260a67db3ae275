// layer_norm and rms_norm over the last n elements of each of `rows` rows.
//   nn_layer_norm_{rows,block}_fwd_S(x, w, b, y, mean, rstd, rows, n, eps)
//   nn_layer_norm_{rows,block}_bwd_S(x, w, mean, rstd, dy, dx, rows, n)      dx only
//   nn_layer_norm_bwd_weight_S(x, dy, mean, rstd, part, rows, n)             dw, db partials
//   nn_rms_norm_{rows,block}_fwd_S(x, w, y, rstd, rows, n, eps)
//   nn_rms_norm_{rows,block}_bwd_S(x, w, rstd, dy, dx, rows, n)
//   nn_rms_norm_bwd_weight_S(x, dy, mean (unused), rstd, part, rows, n)
// Row kernels: a warp (rows) or a block (block) per row, warp-shuffle reductions.
// Weight kernels: grid (ceil(n / 32), chunks), block (32, 8); block (bx, by) sums columns
// [32 bx, 32 bx + 32) over the rows of chunk by, into part[0 or 1][by][column].
#include "nn_common.cuh"

template <typename T, bool BLOCK>
__device__ void ln_fwd(const T *__restrict__ x, const T *__restrict__ w, const T *__restrict__ b,
                       T *__restrict__ y, T *__restrict__ mean, T *__restrict__ rstd, nn_i64 rows, nn_i64 n,
                       T eps, T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n;
        T *yr = y + r * n;
        T s = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) s += xr[j];
        T mu = RowReduce<T, BLOCK>::sum(s, scratch) / T(n);
        T v = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) v += (xr[j] - mu) * (xr[j] - mu);
        T rs = nn_rsqrt(RowReduce<T, BLOCK>::sum(v, scratch) / T(n) + eps);
        for (nn_i64 j = at.column; j < n; j += at.column_step) yr[j] = (xr[j] - mu) * rs * w[j] + b[j];
        if (at.column == 0) {
            mean[r] = mu;
            rstd[r] = rs;
        }
    }
}

template <typename T, bool BLOCK>
__device__ void ln_bwd(const T *__restrict__ x, const T *__restrict__ w, const T *__restrict__ mean,
                       const T *__restrict__ rstd, const T *__restrict__ dy, T *__restrict__ dx, nn_i64 rows,
                       nn_i64 n, T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n, *gr = dy + r * n;
        T *dr = dx + r * n;
        T mu = mean[r], rs = rstd[r], sg = T(0), sgx = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) {
            T g = gr[j] * w[j];
            sg += g;
            sgx += g * (xr[j] - mu) * rs;
        }
        T c1 = RowReduce<T, BLOCK>::sum(sg, scratch) / T(n);
        T c2 = RowReduce<T, BLOCK>::sum(sgx, scratch) / T(n);
        for (nn_i64 j = at.column; j < n; j += at.column_step)
            dr[j] = rs * (gr[j] * w[j] - c1 - (xr[j] - mu) * rs * c2);
    }
}

template <typename T, bool BLOCK>
__device__ void rms_fwd(const T *__restrict__ x, const T *__restrict__ w, T *__restrict__ y,
                        T *__restrict__ rstd, nn_i64 rows, nn_i64 n, T eps, T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n;
        T *yr = y + r * n;
        T ss = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) ss += xr[j] * xr[j];
        T rs = nn_rsqrt(RowReduce<T, BLOCK>::sum(ss, scratch) / T(n) + eps);
        for (nn_i64 j = at.column; j < n; j += at.column_step) yr[j] = xr[j] * rs * w[j];
        if (at.column == 0) rstd[r] = rs;
    }
}

template <typename T, bool BLOCK>
__device__ void rms_bwd(const T *__restrict__ x, const T *__restrict__ w, const T *__restrict__ rstd,
                        const T *__restrict__ dy, T *__restrict__ dx, nn_i64 rows, nn_i64 n, T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n, *gr = dy + r * n;
        T *dr = dx + r * n;
        T rs = rstd[r], sgx = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) sgx += gr[j] * w[j] * xr[j] * rs;
        T c2 = RowReduce<T, BLOCK>::sum(sgx, scratch) / T(n);
        for (nn_i64 j = at.column; j < n; j += at.column_step) dr[j] = rs * (gr[j] * w[j] - xr[j] * rs * c2);
    }
}

template <typename T, bool RMS>
__device__ void bwd_weight(const T *__restrict__ x, const T *__restrict__ dy, const T *__restrict__ mean,
                           const T *__restrict__ rstd, T *__restrict__ part, nn_i64 rows, nn_i64 n) {
    __shared__ T acc_w[8][33], acc_b[8][33];
    nn_i64 j = (nn_i64)blockIdx.x * 32 + threadIdx.x;
    nn_i64 per = (rows + gridDim.y - 1) / gridDim.y;
    nn_i64 r0 = (nn_i64)blockIdx.y * per, r1 = r0 + per < rows ? r0 + per : rows;
    T sw = T(0), sb = T(0);
    if (j < n) {
        for (nn_i64 r = r0 + threadIdx.y; r < r1; r += 8) {
            T g = dy[r * n + j];
            T xh = RMS ? x[r * n + j] * rstd[r] : (x[r * n + j] - mean[r]) * rstd[r];
            sw += g * xh;
            sb += g;
        }
    }
    acc_w[threadIdx.y][threadIdx.x] = sw;
    acc_b[threadIdx.y][threadIdx.x] = sb;
    __syncthreads();
    if (threadIdx.y == 0 && j < n) {
        for (int k = 1; k < 8; k++) {
            sw += acc_w[k][threadIdx.x];
            sb += acc_b[k][threadIdx.x];
        }
        nn_i64 chunks = gridDim.y;
        part[(nn_i64)blockIdx.y * n + j] = sw;
        part[chunks * n + (nn_i64)blockIdx.y * n + j] = sb;
    }
}

#define NN_NORMS(T, S)                                                                                   \
    extern "C" __global__ void nn_layer_norm_rows_fwd_##S(const T *x, const T *w, const T *b, T *y, T *mean, \
                                                           T *rstd, nn_i64 rows, nn_i64 n, double eps) {  \
        ln_fwd<T, false>(x, w, b, y, mean, rstd, rows, n, T(eps), 0);                                    \
    }                                                                                                    \
    extern "C" __global__ void nn_layer_norm_block_fwd_##S(const T *x, const T *w, const T *b, T *y,       \
                                                            T *mean, T *rstd, nn_i64 rows, nn_i64 n,      \
                                                            double eps) {                                \
        NN_SCRATCH(T);                                                                                   \
        ln_fwd<T, true>(x, w, b, y, mean, rstd, rows, n, T(eps), scratch);                               \
    }                                                                                                    \
    extern "C" __global__ void nn_layer_norm_rows_bwd_##S(const T *x, const T *w, const T *mean,          \
                                                           const T *rstd, const T *dy, T *dx, nn_i64 rows, \
                                                           nn_i64 n) {                                   \
        ln_bwd<T, false>(x, w, mean, rstd, dy, dx, rows, n, 0);                                          \
    }                                                                                                    \
    extern "C" __global__ void nn_layer_norm_block_bwd_##S(const T *x, const T *w, const T *mean,         \
                                                            const T *rstd, const T *dy, T *dx,            \
                                                            nn_i64 rows, nn_i64 n) {                     \
        NN_SCRATCH(T);                                                                                   \
        ln_bwd<T, true>(x, w, mean, rstd, dy, dx, rows, n, scratch);                                     \
    }                                                                                                    \
    extern "C" __global__ void nn_layer_norm_bwd_weight_##S(const T *x, const T *dy, const T *mean,       \
                                                             const T *rstd, T *part, nn_i64 rows,         \
                                                             nn_i64 n) {                                 \
        bwd_weight<T, false>(x, dy, mean, rstd, part, rows, n);                                          \
    }                                                                                                    \
    extern "C" __global__ void nn_rms_norm_rows_fwd_##S(const T *x, const T *w, T *y, T *rstd, nn_i64 rows, \
                                                         nn_i64 n, double eps) {                         \
        rms_fwd<T, false>(x, w, y, rstd, rows, n, T(eps), 0);                                            \
    }                                                                                                    \
    extern "C" __global__ void nn_rms_norm_block_fwd_##S(const T *x, const T *w, T *y, T *rstd,           \
                                                          nn_i64 rows, nn_i64 n, double eps) {           \
        NN_SCRATCH(T);                                                                                   \
        rms_fwd<T, true>(x, w, y, rstd, rows, n, T(eps), scratch);                                       \
    }                                                                                                    \
    extern "C" __global__ void nn_rms_norm_rows_bwd_##S(const T *x, const T *w, const T *rstd, const T *dy, \
                                                         T *dx, nn_i64 rows, nn_i64 n) {                 \
        rms_bwd<T, false>(x, w, rstd, dy, dx, rows, n, 0);                                               \
    }                                                                                                    \
    extern "C" __global__ void nn_rms_norm_block_bwd_##S(const T *x, const T *w, const T *rstd,           \
                                                          const T *dy, T *dx, nn_i64 rows, nn_i64 n) {   \
        NN_SCRATCH(T);                                                                                   \
        rms_bwd<T, true>(x, w, rstd, dy, dx, rows, n, scratch);                                          \
    }                                                                                                    \
    extern "C" __global__ void nn_rms_norm_bwd_weight_##S(const T *x, const T *dy, const T *mean,         \
                                                           const T *rstd, T *part, nn_i64 rows,           \
                                                           nn_i64 n) {                                   \
        bwd_weight<T, true>(x, dy, mean, rstd, part, rows, n);                                           \
    }

NN_NORMS(float, f32)
NN_NORMS(double, f64)
