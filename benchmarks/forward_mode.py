"""Forward mode (a jvp) of example.swish: opsdk's own engine, and the op exported to PyTorch and
JAX, against the same maths written natively in each framework (their own forward mode).

One jvp call (value and tangent), float64, two sizes (1e5 elements; 16 elements, the per-call
cost). The exported op's tangent is computed by opsdk's forward mode on the host (the
double-vjp construction over the op's backward kernels), so it is expected to cost a few
forward/backward passes of the op; the native rows are the frameworks' own jvp of
``x * sigmoid(1.5 x)``. Cases run interleaved per round (see benchmarks/interop.py); a ratio is
the median over rounds of the two cases' times in the same round.

Usage: python benchmarks/forward_mode.py [--rounds 9] [--frameworks torch,jax]
"""
import argparse
import random

import numpy as np

import opsdk
from interop import available, measure, ratio

BETA = 1.5
SIZES = ((100_000, 3, "ms", 1e3), (16, 100, "us", 1e6))
BASE = "opsdk: opsdk.autograd.jvp(Swish.apply)"


def opsdk_cases(x, v):
    from opsdk_example.swish import Swish

    t, tv = opsdk.to_tensor(x), opsdk.to_tensor(v)
    return {BASE: lambda: opsdk.autograd.jvp(lambda a: Swish.apply(a, BETA), t, tv)}


def torch_cases(x, v):
    import torch

    swish = opsdk.interop.torch.op("example.swish")
    xt, vt = torch.from_numpy(x), torch.from_numpy(v)
    return {"torch: torch.func.jvp of opsdk.interop.torch.op":
                lambda: torch.func.jvp(lambda a: swish(a, beta=BETA), (xt,), (vt,)),
            "torch: torch.func.jvp of the maths as torch ops":
                lambda: torch.func.jvp(lambda a: a * torch.sigmoid(BETA * a), (xt,), (vt,))}


def jax_cases(x, v):
    import jax

    swish = opsdk.interop.jax.op("example.swish")
    xj, vj = jax.numpy.asarray(x), jax.numpy.asarray(v)

    def jvp_of(f):
        step = jax.jit(lambda a, b: jax.jvp(f, (a,), (b,)))
        return lambda: jax.block_until_ready(step(xj, vj))

    return {"jax: jax.jvp of opsdk.interop.jax.op, jitted": jvp_of(lambda a: swish(a, beta=BETA)),
            "jax: jax.jvp of the maths as jax ops, jitted":
                jvp_of(lambda a: a * jax.nn.sigmoid(BETA * a))}


FRAMEWORKS = {"torch": torch_cases, "jax": jax_cases}
# each exported op's jvp against the framework's own jvp of the same maths
PAIRS = {"torch: torch.func.jvp of opsdk.interop.torch.op":
         "torch: torch.func.jvp of the maths as torch ops",
         "jax: jax.jvp of opsdk.interop.jax.op, jitted": "jax: jax.jvp of the maths as jax ops, jitted"}


def report(times, size, unit, scale):
    print(f"\nexample.swish jvp, {size} float64 ({unit} per call)\n")
    print("| path | best | median | vs opsdk (median, p10-p90) | vs native (median, p10-p90) |")
    print("|---|---|---|---|---|")
    for name, ts in times.items():
        versus = "" if name == BASE else "%.2fx (%.2f-%.2f)" % ratio(times, name, BASE)
        native = "%.2fx (%.2f-%.2f)" % ratio(times, name, PAIRS[name]) if name in PAIRS else ""
        print(f"| {name} | {min(ts) * scale:.3g} | {np.median(ts) * scale:.3g} | {versus} | {native} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--frameworks", default="torch,jax")
    args = parser.parse_args()
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
    except ImportError:
        pass
    frameworks = [FRAMEWORKS[f] for f in args.frameworks.split(",") if f and available(f)]
    data = np.random.default_rng(0)
    for size, number, unit, scale in SIZES:
        x, v = data.standard_normal(size), data.standard_normal(size)
        cases = opsdk_cases(x, v)
        for make in frameworks:
            cases.update(make(x, v))
        report(measure(cases, number, args.rounds, random.Random(size)), size, unit, scale)


if __name__ == "__main__":
    main()
