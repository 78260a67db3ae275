"""gradcheck speed, opsdk against torch.autograd.gradcheck on the same functions and inputs.

Run: python benchmarks/gradcheck.py [--repeat N]
Prints one row per (function, mode): the median wall time of each checker over N runs, the two
checkers alternating so that load on the machine hits both alike. Both check float64 inputs
(torch's gradcheck needs float64 to pass; opsdk also passes float32). torch runs on one thread,
as opsdk (NumPy) does on these sizes.

Last results (2 shared CPU cores, Python 3.11.7, NumPy 2.4, torch 2.13 CPU; --repeat 40):

| case | mode | opsdk | torch | opsdk / torch |
| --- | --- | --- | --- | --- |
| sum(tanh(x)*x), x: 100 | full | 2.90 ms | 5.76 ms | 0.50 |
| sum(tanh(x)*x), x: 100 | fast | 0.35 ms | 0.65 ms | 0.55 |
| matmul 20x30 @ 30x10 | full | 14.18 ms | 71.66 ms | 0.20 |
| matmul 20x30 @ 30x10 | fast | 0.43 ms | 0.82 ms | 0.53 |
| softmax 50x50 | full | 291.35 ms | 738.04 ms | 0.39 |
| softmax 50x50 | fast | 0.64 ms | 0.67 ms | 0.96 |

opsdk is faster in every row but fast-mode softmax, where it is even (five opsdk ops against one
fused torch kernel, and 6 projections per pair against torch's 1). See docs/gradcheck.md.
"""
import argparse
import statistics
import time

import numpy as np

import opsdk
from opsdk.gradcheck import gradcheck


def _softmax(x):
    e = opsdk.exp(x - opsdk.max(x, axis=1, keepdim=True))
    return e / opsdk.sum(e, axis=1, keepdim=True)


CASES = {
    "sum(tanh(x)*x), x: 100": ((100,), lambda x: (opsdk.tanh(x) * x).sum(),
                                lambda t, x: (t.tanh(x) * x).sum()),
    "matmul 20x30 @ 30x10": ([(20, 30), (30, 10)], opsdk.matmul, lambda t, a, b: t.matmul(a, b)),
    "softmax 50x50": ((50, 50), _softmax, lambda t, x: t.softmax(x, 1)),
}


def _shapes(spec):
    return spec if isinstance(spec, list) else [spec]


def _median_seconds(fns, repeat):
    """Median seconds of each function (None stays None), run in turns."""
    times = [[] for _ in fns]
    for f in fns:
        if f is not None:
            f()
    for _ in range(repeat):
        for f, spent in zip(fns, times):
            if f is not None:
                start = time.perf_counter()
                f()
                spent.append(time.perf_counter() - start)
    return [statistics.median(t) if t else None for t in times]


def _torch_checker(torch, fn, arrays, fast):
    tensors = [torch.tensor(a, requires_grad=True) for a in arrays]
    return lambda: torch.autograd.gradcheck(lambda *xs: fn(torch, *xs), tensors, fast_mode=fast)


def _opsdk_checker(fn, arrays, fast):
    tensors = [opsdk.to_tensor(a, stop_gradient=False) for a in arrays]
    return lambda: gradcheck(fn, tensors, fast_mode=fast, seed=0)


def _format(seconds):
    return "-" if seconds is None else (f"{seconds * 1e3:.2f} ms" if seconds < 1 else
                                        f"{seconds:.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print("| case | mode | opsdk | torch | opsdk / torch |")
    print("| --- | --- | --- | --- | --- |")
    for name, (spec, ours, theirs) in CASES.items():
        arrays = [rng.standard_normal(s) for s in _shapes(spec)]
        for fast in (False, True):
            repeat = args.repeat if fast else max(1, args.repeat // 2)
            mine, other = _median_seconds(
                [_opsdk_checker(ours, arrays, fast),
                 _torch_checker(torch, theirs, arrays, fast) if torch is not None else None],
                repeat)
            ratio = f"{mine / other:.2f}" if other else "-"
            print(f"| {name} | {'fast' if fast else 'full'} | {_format(mine)} | "
                  f"{_format(other)} | {ratio} |")


if __name__ == "__main__":
    main()
