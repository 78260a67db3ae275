"""RMSNorm's C kernels as the SDK writes them from row statements (opsdk.kernels.rows) against
the same maths hand-written as C loops, and NumPy, side by side in one run.

Run: python benchmarks/rows_bodies.py [--rows 4096] [--k 1024] [--repeat 9]

float32, x [rows, K], weight [K]: forward (y and rstd) and backward (dx and dweight). The
hand-written loops are the form the rows template has: an OpenMP loop over rows summing in
double, then dweight over blocks of 64 features; compiled with the same flags. NumPy computes
the same (its sums pairwise in float32). ratio = the written C's time / the other's.

Last results (2 CPU cores shared with four other jobs, load average 5.3; x [4096, 1024], two runs
of --repeat 9 and 15; written / hand-written): forward 0.90, 0.28; backward 0.73, 1.07. NumPy is
4-5x slower than the written C (ratio 0.04-0.25). The spread is the machine's: both sides are the
same loops (double sums under omp simd, vectorized element loops, a column pass in blocks of 64);
the written forward hands rows out in dynamic chunks (OPSDK_PARALLEL_CHUNKS), which suffers less
when a core is taken away.
"""
import argparse
import os
import sys

import numpy
from timing import best_ms

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from opsdk.kernels import CSource, Kernel  # noqa: E402
from opsdk.kernels.elementwise import C_FLAGS  # noqa: E402
from opsdk.kernels.rows import Rows  # noqa: E402

HAND = r"""
#include "opsdk/elementwise.h"
void hand_forward_f32(const float *x, const float *weight, float *y, float *rstd, int64_t rows, int64_t K, float eps)
{
#pragma omp parallel for if (rows * K > OPSDK_OMP_MIN)
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * K;
        double ss = 0.0;
#pragma omp simd reduction(+:ss)
        for (int64_t j = 0; j < K; j++) ss += (double)(xr[j] * xr[j]);
        float s = 1.0f / sqrtf((float)ss / K + eps);
        rstd[r] = s;
        OPSDK_SIMD for (int64_t j = 0; j < K; j++) y[r * K + j] = xr[j] * s * weight[j];
    }
}
void hand_backward_f32(const float *x, const float *weight, const float *rstd, const float *dy, float *dx,
                       float *dweight, int64_t rows, int64_t K)
{
#pragma omp parallel for if (rows * K > OPSDK_OMP_MIN)
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * K, *dyr = dy + r * K;
        double dot = 0.0;
#pragma omp simd reduction(+:dot)
        for (int64_t j = 0; j < K; j++) dot += (double)(dyr[j] * weight[j] * xr[j]);
        float s = rstd[r], c = (float)dot / K * s * s;
        OPSDK_SIMD for (int64_t j = 0; j < K; j++) dx[r * K + j] = s * (dyr[j] * weight[j] - xr[j] * c);
    }
#pragma omp parallel for if (rows * K > OPSDK_OMP_MIN)
    for (int64_t j0 = 0; j0 < K; j0 += 64) {
        int64_t j1 = j0 + 64 < K ? j0 + 64 : K;
        double acc[64] = {0.0};
        for (int64_t r = 0; r < rows; r++) {
            OPSDK_SIMD for (int64_t j = j0; j < j1; j++) acc[j - j0] += (double)(dy[r * K + j] * x[r * K + j] * rstd[r]);
        }
        for (int64_t j = j0; j < j1; j++) dweight[j] = (float)acc[j - j0];
    }
}
"""


def forward(m, x, weight, *, eps):  # the python kernels (not timed here)
    rstd = (m.row_mean(x * x) + eps) ** -0.5
    return x * weight * rstd, rstd


def backward(m, x, weight, rstd, dy):
    g = dy * weight
    return rstd * g - x * rstd ** 3 * m.row_mean(g * x), m.col_sum(dy * x * rstd)


def written():
    return Rows("bench.rms_norm", forward, backward, features=("weight",), saved=("rstd",), dtypes=("float32",)
                ).c_bodies(forward="sum ss = x * x\nrstd = 1 / sqrt(ss / K + eps)\ny = x * rstd * weight",
                           backward="sum dot = dy * weight * x\nT c = dot / K * rstd * rstd\n"
                                    "dx = rstd * (dy * weight - x * c)\ndweight = dy * x * rstd", cuda=False)


def hand():
    source = CSource(code=HAND, openmp=True, extra_compile_args=C_FLAGS, libraries=("m",))
    rows = {"rows": lambda x: x.shape[0], "K": lambda x: x.shape[1]}
    fwd = Kernel("bench.hand_forward", dtypes=("float32",)).c(
        source, "hand_forward", sizes=rows, outputs={"rstd": lambda x: x.shape[:1]})
    bwd = Kernel("bench.hand_backward", dtypes=("float32",)).c(
        source, "hand_backward", sizes=rows, outputs={"dweight": lambda x: x.shape[1:]})
    return fwd, bwd


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--k", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((args.rows, args.k)).astype(numpy.float32)
    w = rng.uniform(0.5, 1.5, args.k).astype(numpy.float32)
    dy = rng.standard_normal(x.shape).astype(numpy.float32)
    op = written()
    hand_fwd, hand_bwd = hand()
    y, rstd = op.forward_kernel.run("c", x, w, eps=1e-6)
    hy, hrstd = hand_fwd.run("c", x, w, eps=1e-6)
    numpy.testing.assert_allclose(y, hy, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(op.backward_kernel.run("c", x, w, rstd, dy)[1],
                                  hand_bwd.run("c", x, w, rstd, dy)[1], rtol=1e-5, atol=1e-4)
    r2 = rstd[:, None]
    cases = {
        "forward": (lambda: op.forward_kernel.run("c", x, w, eps=1e-6),
                    lambda: hand_fwd.run("c", x, w, eps=1e-6),
                    lambda: (x * (1 / numpy.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6)) * w)),
        "backward": (lambda: op.backward_kernel.run("c", x, w, rstd, dy),
                     lambda: hand_bwd.run("c", x, w, rstd, dy),
                     lambda: (r2 * (dy * w - x * r2 * ((dy * w * x * r2).mean(axis=1, keepdims=True))),
                              (dy * x * r2).sum(axis=0))),
    }
    print(f"RMSNorm float32, x [{args.rows}, {args.k}], best of {args.repeat}, OMP threads "
          f"{os.environ.get('OMP_NUM_THREADS', 'default')}")
    print(f"{'stage':10} {'written C ms':>13} {'hand C ms':>10} {'NumPy ms':>9} {'vs hand':>8} {'vs NumPy':>9}")
    for stage, (ours, theirs, numpy_fn) in cases.items():
        a, b, c = (best_ms(fn, args.repeat) for fn in (ours, theirs, numpy_fn))
        print(f"{stage:10} {a:13.2f} {b:10.2f} {c:9.2f} {a / b:8.2f} {a / c:9.2f}")


if __name__ == "__main__":
    main()
