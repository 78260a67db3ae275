"""Formula ops against hand-written kernels: `opsdk new-op --formula` C kernels vs opsdk-nn's, 1e7 float32.

Three formulas are written into a temporary pack exactly as `opsdk new-op NAME --formula EXPR
--backend c` writes them, then their value and grad kernels (forward + backward) are timed
against opsdk-nn's fused C kernels of the same activations (fwd + bwd), on one 1e7-element
float32 array, through Kernel dispatch (outputs from the same buffer pool). The python
kernels of the formula ops (NumPy) and, where installed, PyTorch's CPU forward + backward
give the scale. Times are medians of repeated runs, after a warm-up call.

Usage: python benchmarks/formula.py [--size 10000000] [--repeat 15] [--threads N]

Last results (2 CPU cores shared with other jobs, load average 2 to 4; gcc 12; medians of 21
runs, formula and opsdk-nn timed in turn), with --threads 1:

| op        | formula C (fwd+bwd) | opsdk-nn C | ratio | formula python | torch   |
|-----------|---------------------|------------|-------|----------------|---------|
| gelu_tanh |             6.96 ms |    6.36 ms |  1.09 |       256.2 ms | 57.5 ms |
| mish      |             8.23 ms |    7.30 ms |  1.13 |       450.0 ms | 93.0 ms |
| softplus  |            10.69 ms |   13.94 ms |  0.77 |       267.3 ms | 48.6 ms |

target: every ratio within 1.25: yes (earlier runs: 1.04-1.16 gelu_tanh, 1.06-1.17 mish,
0.92-0.99 softplus). With both threads, ratios swung between 0.85 and 1.5 from one run to the
next, in both directions (both sides run the same OpenMP chunking, opsdk/elementwise.h, so
that is the machine's other jobs taking a core, not the kernels): trust --threads 1 on a
shared machine.
"""
import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# (op, formula, the opsdk-nn activation, its parameters)
CASES = (
    ("gelu_tanh", "0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x**3)))", "gelu_tanh",
     {"p0": 0.0, "p1": 0.0}),
    ("mish", "x * tanh(log(1 + exp(x)))", "mish", {"p0": 0.0, "p1": 0.0}),
    ("softplus", "log(1 + exp(x))", "softplus", {"p0": 1.0, "p1": 20.0}),
)
TARGET = 1.25


def median_time(run, repeat):
    """Median seconds of ``run()`` after one warm-up call."""
    return median_times([run], repeat)[0]


def median_times(runs, repeat):
    """Median seconds of each of ``runs``, timed in turn (so a busy moment of a shared machine
    slows them all, not just one)."""
    for run in runs:
        run()
    times = [[] for _ in runs]
    for _ in range(repeat):
        for run, spent in zip(runs, times):
            started = time.perf_counter()
            run()
            spent.append(time.perf_counter() - started)
    return [statistics.median(spent) for spent in times]


def generate(root):
    """The formula ops, written into a pack under ``root``; {op: its Elementwise}."""
    from opsdk.scaffold import plan_op, plan_pack, write_plan

    write_plan(plan_pack("bench_formulas", root))
    for op, formula, _, _ in CASES:
        write_plan(plan_op(op, root, ("python", "c"), formula={"text": formula}))
    sys.path.insert(0, str(root / "src"))
    return {op: importlib.import_module(f"bench_formulas.ops.{op}").OP for op, *_ in CASES}


def torch_time(op, x, repeat):
    """PyTorch's forward + backward of the same activation, or None without torch."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    functions = {"gelu_tanh": lambda t: F.gelu(t, approximate="tanh"), "mish": F.mish, "softplus": F.softplus}
    t = torch.from_numpy(x).requires_grad_()
    seed = torch.ones_like(t)

    def run():
        t.grad = None
        functions[op](t).backward(seed)

    return median_time(run, repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--threads", type=int, default=None, help="OMP_NUM_THREADS for the C kernels")
    options = parser.parse_args()
    if options.threads is not None:
        os.environ["OMP_NUM_THREADS"] = str(options.threads)

    import numpy

    from opsdk_nn.kernels.activations import KERNELS

    x = numpy.random.default_rng(0).standard_normal(options.size).astype(numpy.float32) * 3
    dy = numpy.ones_like(x)
    rows, ratios = [], []
    with tempfile.TemporaryDirectory(prefix="opsdk-bench-formula-") as tmp:
        ops = generate(Path(tmp) / "pack")
        for op, _, activation, params in CASES:
            formula, hand = ops[op], KERNELS[activation]
            generated, nn = median_times([lambda: (formula.value_kernel(x), formula.grad_kernel(x, dy)),
                                          lambda: (hand.fwd(x, **params), hand.bwd(x, dy, **params))], options.repeat)
            python = median_time(lambda: (formula.value_kernel.run("python", x),
                                          formula.grad_kernel.run("python", x, dy)), max(3, options.repeat // 5))
            torch_seconds = torch_time(op, x, max(3, options.repeat // 3))
            ratios.append(generated / nn)
            rows.append((op, generated, nn, generated / nn, python, torch_seconds))
    print(f"1e{len(str(options.size)) - 1} float32, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'all')}\n")
    print("| op        | formula C (fwd+bwd) | opsdk-nn C | ratio | formula python | torch    |")
    print("|-----------|---------------------|------------|-------|----------------|----------|")
    for op, generated, nn, ratio, python, torch_seconds in rows:
        torch_text = "-" if torch_seconds is None else f"{torch_seconds * 1e3:.1f} ms"
        print(f"| {op:<9} | {generated * 1e3:>16.2f} ms | {nn * 1e3:>7.2f} ms | {ratio:5.2f} | "
              f"{python * 1e3:>11.1f} ms | {torch_text:>8} |")
    print(f"\ntarget: every ratio within {TARGET}: {'yes' if max(ratios) <= TARGET else 'NO'}")


if __name__ == "__main__":
    main()
