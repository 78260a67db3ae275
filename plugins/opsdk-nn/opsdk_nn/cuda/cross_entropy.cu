// cross_entropy: log_softmax fused with the NLL of integer labels, a warp or a block per row.
//   nn_cross_entropy_{rows,block}_fwd_S(x, label, loss, rowmax, logsum, rows, n, ignore_index)
//   nn_cross_entropy_{rows,block}_bwd_S(x, label, rowmax, logsum, g, g_stride, dx, rows, n, ignore_index)
// Backward rebuilds softmax from each row's max and log-sum (kept apart, so logits of 1e4 lose
// nothing to rounding); labels outside [0, n) count as ignored.
#include "nn_common.cuh"

__device__ __forceinline__ bool skipped(nn_i64 c, nn_i64 n, nn_i64 ignore) {
    return c == ignore || c < 0 || c >= n;
}

template <typename T, bool BLOCK>
__device__ void ce_fwd(const T *__restrict__ x, const nn_i64 *__restrict__ label, T *__restrict__ loss,
                       T *__restrict__ rowmax, T *__restrict__ logsum, nn_i64 rows, nn_i64 n, nn_i64 ignore,
                       T *scratch) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n;
        T m = nn_neg_inf<T>();
        for (nn_i64 j = at.column; j < n; j += at.column_step) m = nn_max(m, xr[j]);
        m = RowReduce<T, BLOCK>::max(m, scratch);
        T s = T(0);
        for (nn_i64 j = at.column; j < n; j += at.column_step) s += nn_exp(xr[j] - m);
        T ls = nn_log(RowReduce<T, BLOCK>::sum(s, scratch));
        if (at.column == 0) {
            nn_i64 c = label[r];
            rowmax[r] = m;
            logsum[r] = ls;
            loss[r] = skipped(c, n, ignore) ? T(0) : (m - xr[c]) + ls;
        }
    }
}

template <typename T, bool BLOCK>
__device__ void ce_bwd(const T *__restrict__ x, const nn_i64 *__restrict__ label, const T *__restrict__ rowmax,
                       const T *__restrict__ logsum, const T *__restrict__ g, nn_i64 g_stride, T *__restrict__ dx,
                       nn_i64 rows, nn_i64 n, nn_i64 ignore) {
    RowLayout<BLOCK> at;
    for (nn_i64 r = at.first_row; r < rows; r += at.row_step) {
        const T *xr = x + r * n;
        T *dr = dx + r * n;
        nn_i64 c = label[r];
        bool skip = skipped(c, n, ignore);
        T scale = skip ? T(0) : g[r * g_stride], m = rowmax[r], ls = logsum[r];
        for (nn_i64 j = at.column; j < n; j += at.column_step)
            dr[j] = scale * nn_exp((xr[j] - m) - ls) - (j == c ? scale : T(0));
    }
}

#define NN_CE(T, S)                                                                                      \
    extern "C" __global__ void nn_cross_entropy_rows_fwd_##S(const T *x, const nn_i64 *label, T *loss,    \
                                                              T *rowmax, T *logsum, nn_i64 rows, nn_i64 n, \
                                                              nn_i64 ignore) {                           \
        ce_fwd<T, false>(x, label, loss, rowmax, logsum, rows, n, ignore, 0);                            \
    }                                                                                                    \
    extern "C" __global__ void nn_cross_entropy_block_fwd_##S(const T *x, const nn_i64 *label, T *loss,   \
                                                               T *rowmax, T *logsum, nn_i64 rows,        \
                                                               nn_i64 n, nn_i64 ignore) {                \
        NN_SCRATCH(T);                                                                                   \
        ce_fwd<T, true>(x, label, loss, rowmax, logsum, rows, n, ignore, scratch);                       \
    }                                                                                                    \
    extern "C" __global__ void nn_cross_entropy_rows_bwd_##S(const T *x, const nn_i64 *label,             \
                                                              const T *rowmax, const T *logsum,          \
                                                              const T *g, nn_i64 g_stride, T *dx,        \
                                                              nn_i64 rows, nn_i64 n, nn_i64 ignore) {    \
        ce_bwd<T, false>(x, label, rowmax, logsum, g, g_stride, dx, rows, n, ignore);                    \
    }                                                                                                    \
    extern "C" __global__ void nn_cross_entropy_block_bwd_##S(const T *x, const nn_i64 *label,            \
                                                               const T *rowmax, const T *logsum,         \
                                                               const T *g, nn_i64 g_stride, T *dx,       \
                                                               nn_i64 rows, nn_i64 n, nn_i64 ignore) {   \
        ce_bwd<T, true>(x, label, rowmax, logsum, g, g_stride, dx, rows, n, ignore);                     \
    }

NN_CE(float, f32)
NN_CE(double, f64)
