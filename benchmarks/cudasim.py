"""The CUDA simulator against the same kernel body compiled natively as a CPU loop (g++ -O2).

Each row runs one CUDA kernel on the simulator (OPSDK_CUDA_SIM, every load and store checked:
bounds, races in shared and global memory, initcheck) and a C++ loop computing the same thing
compiled with ``g++ -O2`` and called through ctypes, side by side in one run, and prints their
ratio. Times are CPU seconds of this process (``time.process_time``), the best of several runs
after a warm-up, so a busy machine slows both alike; the simulator's include its launch (argument
checks, the output checks after the kernel). Kernels:

- ``swish``: elementwise y = x / (1 + exp(-x)), a grid-stride loop, no barrier;
- ``layernorm``: one block per row, the mean and variance by warp shuffles then shared memory
  (six barriers and ten shuffles a thread per row), at 32 to 1024 threads per block;
- ``softmax``: one warp per row, max and sum by shuffles alone;
- ``tree_sum``: a shared-memory tree reduction with a barrier per step, one block per row;
- ``fixed_grid``: a grid-stride kernel launched on a fixed grid of 64 blocks of 256 threads over
  one element (the launch's fixed cost: most threads have nothing to do).

With ``--check``, also the wall and CPU time of ``opsdk check --backend cuda`` of every
first-party op on the simulator (``OPSDK_CUDA_SIM=1``) against ``opsdk check --backend python``
of the same ops, each in a fresh process with a warm kernel cache (run once before timing), and
their ratios.

Usage: python benchmarks/cudasim.py [--quick] [--check]

Last results: see docs/kernels.md (the simulator's speed table, before and after the runtime's
speed work of issue 22, measured in one run). On a machine shared with other work, timings move
by a third from run to run: compare runs made one after the other, and repeat. For where the
time goes, callgrind counts instructions and cache misses exactly (``valgrind --tool=callgrind
--cache-sim=yes`` on a script that launches a kernel once more after a warm-up); there, per
operation: a thread that starts and exits without waiting 15-20 ns, a lane's shuffle about 13 ns
(arrival, switch, its share of the results), a thread's barrier about 9 ns, a checked load or
store 5-15 ns (most of it the 48-byte shadow of the word, for the race check and initcheck);
an aligned shared-memory word takes a fast path in the hook (bounds and the word's one shadow).
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy
from timing import best_of

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CUDA = r"""
extern "C" __global__ void swish(const float *x, float *y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        y[i] = x[i] / (1.0f + expf(-x[i]));
}

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ float block_sum(float v, float *scratch) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (int)threadIdx.x < warps ? scratch[threadIdx.x] : 0.0f;
    if (warp == 0) v = warp_sum(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}

extern "C" __global__ void layernorm(const float *x, const float *w, const float *b, float *y, int rows, int n) {
    __shared__ float scratch[32];
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *xr = x + (long long)r * n;
        float *yr = y + (long long)r * n;
        float s = 0.0f;
        for (int j = threadIdx.x; j < n; j += blockDim.x) s += xr[j];
        float mean = block_sum(s, scratch) / n;
        float v = 0.0f;
        for (int j = threadIdx.x; j < n; j += blockDim.x) v += (xr[j] - mean) * (xr[j] - mean);
        float rstd = rsqrtf(block_sum(v, scratch) / n + 1e-5f);
        for (int j = threadIdx.x; j < n; j += blockDim.x) yr[j] = (xr[j] - mean) * rstd * w[j] + b[j];
    }
}

extern "C" __global__ void softmax(const float *x, float *y, int rows, int n) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    int warps = (gridDim.x * blockDim.x) >> 5;
    for (int r = warp; r < rows; r += warps) {
        const float *xr = x + (long long)r * n;
        float *yr = y + (long long)r * n;
        float m = -INFINITY;
        for (int j = lane; j < n; j += 32) m = fmaxf(m, xr[j]);
        m = warp_max(m);
        float s = 0.0f;
        for (int j = lane; j < n; j += 32) s += expf(xr[j] - m);
        s = warp_sum(s);
        for (int j = lane; j < n; j += 32) yr[j] = expf(xr[j] - m) / s;
    }
}

extern "C" __global__ void tree_sum(const float *x, float *y, int rows, int n) {
    __shared__ float s[1024];
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float v = 0.0f;
        for (int j = threadIdx.x; j < n; j += blockDim.x) v += x[(long long)r * n + j];
        s[threadIdx.x] = v;
        __syncthreads();
        for (int k = blockDim.x / 2; k > 0; k >>= 1) {
            if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
            __syncthreads();
        }
        if (threadIdx.x == 0) y[r] = s[0];
        __syncthreads();
    }
}
"""

NATIVE = r"""
#include <math.h>
extern "C" void swish(const float *x, float *y, long long n) {
    for (long long i = 0; i < n; i++) y[i] = x[i] / (1.0f + expf(-x[i]));
}
extern "C" void layernorm(const float *x, const float *w, const float *b, float *y, int rows, int n) {
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (long long)r * n;
        float *yr = y + (long long)r * n;
        float s = 0.0f;
        for (int j = 0; j < n; j++) s += xr[j];
        float mean = s / n, v = 0.0f;
        for (int j = 0; j < n; j++) v += (xr[j] - mean) * (xr[j] - mean);
        float rstd = 1.0f / sqrtf(v / n + 1e-5f);
        for (int j = 0; j < n; j++) yr[j] = (xr[j] - mean) * rstd * w[j] + b[j];
    }
}
extern "C" void softmax(const float *x, float *y, int rows, int n) {
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (long long)r * n;
        float *yr = y + (long long)r * n;
        float m = -INFINITY, s = 0.0f;
        for (int j = 0; j < n; j++) m = fmaxf(m, xr[j]);
        for (int j = 0; j < n; j++) s += expf(xr[j] - m);
        for (int j = 0; j < n; j++) yr[j] = expf(xr[j] - m) / s;
    }
}
extern "C" void tree_sum(const float *x, float *y, int rows, int n) {
    for (int r = 0; r < rows; r++) {
        float v = 0.0f;
        for (int j = 0; j < n; j++) v += x[(long long)r * n + j];
        y[r] = v;
    }
}
"""


def _native():
    """The native loops, compiled with g++ -O2 (ctypes)."""
    folder = tempfile.mkdtemp(prefix="opsdk-bench-native-")
    src, lib = os.path.join(folder, "native.cpp"), os.path.join(folder, "native.so")
    Path(src).write_text(NATIVE)
    subprocess.run([os.environ.get("CXX", "g++"), "-O2", "-fPIC", "-shared", src, "-o", lib], check=True)
    return ctypes.CDLL(lib)


def _ptr(a):
    return ctypes.c_void_p(a.ctypes.data)


def cases(quick):
    """(label, size text, threads per block, simulated run, native run, check) of each row."""
    import cupy

    rng = numpy.random.default_rng(0)
    module = cupy.RawModule(code=CUDA)
    native = _native()
    i32, i64 = numpy.int32, numpy.int64
    out = []

    n = 1 << (16 if quick else 18)
    x = rng.standard_normal(n).astype(numpy.float32)
    dx, dy, hy = cupy.asarray(x), cupy.empty(n, cupy.float32), numpy.empty(n, numpy.float32)
    out.append(("swish", f"{n}", 256,
                lambda dx=dx, dy=dy: module.get_function("swish")((64,), (256,), (dx, dy, i64(n))),
                lambda x=x, hy=hy: native.swish(_ptr(x), _ptr(hy), ctypes.c_longlong(n)), (dy, hy)))

    rows, cols = (16, 1024) if quick else (64, 1024)
    x = rng.standard_normal((rows, cols)).astype(numpy.float32)
    w, b = rng.standard_normal(cols).astype(numpy.float32), rng.standard_normal(cols).astype(numpy.float32)
    dx, dw, db = cupy.asarray(x), cupy.asarray(w), cupy.asarray(b)
    for threads in (32, 128, 256, 1024):
        dy, hy = cupy.empty((rows, cols), cupy.float32), numpy.empty((rows, cols), numpy.float32)
        out.append(("layernorm", f"{rows}x{cols}", threads,
                    lambda t=threads, a=(dx, dw, db, dy, i32(rows), i32(cols)), g=min(rows, 64):
                    module.get_function("layernorm")((g,), (t,), a),
                    lambda a=(x, w, b, hy), r=rows, c=cols: native.layernorm(*map(_ptr, a), r, c), (dy, hy)))

    rows, cols = (256, 256) if quick else (1024, 256)
    x = rng.standard_normal((rows, cols)).astype(numpy.float32)
    dx, dy, hy = cupy.asarray(x), cupy.empty((rows, cols), cupy.float32), numpy.empty((rows, cols), numpy.float32)
    out.append(("softmax", f"{rows}x{cols}", 256,
                lambda a=(dx, dy, i32(rows), i32(cols)), g=min(rows // 8, 64): module.get_function("softmax")((g,), (256,), a),
                lambda a=(x, hy), r=rows, c=cols: native.softmax(*map(_ptr, a), r, c), (dy, hy)))

    rows, cols = (16, 4096) if quick else (64, 4096)
    x = rng.standard_normal((rows, cols)).astype(numpy.float32)
    dx, dy, hy = cupy.asarray(x), cupy.empty(rows, cupy.float32), numpy.empty(rows, numpy.float32)
    out.append(("tree_sum", f"{rows}x{cols}", 256,
                lambda a=(dx, dy, i32(rows), i32(cols)), g=min(rows, 64): module.get_function("tree_sum")((g,), (256,), a),
                lambda a=(x, hy), r=rows, c=cols: native.tree_sum(*map(_ptr, a), r, c), (dy, hy)))

    x = numpy.ones(1, numpy.float32)
    dx, dy, hy = cupy.asarray(x), cupy.empty(1, cupy.float32), numpy.empty(1, numpy.float32)
    out.append(("fixed_grid", "1", 256, lambda a=(dx, dy, i64(1)): module.get_function("swish")((64,), (256,), a),
                lambda a=(x, hy): native.swish(*map(_ptr, a), ctypes.c_longlong(1)), (dy, hy)))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    parser.add_argument("--check", action="store_true", help="also time the simulated opsdk check")
    options = parser.parse_args()
    if options.check:
        check_table()
    from opsdk.kernels import cudasim

    cudasim.install()
    repeats = 2 if options.quick else 3
    rows = []
    for label, size, threads, simulated, native, (got, want) in cases(options.quick):
        sim_s = best_of(simulated, repeats, clock=time.process_time)
        native_s = best_of(native, 5 * repeats, clock=time.process_time)
        error = float(numpy.abs(got.get() - want).max())
        rows.append((label, size, threads, sim_s, native_s, error))
    print("| kernel | size | threads/block | simulator | native loop (g++ -O2) | ratio |")
    print("|---|---|---|---|---|---|")
    for label, size, threads, sim_s, native_s, error in rows:
        assert error < 1e-3, f"{label}: the simulator and the native loop disagree by {error}"
        ratio = f"{sim_s / native_s:.0f}x" if native_s > 1e-5 else "-"
        print(f"| {label} | {size} | {threads} | {_fmt(sim_s)} | {_fmt(native_s)} | {ratio} |")


def _check_seconds(backend, simulated):
    """(wall, CPU) seconds of `opsdk check --backend BACKEND` over the first-party packs (a fresh
    process and its workers; CPU time moves less than wall time on a machine shared with other
    work)."""
    import resource
    env = dict(os.environ)
    env.pop("OPSDK_CUDA_SIM", None)
    if simulated:
        env["OPSDK_CUDA_SIM"] = "1"
    command = [sys.executable, "-c", "import sys; from opsdk.cli import main; sys.exit(main())", "check",
               "--backend", backend, "--no-progress", *[a for p in ("opsdk", "nn", "example") for a in ("--pack", p)]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"opsdk check --backend {backend} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return took, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def check_table():
    _check_seconds("cuda", True)  # warm-up: every simulated kernel built into the cache
    (python_s, python_cpu), (cuda_s, cuda_cpu) = _check_seconds("python", False), _check_seconds("cuda", True)
    print("| opsdk check of the first-party ops | wall time | CPU time |")
    print("|---|---|---|")
    print(f"| --backend python | {python_s:.1f} s | {python_cpu:.1f} s |")
    print(f"| --backend cuda, OPSDK_CUDA_SIM=1 | {cuda_s:.1f} s ({cuda_s / python_s:.1f}x python) | "
          f"{cuda_cpu:.1f} s ({cuda_cpu / python_cpu:.1f}x python) |")
    print()


def _fmt(seconds):
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
