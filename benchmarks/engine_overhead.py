"""Engine overhead: per-op cost of forward+backward, opsdk vs PyTorch eager vs plain NumPy.

Run: python benchmarks/engine_overhead.py [--repeat N] [--before REV]
Prints one table; the numbers in the README's performance section come from it. With
``--before REV`` (a git revision of this repository) the same measurements of that revision's
opsdk run in the same invocation, alternating with this tree's, and a before/after table follows:
a refactor's cost measured side by side, under the same load.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from timing import best_of

CHAIN = 33  # 3 ops per step (mul, add, tanh) + the final sum: ~100 ops


def opsdk_small(n):
    import opsdk
    x = opsdk.to_tensor(np.random.rand(n).astype("float32"), stop_gradient=False)

    def run():
        y = x
        for _ in range(CHAIN):
            y = opsdk.tanh(y * 1.0001 + 0.5)
        y.sum().backward()
    return run


def torch_small(n):
    import torch
    x = torch.tensor(np.random.rand(n).astype("float32"), requires_grad=True)

    def run():
        y = x
        for _ in range(CHAIN):
            y = torch.tanh(y * 1.0001 + 0.5)
        y.sum().backward()
    return run


def opsdk_large(n):
    import opsdk
    x = opsdk.to_tensor(np.random.rand(n).astype("float32"), stop_gradient=False)

    def run():
        y = x
        for _ in range(50):
            y = y * 1.0001 + 0.5
        y.backward()
    return run


def numpy_large(n, numpy_scalars=False):
    """The same mul/add chain with a hand-written backward: the floor for any engine.

    Written as a person writes it (Python float constants, as in the opsdk chain). With
    numpy_scalars=True the constants are np.float32, which lets NumPy reuse the temporary of
    `y * a` for `+ b` in place (temporary elision): an engine that keeps each op's result in a
    Tensor can never get that, so it is shown as a second, lower floor.
    """
    x = np.random.rand(n).astype("float32")
    a, b = (np.float32(1.0001), np.float32(0.5)) if numpy_scalars else (1.0001, 0.5)

    def run():
        y = x
        for _ in range(50):
            y = y * a + b
        g = np.ones_like(y)
        for _ in range(50):
            g = g * a
        return g
    return run


def torch_large(n):
    import torch
    x = torch.tensor(np.random.rand(n).astype("float32"), requires_grad=True)

    def run():
        y = x
        for _ in range(50):
            y = y * 1.0001 + 0.5
        y.backward(torch.ones_like(y))
        x.grad = None
    return run


def import_time():
    """Best of 5 fresh interpreters, with bytecode caches written (as an installed package has)."""
    import os
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = "import time; t=time.perf_counter(); import opsdk; print(time.perf_counter()-t)"
    run = lambda: float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True, env=env).stdout)
    run()  # writes the __pycache__ files
    return min(run() for _ in range(5))


def measure(repeat):
    """The benchmark's rows: (name, opsdk, torch or None, numpy or None)."""
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None

    rows = []
    n_ops = 3 * CHAIN + 1
    t_o = best_of(opsdk_small(16), repeat, 200) / n_ops
    t_t = best_of(torch_small(16), repeat, 200) / n_ops if torch else None
    rows.append(("100-op chain, 16 float32, fwd+bwd (us/op)", t_o * 1e6,
                 t_t * 1e6 if t_t else None, None))
    n_large = 100  # 50 mul + 50 add
    t_o = best_of(opsdk_large(1_000_000), repeat, 3) / n_large
    t_n = best_of(numpy_large(1_000_000), repeat, 3) / n_large
    t_t = best_of(torch_large(1_000_000), repeat, 3) / n_large if torch else None
    rows.append(("mul/add chain, 1e6 float32, fwd+bwd (ms/op)", t_o * 1e3,
                 t_t * 1e3 if t_t else None, t_n * 1e3))
    t_e = best_of(numpy_large(1_000_000, numpy_scalars=True), repeat, 3) / n_large
    rows.append(("  same, numpy with np.float32 constants (elided)", t_o * 1e3, None, t_e * 1e3))
    rows.append(("import opsdk (ms)", import_time() * 1e3, None, None))
    return rows


def print_table(rows):
    head = f"{'benchmark':46s} {'opsdk':>9s} {'torch':>9s} {'numpy':>9s} {'opsdk/torch':>12s} {'opsdk/numpy':>12s}"
    print(head)
    print("-" * len(head))
    for name, o, t, n in rows:
        fmt = lambda v: f"{v:9.2f}" if v is not None else f"{'-':>9s}"
        r_t = f"{o / t:12.2f}" if t else f"{'-':>12s}"
        r_n = f"{o / n:12.2f}" if n else f"{'-':>12s}"
        print(f"{name:46s} {fmt(o)} {fmt(t)} {fmt(n)} {r_t} {r_n}")


def _rows_of(tree, repeat):
    """measure() run in a fresh interpreter on the opsdk found in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, __file__, "--repeat", str(repeat), "--json"], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def before_after(rev, repeat, rounds=3):
    """This tree's rows and ``rev``'s, measured in alternating fresh interpreters (the round with
    the fastest opsdk kept per row), printed as before, after, after/before and each one's ratio
    to its reference (NumPy where the row has it, else torch) from the same round."""
    here = pathlib.Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="opsdk-before-") as tmp:
        archive = subprocess.run(["git", "-C", str(here), "archive", rev, "opsdk"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        best = {}
        for _ in range(rounds):
            for label, tree in (("before", tmp), ("after", here)):
                for name, o, t, n in _rows_of(tree, repeat):
                    ref = n if n else t
                    if o < best.get((label, name), (float("inf"),))[0]:
                        best[(label, name)] = (o, o / ref if ref else None)
    head = (f"{rev + ' -> this tree':46s} {'before':>9s} {'after':>9s} {'after/before':>13s} "
            f"{'ratio before':>13s} {'ratio after':>12s}")
    print(head)
    print("-" * len(head))
    fmt = lambda r, w: f"{r:{w}.2f}" if r is not None else f"{'-':>{w}s}"
    for name in [name for (label, name) in best if label == "after"]:
        (b, rb), (a, ra) = best[("before", name)], best[("after", name)]
        print(f"{name:46s} {b:9.2f} {a:9.2f} {a / b:13.2f} {fmt(rb, 13)} {fmt(ra, 12)}")
    print("ratio: to NumPy where the row has it, else to torch (same interpreter, same round)")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--before", metavar="REV", help="also measure this git revision's opsdk")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure(args.repeat)))
        return
    print_table(measure(args.repeat))
    if args.before:
        print()
        before_after(args.before, args.repeat)


if __name__ == "__main__":
    main()
