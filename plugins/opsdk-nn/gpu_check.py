"""Every CUDA kernel of opsdk on a GPU in one run, beside the CUDA simulator's verdicts.

    python plugins/opsdk-nn/gpu_check.py                      # on a GPU: verdicts, tests, benchmark
    python plugins/opsdk-nn/gpu_check.py --simulate           # the same verdicts on the CPU simulator
    python plugins/opsdk-nn/gpu_check.py --simulate --write-reference   # re-records the simulator's table

1. builds every CUDA source of every pack (the SDK's built-in ops, opsdk-example, opsdk-nn, and a
   pack `opsdk new-pack` / `opsdk new-op` generate) and reports the compile time;
2. verdicts: every CUDA kernel against its python kernel at sizes 1 to past a full grid, float32 and
   float64, contiguous and strided (opsdk.kernels.cudasim.differential); ``opsdk check
   --backend cuda`` of every op; every ``gpu``-marked test of the repository;
3. prints one table: each verdict here beside the simulator's, as recorded in
   gpu_check_simulated.md (written by ``--simulate --write-reference``), and says where they differ;
   then the prebuilt section (prebuilt_check.py): a kernel run from the PTX and the cubin nvcc
   compiles ahead of time, as a pack's wheel ships them, against the same kernel compiled from
   source (with --simulate: the loader's choice of file, and the simulator taking the source);
4. foreign ops on the GPU: ``opsdk check --op ... --backend cuda`` of one torch, one JAX and one
   Paddle op of tests/foreign (the framework on the GPU, fed CuPy arrays by DLPack, held to the
   same framework on the CPU), one process and one table row per framework; a framework without
   a GPU build here is a skipped row, with the reason (and every row is, under --simulate);
5. on a GPU, benchmarks each elementwise kernel as bandwidth against the device-to-device copy
   (target: >= 60%) and every op's forward + backward against the composed CuPy version.

Exit status: 0 when everything passed, 1 on any failure, 2 when no GPU is usable here (and
--simulate was not given).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)  # the pack itself when it is not installed
REFERENCE = os.path.join(HERE, "gpu_check_simulated.md")
TEMPLATE_PACK = "gpucheck_tpl"

TARGET = 0.60  # elementwise kernels vs device-to-device copy


def _device_line(cupy):
    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    return (f"{name}, {props['multiProcessorCount']} SMs, {props['totalGlobalMem'] / 2**30:.0f} GiB, "
            f"CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, CuPy {cupy.__version__}")


# -- the packs ----------------------------------------------------------------------------------

def generated_pack(folder):
    """Register a pack made by new-pack + new-op (python, C and CUDA kernels) from ``folder``:
    the default op, and one of each ``--kind`` and a ``--formula`` op where new-op has them."""
    import inspect

    import opsdk.plugins
    from opsdk.scaffold import plan_op, plan_pack, read_answers, write_plan

    root = os.path.join(folder, TEMPLATE_PACK)
    backends = ("python", "c", "cuda")
    write_plan(plan_pack(TEMPLATE_PACK, root))
    write_plan(plan_op("smooth", root, backends))
    offered = inspect.signature(plan_op).parameters
    if "kind" in offered:
        for kind in ("multi", "rows"):
            write_plan(plan_op(f"smooth_{kind}", root, backends, kind=kind))
    if "formula" in offered:
        formula = {"text": "x*y + sin(x)*exp(-y*y/2)", "inputs": ["x", "y"], "attrs": {}}
        write_plan(plan_op("formula_xy", root, backends, formula=formula))
    sys.path.insert(0, os.path.join(root, "src"))
    opsdk.plugins.register_pack(read_answers(root)["pack"]["package"], name=TEMPLATE_PACK)


def cuda_ops(only=()):
    """Every registered op with a CUDA kernel (only the named ones when ``only`` is given)."""
    from opsdk.check import select_ops

    ops, failures = select_ops(only or None)
    for failure in failures:
        print(f"  pack {failure.pack} failed to load: {failure.error}")
    return [op for op in ops if any("cuda" in k.backends for k in op.kernels)], failures


def build(ops):
    """Compile every CUDA source of the ops; return (ok, lines)."""
    from opsdk.kernels.cuda import load_module

    ok, lines, seen = True, [], set()
    for op in ops:
        for kernel in op.kernels:
            source = kernel.sources.get("cuda")
            if source is None or id(source) in seen:
                continue
            seen.add(id(source))
            label = os.path.basename(source.path) if source.path else source.display_name
            start = time.perf_counter()
            try:
                module = load_module(source, kernel.name)
                for name in source.names:
                    module.get_function(name)  # forces the compile and checks every kernel exists
                lines.append(f"  built {label:<24} {time.perf_counter() - start:6.2f} s")
            except Exception as error:  # report every broken source, not just the first
                ok = False
                lines.append(f"  FAILED {label}: {type(error).__name__}: {str(error).splitlines()[0]}")
    return ok, lines


# -- verdicts -------------------------------------------------------------------------------------

def kernel_verdicts(ops):
    """{"kernel <name>": verdict} of every CUDA kernel over every size, dtype and layout."""
    from opsdk.verification.check.cuda_cases import cases
    from opsdk.kernels.cudasim.differential import case_sizes, run_case

    verdicts = {}
    for op in ops:
        for case in cases(op):
            key = f"kernel {case.kernel.name}"
            failures = run_case(case)
            done, bad = verdicts.get(key, (0, []))
            bad = bad + [f"{case.label} size {size}: {why.splitlines()[0]}" for size, why in failures]
            verdicts[key] = (done + len(case_sizes(case)), bad)
    return {key: f"pass ({runs} runs)" if not bad else f"FAIL: {bad[0][:160]}"
            for key, (runs, bad) in sorted(verdicts.items())}


def check_verdicts(ops, failures):
    """{"check <op> <dtype>": verdict} of ``opsdk check --backend cuda`` (every check of each op)."""
    from opsdk.check import FAIL, ERROR, plan_cases, run_checks

    out = {}
    for result in run_checks(plan_cases(ops, backends=["cuda"]), failures):
        key = f"check {result.op} {result.dtype}"
        passed, bad = out.get(key, (0, []))
        if result.status in (FAIL, ERROR):
            bad = bad + [f"{result.check}: {(result.detail or '').strip().splitlines()[0][:120]}"]
        elif result.status == "pass":
            passed += 1
        out[key] = (passed, bad)
    return {key: f"pass ({passed} checks)" if not bad else f"FAIL {bad[0]}" for key, (passed, bad) in sorted(out.items())}


def gpu_test_verdicts(simulate):
    """{"test <node id>": verdict} of every ``gpu``-marked test of the repository (pytest, junit)."""
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        report = os.path.join(tmp, "gpu.xml")
        command = [sys.executable, "-m", "pytest", "-q", "-m", "gpu", "-p", "no:cacheprovider",
                   f"--junitxml={report}", *(["--opsdk-cuda-sim"] if simulate else [])]
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
        if not os.path.exists(report):
            return {"test (pytest -m gpu)": f"FAIL: pytest exited {done.returncode}: {done.stdout[-300:]}"}
        verdicts = {}
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            name = f"test {case.get('classname', '').replace('.', '/')}::{case.get('name')}"
            if case.find("failure") is not None or case.find("error") is not None:
                problem = case.find("failure") if case.find("failure") is not None else case.find("error")
                verdict = f"FAIL: {(problem.get('message') or '').splitlines()[0][:160] if problem.get('message') else ''}"
            elif case.find("skipped") is not None:
                verdict = "skipped"
            else:
                verdict = "pass"
            verdicts[name] = verdict
        return verdicts


# -- foreign ops: torch, JAX and Paddle on the GPU -------------------------------------------------

# (module:attr from tests/, the op) of each framework's foreign pack: a correct op each
FOREIGN = {"torch": ("foreign.torch_ops:CORRECT", "torchpack.swish"),
           "jax": ("foreign.jax_ops:CORRECT", "jaxpack.swish"),
           "paddle": ("foreign.paddle_ops:CORRECT", "paddlepack.center_rows")}
FOREIGN_TIMEOUT = 900


def _foreign_verdict(report):
    """A row's verdict from the JSON report of one foreign op's cuda checks."""
    results = report.get("results", [])
    bad = [r for r in results if r["status"] in ("fail", "error", "blocked")]
    if bad:
        first = (bad[0]["detail"] or "").strip().splitlines()
        return f"FAIL {bad[0]['dtype']} {bad[0]['check']}: {first[0][:160] if first else ''}"
    passed = [r for r in results if r["status"] == "pass"]
    if not passed:
        skipped = [r for r in results if r["status"] == "skip"]
        why = (skipped[0]["detail"] or "").splitlines()[0] if skipped else "no check ran"
        return f"skipped: {why[:240]}"
    n_a = sum(r["status"] == "n/a" for r in results)
    return f"pass ({len(passed)} checks, {n_a} n/a)"


def foreign_verdicts(simulate):
    """{framework: (op, verdict)} of ``opsdk check --op ... --backend cuda``, one process per
    framework (their GPU builds need not share one)."""
    import importlib.util

    out = {}
    for framework, (spec, op) in FOREIGN.items():
        if importlib.util.find_spec(framework) is None:
            out[framework] = (op, f"skipped: {framework} is not installed")
            continue
        command = [sys.executable, "-m", "opsdk.cli", "check", "--op", spec, op, "--backend",
                   "cuda", "--json", "--no-progress", "-j", "1", *(["--simulate"] if simulate else [])]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [os.path.join(REPO, "tests"), REPO] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        start = time.perf_counter()
        try:
            done = subprocess.run(command, cwd=os.path.join(REPO, "tests"), env=env,
                                  capture_output=True, text=True, timeout=FOREIGN_TIMEOUT)
            report = json.loads(done.stdout)
        except subprocess.TimeoutExpired:
            out[framework] = (op, f"FAIL: no verdict within {FOREIGN_TIMEOUT} s")
            continue
        except ValueError:
            tail = (done.stderr or done.stdout).strip().splitlines()
            out[framework] = (op, f"FAIL: exit {done.returncode}: {tail[-1][:200] if tail else ''}")
            continue
        seconds = time.perf_counter() - start
        out[framework] = (op, f"{_foreign_verdict(report)}, {seconds:.0f} s")
    return out


def foreign_table(verdicts):
    """The foreign ops' rows as markdown lines."""
    lines = ["| framework | op | opsdk check --op ... --backend cuda |", "| --- | --- | --- |"]
    lines += [f"| {framework} | {op} | {verdict.replace('|', '/')} |"
              for framework, (op, verdict) in verdicts.items()]
    return lines


# -- the table ------------------------------------------------------------------------------------

def read_reference(path=REFERENCE):
    """{item: verdict} of the simulator's recorded table (empty when there is none)."""
    verdicts = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return verdicts
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0] not in ("item", "---") and not cells[0].startswith("-"):
            verdicts[cells[0]] = cells[1]
    return verdicts


def _word(verdict):
    return verdict.split(" ", 1)[0].rstrip(":") if verdict else "-"


def table(verdicts, simulated, reference):
    """The report as markdown lines: one row per verdict, the simulator's beside it."""
    if simulated:
        lines = ["| item | simulator |", "| --- | --- |"]
        lines += [f"| {item} | {verdict.replace('|', '/')} |" for item, verdict in verdicts.items()]
        return lines
    lines = ["| item | GPU | simulator (recorded) | agree |", "| --- | --- | --- | --- |"]
    for item in sorted(set(verdicts) | set(reference)):
        here, there = verdicts.get(item, "-"), reference.get(item, "-")
        agree = "yes" if _word(here) == _word(there) else "NO"
        lines.append(f"| {item} | {here.replace('|', '/')} | {there.replace('|', '/')} | {agree} |")
    return lines


# -- benchmarks (a real GPU only: the simulator is not a benchmark) ------------------------------------

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
    from opsdk_nn.kernels.activations import OPS

    rng = cupy.random.default_rng(0)
    x = rng.standard_normal(n, dtype=cupy.float32)
    dy, g = cupy.ones_like(x), cupy.ones_like(x)
    rows = []
    for act, op in OPS.items():
        for stage, kernel, arrays, moved in (("fwd", op.value_kernel, (x,), 2), ("bwd", op.grad_kernel, (x, dy), 3),
                                             ("bwd2", op.grad2_kernel, (x, dy, g), 5)):
            params = {"beta": 1.0, "threshold": 20.0} if act == "softplus" else {}
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
        ("rms_norm", lambda t, wt: F.rms_norm(t, width, wt)[0], [m, w]),
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


def bench_tables(device, copy, elementwise, ops, n):
    """The benchmark as markdown lines."""
    lines = [f"GPU: {device}", f"n = {n:.0e} float32; device-to-device copy: {copy:.0f} GB/s", "",
             "| kernel | stage | ms | GB/s | % of copy | composed CuPy ms | speedup |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for act, stage, ms, gbs, frac, composed in elementwise:
        lines.append(f"| {act} | {stage} | {ms:.3f} | {gbs:.0f} | {100 * frac:.0f}% | {composed:.3f} | {composed / ms:.1f}x |")
    lines += ["", "| op (fwd+bwd, [n/1000, 1000]) | cuda ms | composed CuPy ms | speedup |", "| --- | ---: | ---: | ---: |"]
    for name, cuda_ms, py_ms in ops:
        lines.append(f"| {name} | {cuda_ms:.3f} | {py_ms:.3f} | {py_ms / cuda_ms:.1f}x |")
    return lines


# -- main -------------------------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulate", action="store_true", help="run on opsdk's CPU CUDA simulator")
    parser.add_argument("--write-reference", action="store_true",
                        help=f"with --simulate: record the table in {os.path.basename(REFERENCE)}")
    parser.add_argument("--ops", nargs="*", default=(), help="only these ops (pack.op)")
    parser.add_argument("--n", type=int, default=100_000_000, help="elements per benchmark input (default 1e8)")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--skip-tests", action="store_true", help="no pytest -m gpu run")
    parser.add_argument("--skip-bench", action="store_true", help="no benchmark")
    parser.add_argument("--skip-prebuilt", action="store_true", help="no prebuilt PTX/cubin section")
    parser.add_argument("--skip-foreign", action="store_true",
                        help="no foreign-op section (torch, JAX, Paddle on the GPU)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the tables to FILE")
    args = parser.parse_args(argv)

    if args.simulate:
        from opsdk.kernels import cudasim

        cudasim.install()
    from opsdk.kernels import cuda_status

    available, why = cuda_status()
    if not available:
        print(f"gpu_check: no usable GPU here: {why} (--simulate runs the checks on the CPU simulator)")
        return 2
    import cupy

    device = _device_line(cupy)
    print(f"{'simulated ' if args.simulate else ''}GPU: {device}")
    with tempfile.TemporaryDirectory(prefix="gpu-check-pack-") as folder:
        if not args.ops:
            generated_pack(folder)
        ops, failures = cuda_ops(tuple(args.ops))
        ok, lines = build(ops)
        print("\n".join(lines))
        verdicts = {}
        if ok:
            print(f"kernels: {len(ops)} ops ...")
            verdicts.update(kernel_verdicts(ops))
            print("opsdk check --backend cuda ...")
            verdicts.update(check_verdicts(ops, failures))
        if ok and not args.skip_tests:
            print("pytest -m gpu ...")
            verdicts.update(gpu_test_verdicts(args.simulate))
    report = table(verdicts, args.simulate, {} if args.simulate else read_reference())
    title = f"# CUDA verdicts ({'simulated: ' if args.simulate else ''}{device})"
    print("\n".join([title, ""] + report))
    failed = [item for item, verdict in verdicts.items() if verdict.startswith("FAIL")]
    prebuilt = {}
    if ok and not args.skip_prebuilt:
        import prebuilt_check

        prebuilt = prebuilt_check.verdicts(args.simulate)
        print("\n".join(["", "## prebuilt PTX and cubins", ""] + [f"- {k}: {v}" for k, v in prebuilt.items()]))
        failed += [item for item, verdict in prebuilt.items() if verdict.startswith("FAIL")]
    foreign = {}
    if not args.skip_foreign:
        print("opsdk check --op ... --backend cuda (foreign ops) ...")
        foreign = foreign_verdicts(args.simulate)
        print("\n".join(["", "## foreign ops on the GPU", ""] + foreign_table(foreign)))
        failed += [f"foreign {fw}" for fw, (_, verdict) in foreign.items() if verdict.startswith("FAIL")]
    if args.simulate and args.write_reference:
        with open(REFERENCE, "w", encoding="utf-8") as f:
            f.write("\n".join([title.replace(device, "opsdk CUDA simulator"), "",
                               "Written by `python plugins/opsdk-nn/gpu_check.py --simulate --write-reference`;",
                               "a GPU run of the script prints its own verdicts beside these.", ""] + report) + "\n")
        print(f"gpu_check: recorded {len(verdicts)} verdicts in {REFERENCE}")
    if not args.simulate:
        differ = [line for line in report if line.endswith("| NO |")]
        if differ:
            print(f"gpu_check: {len(differ)} verdict(s) differ from the simulator's (see 'agree')")
    extra = []
    if ok and not failed and not args.simulate and not args.skip_bench:
        copy = copy_gbs(cupy, args.n, args.repeat)
        elementwise = bench_elementwise(cupy, args.n, args.repeat, copy)
        extra = bench_tables(device, copy, elementwise, bench_ops(cupy, args.n, max(args.repeat // 4, 2)), args.n)
        print("\n".join(extra))
        slow = [f"{act} {stage}" for act, stage, _, _, frac, _ in elementwise if frac < TARGET]
        if slow:
            print(f"gpu_check: below {TARGET:.0%} of the copy bandwidth: {', '.join(slow)}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join([title, ""] + report + [""] + [f"- {k}: {v}" for k, v in prebuilt.items()] + [""]
                              + (foreign_table(foreign) + [""] if foreign else []) + extra) + "\n")
    if not ok or failed:
        print(f"gpu_check: FAILED ({len(failed)} verdict(s) failed)" if ok else "gpu_check: FAILED (build)")
        return 1
    print("gpu_check: PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
