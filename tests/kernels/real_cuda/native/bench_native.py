"""Time per launch of three realcuda kernels on the CUDA simulator and as a native CPU loop.

    python tests/kernels/real_cuda/native/bench_native.py [--quick]

The native side is kernels_native.cpp (the same kernel bodies as loops over blocks and threads,
g++ -O2); the simulator side launches the pack's .cu files through the simulated CuPy with the
same grid, block and sizes. Both are timed in one run, alternating, the best of a few launches
each. Prints a table: kernel, size, threads per block, simulator, native loop, ratio.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OPSDK_CUDA_SIM", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
CUDA = os.path.join(HERE, "..", "pack", "src", "realcuda", "cuda")

import numpy  # noqa: E402

import opsdk  # noqa: E402,F401  (puts the simulated cupy in place)
import cupy  # noqa: E402


def build_native():
    exe = os.path.join(tempfile.mkdtemp(prefix="realcuda-native-"), "kernels_native")
    cxx = os.environ.get("CXX", "g++")
    subprocess.run([cxx, "-O2", "-o", exe, os.path.join(HERE, "kernels_native.cpp")], check=True)
    return exe


def native_ms(exe, kernel, a, b, c, reps):
    out = subprocess.run([exe, kernel, str(a), str(b), str(c), str(reps)], check=True, capture_output=True, text=True)
    return float(out.stdout.split()[0])


def _module(cu, names=()):
    with open(os.path.join(CUDA, cu), encoding="utf-8") as f:
        return cupy.RawModule(code=f.read(), name_expressions=list(names) or None)


def sim_ms(launch, reps):
    launch()   # builds the module (cached across runs) and warms up
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        launch()
        cupy.cuda.Device().synchronize()
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def cases(quick):
    rng = numpy.random.default_rng(0)
    f32 = numpy.float32

    def bias_gelu(m, n):
        x, b, y = (cupy.asarray(rng.standard_normal(s).astype(f32)) for s in ((m, n), (n,), (m, n)))
        fn = _module("bias_gelu.cu").get_function("bias_gelu_f32")
        return lambda: fn((64,), (256,), (x, b, y, numpy.int32(m), numpy.int32(n)))

    def rms_norm(rows, n, block):
        x, w = cupy.asarray(rng.standard_normal((rows, n)).astype(f32)), cupy.asarray(numpy.ones(n, f32))
        y, r = cupy.empty((rows, n), f32), cupy.empty(rows, f32)
        fn = _module("rms_norm.cu").get_function("rms_norm_fwd_f32")
        return lambda: fn((rows,), (block,), (x, w, y, r, f32(1e-6), numpy.int32(rows), numpy.int32(n)))

    def matmul(s):
        a, b, c = (cupy.asarray(rng.standard_normal((s, s)).astype(f32)) for _ in range(3))
        fn = _module("gemm.cu", ["matmul_tiled<float,16>"]).get_function("matmul_tiled<float,16>")
        g = (s + 15) // 16
        return lambda: fn((g, g), (16, 16), (c, a, b, numpy.int32(s), numpy.int32(s), numpy.int32(s)))

    rows = 32 if quick else 128
    return [
        ("bias_gelu (elementwise, float4)", f"512 x 1024", 256, bias_gelu(512, 1024), ("bias_gelu", 512, 1024, 0)),
        ("rms_norm (block reduce)", f"{rows} x 1024", 1024, rms_norm(rows, 1024, 1024), ("rms_norm", rows, 1024, 1024)),
        ("rms_norm (block reduce)", f"{rows} x 1024", 128, rms_norm(rows, 1024, 128), ("rms_norm", rows, 1024, 128)),
        ("rms_norm (block reduce)", f"{rows} x 128", 128, rms_norm(rows, 128, 128), ("rms_norm", rows, 128, 128)),
        ("matmul_tiled<float,16>", "128^3" if quick else "256^3", 256, matmul(128 if quick else 256),
         ("matmul", 128 if quick else 256, 128 if quick else 256, 128 if quick else 256)),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args(argv)
    exe = build_native()
    print(f"{'kernel':34} {'size':12} {'threads/block':>13} {'simulator ms':>13} {'native ms':>10} {'ratio':>8}")
    for name, size, threads, launch, native in cases(args.quick):
        sim = sim_ms(launch, args.reps)
        nat = native_ms(exe, *native, max(args.reps, 5))
        print(f"{name:34} {size:12} {threads:>13} {sim:>13.1f} {nat:>10.2f} {sim / nat:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
