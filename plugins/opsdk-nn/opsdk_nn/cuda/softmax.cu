// softmax and log_softmax over one axis of an array viewed as [outer, n, inner].
//   nn_softmax_{rows,block}_fwd_S(x, y, outer, n, as_log)       last axis: a warp / a block per row
//   nn_softmax_{rows,block}_bwd_S(y, dy, dx, outer, n, as_log)
//   nn_softmax_cols_fwd_S(x, y, outer, n, as_log, inner)        other axes: a thread per column
//   nn_softmax_cols_bwd_S(y, dy, dx, outer, n, as_log, inner)
// Row reductions are warp shuffles (plus shared memory across the warps of a block).
#include "nn_common.cuh"

template <typename T, bool BLOCK>
__device__ void rows_fwd(const T *__restrict__ x, T *__restrict__ y, nn_i64 rows, nn_i64 n, int as_log,
                         T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n;
        T *yr = y + r * n;
        T m = nn_neg_inf<T>();
        for (nn_i64 j = at.column; j < n; j += at.column_step) m = nn_max(m, xr[j]);
        m = RowReduce<T, BLOCK>::max(m, scratch);
        T s = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) s += nn_exp(xr[j] - m);
        s = RowReduce<T, BLOCK>::sum(s, scratch);
        if (as_log) {
            T ls = nn_log(s);  // (x - m) - ls: subtracting m first keeps large x exact
            for (nn_i64 j = at.column; j < n; j += at.column_step) yr[j] = (xr[j] - m) - ls;
        } else {
            T inv = T(1) / s;
            for (nn_i64 j = at.column; j < n; j += at.column_step) yr[j] = nn_exp(xr[j] - m) * inv;
        }
    }
}

template <typename T, bool BLOCK>
__device__ void rows_bwd(const T *__restrict__ y, const T *__restrict__ dy, T *__restrict__ dx, nn_i64 rows,
                         nn_i64 n, int as_log, T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *yr = y + r * n, *gr = dy + r * n;
        T *dr = dx + r * n;
        T s = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) s += as_log ? gr[j] : gr[j] * yr[j];
        s = RowReduce<T, BLOCK>::sum(s, scratch);
        for (nn_i64 j = at.column; j < n; j += at.column_step)
            dr[j] = as_log ? gr[j] - nn_exp(yr[j]) * s : yr[j] * (gr[j] - s);
    }
}

template <typename T>
__device__ void cols_fwd(const T *__restrict__ x, T *__restrict__ y, nn_i64 outer, nn_i64 n, int as_log,
                         nn_i64 inner) {
    NN_GRID_STRIDE(c, outer * inner) {
        nn_i64 base = (c / inner) * n * inner + c % inner;
        const T *xc = x + base;
        T *yc = y + base;
        T m = nn_neg_inf<T>(), s = T(0);
        for (nn_i64 j = 0; j < n; j++) m = nn_max(m, xc[j * inner]);
        for (nn_i64 j = 0; j < n; j++) s += nn_exp(xc[j * inner] - m);
        if (as_log) {
            T ls = nn_log(s);
            for (nn_i64 j = 0; j < n; j++) yc[j * inner] = (xc[j * inner] - m) - ls;
        } else {
            T inv = T(1) / s;
            for (nn_i64 j = 0; j < n; j++) yc[j * inner] = nn_exp(xc[j * inner] - m) * inv;
        }
    }
}

template <typename T>
__device__ void cols_bwd(const T *__restrict__ y, const T *__restrict__ dy, T *__restrict__ dx, nn_i64 outer,
                         nn_i64 n, int as_log, nn_i64 inner) {
    NN_GRID_STRIDE(c, outer * inner) {
        nn_i64 base = (c / inner) * n * inner + c % inner;
        const T *yc = y + base, *gc = dy + base;
        T *dc = dx + base;
        T s = T(0);
        for (nn_i64 j = 0; j < n; j++) s += as_log ? gc[j * inner] : gc[j * inner] * yc[j * inner];
        for (nn_i64 j = 0; j < n; j++) {
            nn_i64 i = j * inner;
            dc[i] = as_log ? gc[i] - nn_exp(yc[i]) * s : yc[i] * (gc[i] - s);
        }
    }
}

#define NN_SOFTMAX(T, S)                                                                               \
    extern "C" __global__ void nn_softmax_rows_fwd_##S(const T *x, T *y, nn_i64 outer, nn_i64 n, int as_log) { \
        rows_fwd<T, false>(x, y, outer, n, as_log, 0);                                                    \
    }                                                                                                  \
    extern "C" __global__ void nn_softmax_block_fwd_##S(const T *x, T *y, nn_i64 outer, nn_i64 n, int as_log) { \
        NN_SCRATCH(T);                                                                                 \
        rows_fwd<T, true>(x, y, outer, n, as_log, scratch);                                               \
    }                                                                                                  \
    extern "C" __global__ void nn_softmax_rows_bwd_##S(const T *y, const T *dy, T *dx, nn_i64 outer,    \
                                                        nn_i64 n, int as_log) {                           \
        rows_bwd<T, false>(y, dy, dx, outer, n, as_log, 0);                                               \
    }                                                                                                  \
    extern "C" __global__ void nn_softmax_block_bwd_##S(const T *y, const T *dy, T *dx, nn_i64 outer,   \
                                                         nn_i64 n, int as_log) {                          \
        NN_SCRATCH(T);                                                                                 \
        rows_bwd<T, true>(y, dy, dx, outer, n, as_log, scratch);                                          \
    }                                                                                                  \
    extern "C" __global__ void nn_softmax_cols_fwd_##S(const T *x, T *y, nn_i64 outer, nn_i64 n, int as_log, \
                                                        nn_i64 inner) {                                \
        cols_fwd<T>(x, y, outer, n, as_log, inner);                                                       \
    }                                                                                                  \
    extern "C" __global__ void nn_softmax_cols_bwd_##S(const T *y, const T *dy, T *dx, nn_i64 outer,    \
                                                        nn_i64 n, int as_log, nn_i64 inner) {             \
        cols_bwd<T>(y, dy, dx, outer, n, as_log, inner);                                                  \
    }

NN_SOFTMAX(float, f32)
NN_SOFTMAX(double, f64)
