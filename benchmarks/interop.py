"""example.swish through opsdk.interop: PyTorch, JAX and Paddle against opsdk and each
framework's own maths.

Forward + backward with a given output gradient, float32, two sizes:
- 1e6 elements: the C kernels called from opsdk (Swish.apply + opsdk.grad), the same kernels
  through each framework's exported op, and the same maths written as the framework's own ops
  (torch and Paddle eager, JAX jitted).
- 16 elements, the per-call cost: the exported op against a hand-written adapter calling the
  op's NumPy (python) kernels directly: a torch.autograd.Function, a Paddle PyLayer, a JAX
  custom_vjp over pure_callback.

The cases run interleaved: every round times each case once (``--number`` calls), in a new
random order, so a change in the machine's load hits every case alike. A ratio is the median
over rounds of the two cases' times in the same round; "best" is the fastest round, "median"
the median round (wall clock).

Usage: python benchmarks/interop.py [--rounds 15] [--frameworks torch,jax,paddle]

Last results: see docs/interop.md (the machine: 2 CPU cores shared with other jobs).
"""
import argparse
import random
import time

import numpy as np

import opsdk

BETA = 1.5
SIZES = ((1_000_000, 5, "ms", 1e3), (16, 500, "us", 1e6))


def opsdk_cases(x, g):
    from opsdk_example.swish import Swish

    t = opsdk.to_tensor(x, stop_gradient=False)
    seed = opsdk.to_tensor(g)

    def run():
        opsdk.grad(Swish.apply(t, BETA), t, seed)
    return {"opsdk: Swish.apply + opsdk.grad (C kernels)": run}


def torch_cases(x, g):
    import torch
    from opsdk_example.swish import OP
    swish_fwd, swish_bwd = OP.value_kernel, OP.grad_kernel

    swish = opsdk.interop.torch.op("example.swish")
    xt = torch.from_numpy(x).requires_grad_()
    gt = torch.from_numpy(g)

    class Handwritten(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return torch.from_numpy(swish_fwd.run("python", x.detach().numpy(), beta=BETA))

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensors
            return torch.from_numpy(swish_bwd.run("python", x.detach().numpy(),
                                                  dy.contiguous().numpy(), beta=BETA))

    return {
        "torch: opsdk.interop.torch.op": lambda: torch.autograd.grad(swish(xt, beta=BETA), xt, gt),
        "torch: torch.ops.example.swish (dispatcher)":
            lambda: torch.autograd.grad(torch.ops.example.swish(xt, beta=BETA), xt, gt),
        "torch: the maths as torch ops":
            lambda: torch.autograd.grad(xt * torch.sigmoid(BETA * xt), xt, gt),
        "torch: hand-written autograd.Function (NumPy kernels)":
            lambda: torch.autograd.grad(Handwritten.apply(xt), xt, gt),
    }


def jax_cases(x, g):
    import jax
    from opsdk_example.swish import OP
    swish_fwd, swish_bwd = OP.value_kernel, OP.grad_kernel

    swish = opsdk.interop.jax.op("example.swish")
    xj, gj = jax.numpy.asarray(x), jax.numpy.asarray(g)
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)

    @jax.custom_vjp
    def handwritten(x):
        return jax.pure_callback(lambda a: swish_fwd.run("python", np.asarray(a), beta=BETA),
                                 shape, x, vmap_method="sequential")

    def fwd(x):
        return handwritten(x), x

    def bwd(x, dy):
        return (jax.pure_callback(lambda a, d: swish_bwd.run("python", np.asarray(a),
                                                             np.asarray(d), beta=BETA),
                                  shape, x, dy, vmap_method="sequential"),)

    handwritten.defvjp(fwd, bwd)

    def vjp_of(f):
        step = jax.jit(lambda x, g: jax.vjp(f, x)[1](g))
        return lambda: jax.block_until_ready(step(xj, gj))

    return {"jax: opsdk.interop.jax.op, jitted": vjp_of(lambda x: swish(x, beta=BETA)),
            "jax: the maths as jax ops, jitted": vjp_of(lambda x: x * jax.nn.sigmoid(BETA * x)),
            "jax: hand-written custom_vjp (NumPy kernels), jitted": vjp_of(handwritten)}


def paddle_cases(x, g):
    import paddle
    from opsdk_example.swish import OP
    swish_fwd, swish_bwd = OP.value_kernel, OP.grad_kernel

    swish = opsdk.interop.paddle.op("example.swish")
    xp = paddle.to_tensor(x)
    xp.stop_gradient = False
    gp = paddle.to_tensor(g)

    class Handwritten(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return paddle.to_tensor(swish_fwd.run("python", x.numpy(), beta=BETA))

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return paddle.to_tensor(swish_bwd.run("python", x.numpy(), dy.numpy(), beta=BETA))

    return {"paddle: opsdk.interop.paddle.op": lambda: paddle.grad(swish(xp, beta=BETA), xp, gp),
            "paddle: the maths as paddle ops":
                lambda: paddle.grad(xp * paddle.nn.functional.sigmoid(BETA * xp), xp, gp),
            "paddle: hand-written PyLayer (NumPy kernels)":
                lambda: paddle.grad(Handwritten.apply(xp), xp, gp)}


FRAMEWORKS = {"torch": torch_cases, "jax": jax_cases, "paddle": paddle_cases}
# the per-call comparison the issue asks for: each exported op against its hand-written twin
PAIRS = {"torch: opsdk.interop.torch.op": "torch: hand-written autograd.Function (NumPy kernels)",
         "jax: opsdk.interop.jax.op, jitted": "jax: hand-written custom_vjp (NumPy kernels), jitted",
         "paddle: opsdk.interop.paddle.op": "paddle: hand-written PyLayer (NumPy kernels)"}
BASE = "opsdk: Swish.apply + opsdk.grad (C kernels)"


def available(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def measure(cases, number, rounds, rng):
    """{case: [seconds per call, one per round]}, the cases interleaved in a new order each round."""
    times = {name: [] for name in cases}
    for fn in cases.values():
        fn()  # warm up: compiles, caches, first allocations
    order = list(cases)
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            fn = cases[name]
            start = time.perf_counter()
            for _ in range(number):
                fn()
            times[name].append((time.perf_counter() - start) / number)
    return times


def ratio(times, a, b):
    """The median over rounds of a's time over b's, and its 10th-90th percentile range."""
    r = np.array(times[a]) / np.array(times[b])
    return np.median(r), np.percentile(r, 10), np.percentile(r, 90)


def report(times, size, unit, scale):
    print(f"\nexample.swish forward + backward, {size} float32 ({unit} per call)\n")
    print("| path | best | median | vs opsdk (median, p10-p90) | vs hand-written |")
    print("|---|---|---|---|---|")
    for name, ts in times.items():
        versus = "" if name == BASE else "%.2fx (%.2f-%.2f)" % ratio(times, name, BASE)
        twin = "%.2fx (%.2f-%.2f)" % ratio(times, name, PAIRS[name]) if name in PAIRS else ""
        print(f"| {name} | {min(ts) * scale:.3g} | {np.median(ts) * scale:.3g} | {versus} | {twin} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--frameworks", default="torch,jax,paddle")
    args = parser.parse_args()
    wanted = [f for f in args.frameworks.split(",") if f]
    frameworks = [FRAMEWORKS[f] for f in wanted if available(f)]
    data = np.random.default_rng(0)
    for size, number, unit, scale in SIZES:
        x = data.standard_normal(size).astype(np.float32)
        g = data.standard_normal(size).astype(np.float32)
        cases = opsdk_cases(x, g)
        for make in frameworks:
            cases.update(make(x, g))
        report(measure(cases, number, args.rounds, random.Random(size)), size, unit, scale)


if __name__ == "__main__":
    main()
