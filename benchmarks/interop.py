"""example.swish through opsdk.interop: PyTorch, JAX and Paddle against opsdk and each
framework's own maths.

Two measurements, best of several repeats each, forward + backward with a given output gradient:
- 1e6 float32 elements: the C kernels called from opsdk (Swish.apply + opsdk.grad), the same
  kernels through each framework's exported op, and the same maths written as the framework's
  own ops (torch: eager; JAX: jitted; Paddle: eager).
- 16 float32 elements, per call: the exported op, and a hand-written torch.autograd.Function /
  paddle PyLayer calling the op's NumPy (python) kernels directly.

Usage: python benchmarks/interop.py [--repeats 5]

Last results: see docs/interop.md (the machine: 2 CPU cores shared with other jobs).
"""
import argparse
import time

import numpy as np

import opsdk

BETA = 1.5


def best(fn, number, repeats):
    """Best mean time of ``number`` calls over ``repeats`` runs, in seconds."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def opsdk_case(x, g):
    from opsdk_example.swish import Swish

    t = opsdk.to_tensor(x, stop_gradient=False)
    seed = opsdk.to_tensor(g)

    def run():
        opsdk.grad(Swish.apply(t, BETA), t, seed)
    return run


def torch_cases(x, g):
    import torch
    from opsdk_example.swish_kernels import swish_bwd, swish_fwd

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

    def interop():
        torch.autograd.grad(swish(xt, beta=BETA), xt, gt)

    def dispatcher():
        torch.autograd.grad(torch.ops.example.swish(xt, beta=BETA), xt, gt)

    def maths():
        torch.autograd.grad(xt * torch.sigmoid(BETA * xt), xt, gt)

    def handwritten():
        torch.autograd.grad(Handwritten.apply(xt), xt, gt)

    return {"interop op": interop, "torch.ops.example.swish": dispatcher,
            "framework maths": maths, "hand-written Function (NumPy kernels)": handwritten}


def jax_cases(x, g):
    import jax

    swish = opsdk.interop.jax.op("example.swish")
    xj, gj = jax.numpy.asarray(x), jax.numpy.asarray(g)

    def vjp_of(f):
        step = jax.jit(lambda x, g: jax.vjp(f, x)[1](g))
        return lambda: jax.block_until_ready(step(xj, gj))

    return {"interop op": vjp_of(lambda x: swish(x, beta=BETA)),
            "framework maths": vjp_of(lambda x: x * jax.nn.sigmoid(BETA * x))}


def paddle_cases(x, g):
    import paddle
    from opsdk_example.swish_kernels import swish_bwd, swish_fwd

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

    def interop():
        paddle.grad(swish(xp, beta=BETA), xp, gp)

    def maths():
        paddle.grad(xp * paddle.nn.functional.sigmoid(BETA * xp), xp, gp)

    def handwritten():
        paddle.grad(Handwritten.apply(xp), xp, gp)

    return {"interop op": interop, "framework maths": maths,
            "hand-written PyLayer (NumPy kernels)": handwritten}


def available(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    frameworks = [(n, f) for n, f in (("torch", torch_cases), ("jax", jax_cases),
                                      ("paddle", paddle_cases)) if available(n)]
    for size, number, unit, scale in ((1_000_000, 5, "ms", 1e3), (16, 2000, "us", 1e6)):
        x = rng.standard_normal(size).astype(np.float32)
        g = rng.standard_normal(size).astype(np.float32)
        base = best(opsdk_case(x, g), number, args.repeats)
        print(f"\nexample.swish forward + backward, {size} float32 ({unit} per call)\n")
        print(f"| framework | path | time | vs opsdk |\n|---|---|---|---|")
        print(f"| opsdk | Swish.apply + opsdk.grad (C kernels) | {base * scale:.3g} | 1.00x |")
        for name, cases in frameworks:
            for label, fn in cases(x, g).items():
                t = best(fn, number, args.repeats)
                print(f"| {name} | {label} | {t * scale:.3g} | {t / base:.2f}x |")


if __name__ == "__main__":
    main()
