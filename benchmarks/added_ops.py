"""The added core ops: forward + backward time, opsdk vs PyTorch eager (and the NumPy forward).

Run: python benchmarks/added_ops.py [--repeat N] [--size N]
Prints one table: milliseconds per forward+backward on float32 inputs of about `size`
elements, the NumPy forward alone, and the opsdk / torch ratio where torch is installed.
"""
import argparse
import importlib.util

import numpy as np
from timing import best_ms as _best_ms


def best_ms(fn, repeat):
    return _best_ms(fn, repeat, 5)


def cases(n):
    """name -> (opsdk fn, torch fn, numpy fn, input shape); every fn maps one tensor to one."""
    side = max(int(np.sqrt(n)), 2)
    mat = (side, side)
    idx = np.random.default_rng(0).integers(0, side, size=mat)
    return {
        "cumsum": (lambda P, x: P.cumsum(x, 1), lambda T, x: x.cumsum(1),
                   lambda a: np.cumsum(a, 1), mat),
        "cumprod": (lambda P, x: P.cumprod(x, 1), lambda T, x: x.cumprod(1),
                    lambda a: np.cumprod(a, 1), mat),
        "logcumsumexp": (lambda P, x: P.logcumsumexp(x, 1), lambda T, x: x.logcumsumexp(1),
                         lambda a: np.logaddexp.accumulate(a, 1), mat),
        "prod": (lambda P, x: P.prod(x, 1), lambda T, x: x.prod(1), lambda a: a.prod(1), mat),
        "sort": (lambda P, x: P.sort(x, 1), lambda T, x: x.sort(1).values,
                 lambda a: np.sort(a, 1), mat),
        "topk": (lambda P, x: P.topk(x, 8, 1)[0], lambda T, x: x.topk(8, 1).values,
                 lambda a: np.sort(a, 1)[:, -8:], mat),
        "median": (lambda P, x: P.median(x, 1), lambda T, x: x.median(1).values,
                   lambda a: np.median(a, 1), mat),
        "roll": (lambda P, x: P.roll(x, 3, 1), lambda T, x: x.roll(3, 1),
                 lambda a: np.roll(a, 3, 1), mat),
        "tril": (lambda P, x: P.tril(x), lambda T, x: x.tril(), np.tril, mat),
        "einsum": (lambda P, x: P.einsum("ij,jk->ik", x, x),
                   lambda T, x: T.einsum("ij,jk->ik", x, x),
                   lambda a: np.einsum("ij,jk->ik", a, a), mat),
        "take_along_axis": (lambda P, x: P.take_along_axis(x, P.to_tensor(idx), 1),
                            lambda T, x: x.gather(1, T.tensor(idx)),
                            lambda a: np.take_along_axis(a, idx, 1), mat),
        "put_along_axis": (lambda P, x: P.put_along_axis(x, P.to_tensor(idx), x, 1, "add"),
                           lambda T, x: x.scatter_add(1, T.tensor(idx), x),
                           lambda a: a.copy(), mat),
    }


def opsdk_run(fn, a):
    import opsdk
    x = opsdk.to_tensor(a, stop_gradient=False)

    def run():
        fn(opsdk, x).sum().backward()
    return run


def torch_run(fn, a):
    import torch
    x = torch.tensor(a, requires_grad=True)

    def run():
        fn(torch, x).sum().backward()
    return run


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--size", type=int, default=250_000)
    args = p.parse_args()
    have_torch = importlib.util.find_spec("torch") is not None
    print(f"{'op':<16}{'numpy fwd ms':>13}{'opsdk f+b ms':>14}{'torch f+b ms':>14}{'ratio':>8}")
    for name, (po, pt, pn, shape) in cases(args.size).items():
        a = np.random.default_rng(1).uniform(0.5, 1.5, size=shape).astype("float32")
        tn = best_ms(lambda: pn(a), args.repeat)
        to = best_ms(opsdk_run(po, a), args.repeat)
        tt = best_ms(torch_run(pt, a), args.repeat) if have_torch else float("nan")
        print(f"{name:<16}{tn:>13.3f}{to:>14.3f}{tt:>14.3f}{to / tt:>8.2f}")


if __name__ == "__main__":
    main()
