"""C kernels: first compile, cached load in a fresh process, and the cost of a call through dispatch.

Every compile and load runs in a fresh interpreter with its own empty cache directory
(OPSDK_CACHE_DIR in a temp dir), and times itself inside the child, after ``import opsdk.kernels``:
the first compile includes cffi's code generation, the compiler's ``--version`` probe and the
compile; the cached load includes computing the key (reading the source and headers), verifying the
entry's digest and loading the extension. Call costs are the best of several timeit repeats in
this process, on 16 float64.

Usage: python benchmarks/kernels.py [--runs 5] [--torch]
(--torch also times torch.utils.cpp_extension.load_inline on the same kernel: 20+ s.)

Last results (2 shared CPU cores, load average about 1.7, Python 3.11.7, gcc 12, cffi 2.0; medians):

| measurement                                                  | time    |
|--------------------------------------------------------------|---------|
| first compile (fresh process, empty cache)                   | 123 ms  |
| cached load (fresh process)                                  | 1.15 ms |
| fresh process: start + import + load + first call            | 161 ms  |
| bare cffi call, pointers made beforehand                     | 0.11 us |
| bare cffi call with ffi.from_buffer on x and y               | 0.34 us |
| adapter called directly (empty_like + 2 pointers)            | 0.89 us |
| kernel(x, alpha=2.0) through dispatch -> c                   | 1.52 us |
| declared adapter called directly (kernel.c(source, 'scale')) | 0.69 us |
| kernel(x, a=2.0) through dispatch -> c, declared adapter     | 1.17 us |
| kernel(x, alpha=2.0) through dispatch -> python              | 0.88 us |
| numpy x * 2.0                                                | 0.35 us |
| torch load_inline: first compile (earlier run)               | 25.8 s  |
| torch load_inline: import torch + cached load (earlier run)  | 1.66 s  |

All three targets are met: first compile < 0.5 s, cached load < 5 ms, a C kernel dispatched on
16 float64 < 2 us. The last one through the adapter the SDK writes from the C declaration
(`kernel.c(source, "scale")`): 1.17 us, of which the adapter is 0.69 us (the dtype's function
from one dict, the output from outputs.empty_like, two ffi.from_buffer pointers with a cached
ctype, the call; its shape and dtype checks are a few attribute compares, and a non-contiguous
or wrong input falls through to a checked path) and dispatch 0.48 us (the forced-backend
lookup, the plan lookup, forwarding the arguments). A hand-written adapter through dispatch
costs 1.52 us here (2.30 us in the earlier, busier run): dispatch checks every argument's dtype
and layout before calling it, and c_pointer looks the ctype up by name.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SCALE_C = """
#include <stdint.h>
void scale_f32(const float *x, float *y, int64_t n, float a) { for (int64_t i = 0; i < n; i++) y[i] = a * x[i]; }
void scale_f64(const double *x, double *y, int64_t n, double a) { for (int64_t i = 0; i < n; i++) y[i] = a * x[i]; }
"""
SCALE_CDEF = (
    "void scale_f32(const float *x, float *y, int64_t n, float a);"
    "void scale_f64(const double *x, double *y, int64_t n, double a);"
)

# run in a fresh interpreter: build (or load) scale.c, report the seconds build_c took
CHILD = """
import json, sys, time
started = time.perf_counter()
from opsdk.kernels import CSource, build_c
imported = time.perf_counter()
lib, ffi = build_c(CSource(sys.argv[1], cdef=sys.argv[2]))
built = time.perf_counter()
import numpy
x = numpy.ones(16)
y = numpy.empty_like(x)
lib.scale_f64(ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y, True), 16, 2.0)
print(json.dumps({"build": built - imported, "import": imported - started}))
"""

TORCH_CHILD = """
import json, sys, time
started = time.perf_counter()
import torch
from torch.utils.cpp_extension import load_inline
imported = time.perf_counter()
source = '''
torch::Tensor scale(torch::Tensor x, double a) { return x * a; }
'''
module = load_inline("opsdk_bench_scale", [source], functions=["scale"], verbose=False)
built = time.perf_counter()
module.scale(torch.ones(16, dtype=torch.float64), 2.0)
print(json.dumps({"build": built - imported, "import": imported - started}))
"""


def child(code, args, env):
    """Run code in a fresh interpreter; its JSON report and its wall time."""
    began = timeit.default_timer()
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1]), timeit.default_timer() - began


def measure_builds(runs):
    """Median first compile and cached load, each in fresh processes."""
    first, cached, fresh_total = [], [], []
    with tempfile.TemporaryDirectory(prefix="opsdk-bench-") as tmp:
        source = os.path.join(tmp, "scale.c")
        with open(source, "w") as f:
            f.write(SCALE_C)
        for run in range(runs):
            env = dict(os.environ, OPSDK_CACHE_DIR=os.path.join(tmp, f"cache{run}"), PYTHONPATH=str(REPO))
            report, _ = child(CHILD, [source, SCALE_CDEF], env)
            first.append(report["build"])
            report, wall = child(CHILD, [source, SCALE_CDEF], env)
            cached.append(report["build"])
            fresh_total.append(wall)
    return statistics.median(first), statistics.median(cached), statistics.median(fresh_total)


def measure_torch():
    """One run of load_inline: first compile, then a cached load, each in a fresh process."""
    with tempfile.TemporaryDirectory(prefix="opsdk-bench-torch-") as tmp:
        env = dict(os.environ, TORCH_EXTENSIONS_DIR=tmp)
        first, _ = child(TORCH_CHILD, [], env)
        cached, _ = child(TORCH_CHILD, [], env)
    return first["build"], cached["build"] + cached["import"]


def best_of(stmt, namespace, number=100_000, repeat=7):
    """Best per-call time of stmt in seconds."""
    return min(timeit.repeat(stmt, globals=namespace, number=number, repeat=repeat)) / number


def measure_calls():
    """Per-call times on 16 float64: bare cffi, adapter, dispatch to c and to python, numpy."""
    import numpy

    from opsdk.kernels import CSource, Kernel, c_pointer

    with tempfile.TemporaryDirectory(prefix="opsdk-bench-calls-") as tmp:
        os.environ["OPSDK_CACHE_DIR"] = tmp
        scale = Kernel("bench.scale")

        @scale.python
        def scale_python(x, *, alpha):
            return x * alpha

        @scale.c(CSource(code=SCALE_C, cdef=SCALE_CDEF))
        def scale_c(lib, ffi, x, *, alpha):
            y = numpy.empty_like(x)
            fn = lib.scale_f32 if x.dtype == numpy.float32 else lib.scale_f64
            fn(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size, alpha)
            return y

        # the same function through the adapter the SDK writes from its declaration
        declared = Kernel("bench.scale_declared").c(CSource(code=SCALE_C), "scale")  # scale_f64(x, y, n, a)

        x = numpy.ones(16)
        y = numpy.empty_like(x)
        lib, ffi = scale.build_c()
        scale(x, alpha=2.0)
        declared(x, a=2.0)
        (declared_adapter, *_), = declared._plans.values()
        ns = dict(scale=scale, scale_c=scale_c, lib=lib, ffi=ffi, x=x, y=y, declared=declared,
                  declared_adapter=declared_adapter,
                  px=ffi.from_buffer("double[]", x), py=ffi.from_buffer("double[]", y, True))
        rows = [
            ("bare cffi call, pointers made beforehand", best_of("lib.scale_f64(px, py, 16, 2.0)", ns)),
            ("bare cffi call with ffi.from_buffer on x and y", best_of(
                'lib.scale_f64(ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y, True), 16, 2.0)', ns)),
            ("adapter called directly (empty_like + 2 pointers)", best_of("scale_c(lib, ffi, x, alpha=2.0)", ns)),
            ("kernel(x, alpha=2.0) through dispatch -> c", best_of("scale(x, alpha=2.0)", ns)),
            ("declared adapter called directly (kernel.c(source, 'scale'))", best_of("declared_adapter(x, a=2.0)", ns)),
            ("kernel(x, a=2.0) through dispatch -> c, declared adapter", best_of("declared(x, a=2.0)", ns)),
        ]
        scale._impls.pop("c")  # a python-only kernel: the same dispatch, the other backend
        scale._plans = {}
        rows.append(("kernel(x, alpha=2.0) through dispatch -> python", best_of("scale(x, alpha=2.0)", ns)))
        rows.append(("numpy x * 2.0", best_of("x * 2.0", ns)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh-process runs per build measurement")
    parser.add_argument("--torch", action="store_true", help="also time torch load_inline (20+ s)")
    options = parser.parse_args()

    first, cached, fresh_total = measure_builds(options.runs)
    rows = [
        ("first compile (fresh process, empty cache)", f"{first * 1e3:.0f} ms"),
        ("cached load (fresh process)", f"{cached * 1e3:.2f} ms"),
        ("fresh process: start + import + load + first call", f"{fresh_total * 1e3:.0f} ms"),
    ]
    calls = measure_calls()
    rows += [(name, f"{seconds * 1e6:.2f} us") for name, seconds in calls]
    dispatched = dict(calls)["kernel(x, a=2.0) through dispatch -> c, declared adapter"]
    if options.torch:
        try:
            import torch  # noqa: F401
        except ImportError:
            rows.append(("torch load_inline", "skipped: torch is not installed"))
        else:
            t_first, t_cached = measure_torch()
            rows.append(("torch load_inline: first compile", f"{t_first:.1f} s"))
            rows.append(("torch load_inline: import torch + cached load", f"{t_cached:.2f} s"))
    width = max(len(name) for name, _ in rows)
    print(f"| {'measurement':<{width}} | time       |")
    print(f"|{'-' * (width + 2)}|------------|")
    for name, value in rows:
        print(f"| {name:<{width}} | {value:<10} |")
    print(f"\ntargets: first compile < 500 ms: {'yes' if first < 0.5 else 'NO'}; "
          f"cached load < 5 ms: {'yes' if cached < 0.005 else 'NO'}; "
          f"dispatch to c < 2 us: {'yes' if dispatched < 2e-6 else 'NO'}")


if __name__ == "__main__":
    main()
