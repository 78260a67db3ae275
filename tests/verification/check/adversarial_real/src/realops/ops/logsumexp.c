/* realops.logsumexp: log(sum(exp(x))) over the rows of x [rows, n] in one pass (see logsumexp.py).
 *
 * Ported from karpathy/llm.c: the online softmax normaliser of llmc/fused_classifier.cuh
 * (prepare_softmax_blockwide3: a running max and a running sum rescaled by exp(old_max -
 * new_max)), here over blocks of 64 elements: each block's max and sum of exp, merged into the
 * row's; the sums are kept in double so float32 rows of any length (a vocabulary of 50257) keep
 * their precision. lse = max + log(sum).
 *
 *   logsumexp_forward_T(x, lse, rows, n)      T = f32 (float) or f64 (double)
 *
 * Bug switches (the pack's bug variants compile this file with one defined):
 *   REALOPS_BUG_FLOAT_SUM   float32 rows as train_gpt2.c's softmax_forward: a max pass, then
 *                           `float sum += expf(x - max)` over the whole row
 *   REALOPS_BUG_MERGE       the merge of a block whose max is larger than the running one adds
 *                           the running sum without rescaling it by exp(old - new)
 */
#include <math.h>
#include <stdint.h>

#define BLOCK 64

static void merge(double *m, double *s, double bm, double bs)
{
    if (bm > *m) {
#ifdef REALOPS_BUG_MERGE
        *s = *s + bs;
#else
        *s = *s * exp(*m - bm) + bs;
#endif
        *m = bm;
    } else {
        *s += bs * exp(bm - *m);
    }
}

#define LOGSUMEXP(T, SUFFIX, EXP)                                                                   \
    void logsumexp_forward_##SUFFIX(const T *x, T *lse, int64_t rows, int64_t n)                    \
    {                                                                                               \
        for (int64_t r = 0; r < rows; r++) {                                                        \
            const T *xr = x + r * n;                                                                \
            double m = -INFINITY, s = 0.0;                                                          \
            for (int64_t j0 = 0; j0 < n; j0 += BLOCK) {                                             \
                int64_t j1 = j0 + BLOCK < n ? j0 + BLOCK : n;                                       \
                double bm = xr[j0], bs = 0.0;                                                       \
                for (int64_t j = j0 + 1; j < j1; j++) if (xr[j] > bm) bm = xr[j];                   \
                for (int64_t j = j0; j < j1; j++) bs += EXP((T)(xr[j] - bm));                       \
                merge(&m, &s, bm, bs);                                                              \
            }                                                                                       \
            lse[r] = (T)(m + log(s));                                                               \
        }                                                                                           \
    }

LOGSUMEXP(double, f64, exp)

#ifdef REALOPS_BUG_FLOAT_SUM
void logsumexp_forward_f32(const float *x, float *lse, int64_t rows, int64_t n)
{
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float maxval = xr[0];
        for (int64_t j = 1; j < n; j++) if (xr[j] > maxval) maxval = xr[j];
        float sum = 0.0f;
        for (int64_t j = 0; j < n; j++) sum += expf(xr[j] - maxval);
        lse[r] = maxval + logf(sum);
    }
}
#else
LOGSUMEXP(float, f32, expf)
#endif
