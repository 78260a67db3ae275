"""Test and benchmark the opsdk-nn CUDA kernels on a GPU, in one run.

    python plugins/opsdk-nn/gpu_check.py                 # build, test, benchmark (1e8 float32)
    python plugins/opsdk-nn/gpu_check.py --n 10000000 --markdown table.md

1. builds every CUDA source with CuPy (NVRTC) and reports the compile time;
2. tests: the pack's GPU tests (tests/test_gpu.py: every op on the cuda backend against the
   float64 python kernel) and ``opsdk check --pack nn --backend cuda`` (gradcheck,
   gradgradcheck, backend agreement, protocol and engine checks);
3. benchmarks each elementwise kernel (forward, backward, double backward) as bandwidth against
   the device-to-device copy bandwidth measured in the same run (target: >= 60%), and every
   op's forward + backward against the composed CuPy version (the python kernel on the GPU).

Exit status: 0 when everything passed, 1 on any failure, 2 when no GPU is usable here.
"""
import argparse
import os
import sys
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the pack itself when it is not installed

TARGET = 0.60  # elementwise kernels vs device-to-device copy


def _device_line(cupy):
    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    return (f"{name}, {props['multiProcessorCount']} SMs, {props['totalGlobalMem'] / 2**30:.0f} GiB, "
            f"CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, CuPy {cupy.__version__}")


def build(sources):
    """Compile every CUDA module; return (ok, lines)."""
    from opsdk.kernels.cuda import load_module

    ok, lines = True, []
    for source in sources:
        start = time.perf_counter()
        try:
            module = load_module(source, os.path.basename(source.path))
            for name in source.names:
                module.get_function(name)  # forces the compile and checks every kernel exists
            lines.append(f"  built {os.path.basename(source.path):<18} {time.perf_counter() - start:6.2f} s")
        except Exception as error:  # report every broken source, not just the first
            ok = False
            lines.append(f"  FAILED {os.path.basename(source.path)}: {type(error).__name__}: {error}")
    return ok, lines


def run_pytest():
    """The pack's GPU tests; returns pytest's exit code."""
    import pytest

    return pytest.main(["-q", "-m", "gpu", "-p", "no:cacheprovider", os.path.join(HERE, "tests", "test_gpu.py")])


def run_opsdk_check():
    """``opsdk check --pack nn --backend cuda``; returns (ok, summary lines)."""
    import opsdk
    from opsdk.check import ERROR, FAIL, plan_cases, run_checks, select_ops

    if not opsdk.plugins.get_registry().has_pack("nn"):
        from opsdk_nn import plugin

        opsdk.plugins.register_pack(plugin, name="nn")
    ops, failures = select_ops(packs=["nn"])
    results = run_checks(plan_cases(ops, backends=["cuda"]), failures)
    bad = [r for r in results if r.status in (FAIL, ERROR)]
    counts = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    lines = [f"  opsdk check --backend cuda: {counts}"]
    lines += [f"  {r.status.upper()} {r.op}[{r.backend}-{r.dtype}-{r.check}]: {r.detail.splitlines()[0] if r.detail else ''}"
              for r in bad]
    return not bad, lines


def gpu_ms(cupy, fn, repeat):
    """Mean milliseconds per call of fn() over ``repeat`` calls, timed with CUDA events."""
    fn()
    cupy.cuda.Device().synchronize()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    for _ in range(repeat):
        fn()
    end.record()
    end.synchronize()
    return cupy.cuda.get_elapsed_time(start, end) / repeat


def copy_gbs(cupy, n, repeat):
    """Device-to-device copy bandwidth (read + write) in GB/s on n float32."""
    x = cupy.ones(n, cupy.float32)
    y = cupy.empty_like(x)
    ms = gpu_ms(cupy, lambda: y.data.copy_from_device(x.data, x.nbytes), repeat)
    return 2 * x.nbytes / (ms * 1e-3) / 1e9


def bench_elementwise(cupy, n, repeat, copy):
    """Rows (kernel, stage, ms, GB/s, % of copy, composed-CuPy ms) for every activation kernel."""
    from opsdk_nn.kernels.activations import KERNELS

    rng = cupy.random.default_rng(0)
    x = rng.standard_normal(n, dtype=cupy.float32)
    dy, g = cupy.ones_like(x), cupy.ones_like(x)
    rows = []
    for act, kernels in KERNELS.items():
        for stage, kernel, arrays, moved in (("fwd", kernels.fwd, (x,), 2), ("bwd", kernels.bwd, (x, dy), 3),
                                             ("bwd2", kernels.bwd2, (x, dy, g), 5)):
            params = {"p0": 1.0, "p1": 20.0}
            ms = gpu_ms(cupy, lambda: kernel.run("cuda", *arrays, **params), repeat)
            composed = gpu_ms(cupy, lambda: kernel.run("python", *arrays, **params), max(repeat // 4, 1))
            gbs = moved * 4 * n / (ms * 1e-3) / 1e9
            rows.append((act, stage, ms, gbs, gbs / copy, composed))
    return rows


def bench_ops(cupy, n, repeat):
    """Rows (op, cuda ms, composed-CuPy ms) for forward + backward of every op through opsdk."""
    import opsdk
    from opsdk.kernels import use_backend
    from opsdk_nn import functional as F

    width = 1000
    rows_n = max(n // width, 1)
    rng = numpy.random.default_rng(0)
    m = rng.standard_normal((rows_n, width)).astype(numpy.float32)
    w = rng.uniform(0.5, 1.5, width).astype(numpy.float32)
    labels = rng.integers(0, width, rows_n)
    cases = [
        ("gelu", lambda t: F.gelu(t), [m]), ("silu", F.silu, [m]), ("mish", F.mish, [m]),
        ("softmax", F.softmax, [m]), ("log_softmax", F.log_softmax, [m]),
        ("layer_norm", lambda t, wt, bt: F.layer_norm(t, width, wt, bt), [m, w, w]),
        ("rms_norm", lambda t, wt: F.rms_norm(t, width, wt), [m, w]),
        ("cross_entropy", F.cross_entropy, [m, labels]),
    ]
    out = []
    for name, call, arrays in cases:
        tensors = [opsdk.to_tensor(a, place="gpu", stop_gradient=a.dtype.kind != "f") for a in arrays]
        inputs = [t for t in tensors if not t.stop_gradient]

        def step():
            y = call(*tensors)
            opsdk.grad([y], inputs, grad_outputs=None if y.ndim == 0 else [opsdk.ones_like(y)])

        times = []
        for backend in ("cuda", "python"):
            with use_backend(backend):
                times.append(gpu_ms(cupy, step, repeat))
        out.append((name, *times))
    return out


def tables(device, copy, elementwise, ops, n):
    """The report as markdown lines."""
    lines = [f"GPU: {device}", f"n = {n:.0e} float32; device-to-device copy: {copy:.0f} GB/s", "",
             "| kernel | stage | ms | GB/s | % of copy | composed CuPy ms | speedup |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for act, stage, ms, gbs, frac, composed in elementwise:
        lines.append(f"| {act} | {stage} | {ms:.3f} | {gbs:.0f} | {100 * frac:.0f}% | {composed:.3f} | {composed / ms:.1f}x |")
    lines += ["", "| op (fwd+bwd, [n/1000, 1000]) | cuda ms | composed CuPy ms | speedup |", "| --- | ---: | ---: | ---: |"]
    for name, cuda_ms, py_ms in ops:
        lines.append(f"| {name} | {cuda_ms:.3f} | {py_ms:.3f} | {py_ms / cuda_ms:.1f}x |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000_000, help="elements per benchmark input (default 1e8)")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--skip-tests", action="store_true", help="benchmark only")
    parser.add_argument("--markdown", metavar="FILE", help="also write the benchmark tables to FILE")
    args = parser.parse_args(argv)

    from opsdk.kernels import cuda_status

    available, why = cuda_status()
    if not available:
        print(f"gpu_check: no usable GPU here: {why}")
        return 2
    import cupy

    from opsdk_nn.kernels.sources import CUDA_SOURCES

    device = _device_line(cupy)
    print(f"GPU: {device}")
    ok, lines = build(CUDA_SOURCES)
    print("\n".join(lines))
    if ok and not args.skip_tests:
        print("tests (tests/test_gpu.py):")
        ok = run_pytest() == 0 and ok
        check_ok, lines = run_opsdk_check()
        print("\n".join(lines))
        ok = ok and check_ok
    if not ok:
        print("gpu_check: FAILED (benchmark skipped)")
        return 1
    copy = copy_gbs(cupy, args.n, args.repeat)
    elementwise = bench_elementwise(cupy, args.n, args.repeat, copy)
    ops = bench_ops(cupy, args.n, max(args.repeat // 4, 2))
    report = tables(device, copy, elementwise, ops, args.n)
    print("\n".join(report))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(report) + "\n")
    slow = [f"{act} {stage}" for act, stage, _, _, frac, _ in elementwise if frac < TARGET]
    if slow:
        print(f"gpu_check: below {TARGET:.0%} of the copy bandwidth: {', '.join(slow)}")
    print("gpu_check: PASSED" + (" (speed target missed, see above)" if slow else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
