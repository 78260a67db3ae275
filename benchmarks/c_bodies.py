"""Kernels the SDK writes from scalar C bodies (Elementwise.c_bodies) against the same maths
hand-written as C loops (the form the example pack had before), and NumPy, side by side in one run.

Run: python benchmarks/c_bodies.py [--n 10000000] [--repeat 9]

Each row is one kernel on n elements: the value (forward) and grad (backward: reads x and the
incoming gradient, writes one gradient) stages of swish and mish, and the grad stage of a
two-input gate. The hand-written loops use the same opsdk/elementwise.h (OPSDK_PARALLEL,
OPSDK_SIMD, OPSDK_CLONES) and opsdk/maths.h functions, compiled with the same flags: the ratio
says what writing the loop yourself gains (about 1.0: nothing). Times are the best of --repeat
calls through each kernel's C implementation (the machine may be shared: the least disturbed
call counts).

Last results (2 CPU cores shared with a test run and three other jobs, load average 5.4; two runs
of --repeat 15, ratio = written / hand-written): swish value 0.81, 0.98; swish grad 1.29, 1.28;
mish value 1.06, 0.68; mish grad 0.91, 1.15; gate grad 0.80, 1.10. The spread is the machine's:
the two loops compile to the same vector code (the scalar functions inline into the OPSDK_SIMD
loop), and neither side is faster across runs. NumPy's composed maths is 6-39x slower.
"""
import argparse
import os
import sys

import numpy
from timing import best_ms

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from opsdk.kernels import CSource, Kernel  # noqa: E402
from opsdk.kernels.elementwise import C_FLAGS, Elementwise  # noqa: E402

# the loops as an author wrote them by hand: one range function per dtype, OPSDK_PARALLEL over it
HAND = r"""
#include "opsdk/elementwise.h"
#define LOOP(name, T, sfx, params, args, body)                                              \
    OPSDK_CLONES static void name##_range_##sfx params {                                   \
        OPSDK_SIMD for (int64_t i = lo; i < hi; i++) { body }                                \
    }
LOOP(swish_fwd, float, f32, (const float *restrict x, float *restrict y, int64_t lo, int64_t hi, float beta), _,
     y[i] = x[i] * opsdk_sigmoid_f32(beta * x[i]);)
LOOP(swish_bwd, float, f32, (const float *restrict x, const float *restrict dy, float *restrict dx, int64_t lo,
     int64_t hi, float beta), _, float s = opsdk_sigmoid_f32(beta * x[i]);
     dx[i] = dy[i] * (s * (1.0f + beta * x[i] * (1.0f - s)));)
LOOP(mish_fwd, float, f32, (const float *restrict x, float *restrict y, int64_t lo, int64_t hi), _,
     y[i] = x[i] * opsdk_tanh_softplus_f32(x[i]);)
LOOP(mish_bwd, float, f32, (const float *restrict x, const float *restrict dy, float *restrict dx, int64_t lo,
     int64_t hi), _, dx[i] = dy[i] * (opsdk_tanh_softplus_f32(x[i])
     + x[i] * opsdk_sigmoid_f32(x[i]) * opsdk_sech2_softplus_f32(x[i]));)
LOOP(gate_bwd, float, f32, (const float *restrict x, const float *restrict g, const float *restrict dy,
     float *restrict dx, float *restrict dg, int64_t lo, int64_t hi), _, float s = opsdk_sigmoid_f32(g[i]);
     dx[i] = dy[i] * s; dg[i] = dy[i] * x[i] * s * (1.0f - s);)
void swish_fwd_f32(const float *x, float *y, int64_t n, float beta)
{ OPSDK_PARALLEL(n, lo, hi, swish_fwd_range_f32(x, y, lo, hi, beta)); }
void swish_bwd_f32(const float *x, const float *dy, float *dx, int64_t n, float beta)
{ OPSDK_PARALLEL(n, lo, hi, swish_bwd_range_f32(x, dy, dx, lo, hi, beta)); }
void mish_fwd_f32(const float *x, float *y, int64_t n)
{ OPSDK_PARALLEL(n, lo, hi, mish_fwd_range_f32(x, y, lo, hi)); }
void mish_bwd_f32(const float *x, const float *dy, float *dx, int64_t n)
{ OPSDK_PARALLEL(n, lo, hi, mish_bwd_range_f32(x, dy, dx, lo, hi)); }
void gate_bwd_f32(const float *x, const float *g, const float *dy, float *dx, float *dg, int64_t n)
{ OPSDK_PARALLEL(n, lo, hi, gate_bwd_range_f32(x, g, dy, dx, dg, lo, hi)); }
"""
# functions defined through a macro: their declarations are given (opsdk cannot read them)
HAND_CDEF = """
void swish_fwd_f32(const float *x, float *y, int64_t n, float beta);
void swish_bwd_f32(const float *x, const float *dy, float *dx, int64_t n, float beta);
void mish_fwd_f32(const float *x, float *y, int64_t n);
void mish_bwd_f32(const float *x, const float *dy, float *dx, int64_t n);
void gate_bwd_f32(const float *x, const float *g, const float *dy, float *dx, float *dg, int64_t n);
"""
HAND_SOURCE = CSource(code=HAND, cdef=HAND_CDEF, openmp=True, extra_compile_args=C_FLAGS,
                      libraries=("m",))
HAND_KERNELS = {}
for stem in ("swish_fwd", "swish_bwd", "mish_fwd", "mish_bwd", "gate_bwd"):
    HAND_KERNELS[stem] = Kernel(f"bench.hand_{stem}", dtypes=("float32",))
    HAND_KERNELS[stem].c(HAND_SOURCE, stem)


def _never(*args, **kwargs):
    raise AssertionError("the benchmark times the C kernels only")


# the python maths is not timed: value only declares the attributes (its keyword-only parameters)
SWISH = Elementwise("bench.swish", lambda m, x, *, beta: x, _never, _never).c_bodies(
    "x * sigmoid(beta * x)", "T s = sigmoid(beta * x); return s * (1 + beta * x * (1 - s));", "0",
    cuda=False)
MISH = Elementwise("bench.mish", lambda m, x: x, _never, _never).c_bodies(
    "x * tanh_softplus(x)", "tanh_softplus(x) + x * sigmoid(x) * sech2_softplus(x)", "0", cuda=False)
GATE = Elementwise("bench.gate", lambda m, x, g: x, _never, _never, inputs=("x", "g")).c_bodies(
    "x * sigmoid(g)", ["sigmoid(g)", "T s = sigmoid(g); return x * s * (1 - s);"],
    [["0", "0"], ["0", "0"]], cuda=False)


def _sigmoid(z):
    return 0.5 * (1.0 + numpy.tanh(0.5 * z))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)
    rng = numpy.random.default_rng(0)
    x, g, dy = (rng.uniform(-4, 4, args.n).astype(numpy.float32) for _ in range(3))
    rows = [
        ("swish value", lambda: SWISH.value_kernel.run("c", x, beta=1.5),
         lambda: HAND_KERNELS["swish_fwd"].run("c", x, beta=1.5),
         lambda: x * _sigmoid(1.5 * x)),
        ("swish grad", lambda: SWISH.grad_kernel.run("c", x, dy, beta=1.5),
         lambda: HAND_KERNELS["swish_bwd"].run("c", x, dy, beta=1.5),
         lambda: dy * (_sigmoid(1.5 * x) * (1 + 1.5 * x * (1 - _sigmoid(1.5 * x))))),
        ("mish value", lambda: MISH.value_kernel.run("c", x), lambda: HAND_KERNELS["mish_fwd"].run("c", x),
         lambda: x * numpy.tanh(numpy.logaddexp(0, x))),
        ("mish grad", lambda: MISH.grad_kernel.run("c", x, dy), lambda: HAND_KERNELS["mish_bwd"].run("c", x, dy),
         None),
        ("gate grad (2 inputs)", lambda: GATE.grad_kernel.run("c", x, g, dy),
         lambda: HAND_KERNELS["gate_bwd"].run("c", x, g, dy), None),
    ]
    print(f"n = {args.n:,} float32, best of {args.repeat}\n")
    print("| kernel | written from c_bodies | hand-written loop | ratio | NumPy | NumPy / written |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, written, hand, numpy_fn in rows:
        # alternate, so a burst of load on the machine touches both sides alike
        w, h = float("inf"), float("inf")
        for _ in range(3):
            w = min(w, best_ms(written, args.repeat // 3 or 1))
            h = min(h, best_ms(hand, args.repeat // 3 or 1))
        npy = best_ms(numpy_fn, 3) if numpy_fn is not None else None
        print(f"| {name} | {w:.2f} ms | {h:.2f} ms | {w / h:.2f} | "
              + (f"{npy:.2f} ms | {npy / w:.1f}x |" if npy is not None else "- | - |"))


if __name__ == "__main__":
    main()
