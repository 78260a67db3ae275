"""One training step of a 784-256-10 MLP (batch 64): forward, backward, Adam step.

opsdk against PyTorch (when installed) in the same run, torch limited to the threads NumPy's
BLAS uses. Target: opsdk at most 1.5x torch's time.

Run: python benchmarks/train_step.py [--steps N] [--repeats R]

Last results (2 shared cores under a load average of 3-4 from other jobs, so absolute
times are inflated; the ratios are what to read; torch 2.13 CPU, OpenBLAS 0.3.31):

    BLAS threads 2      wall us/step  vs torch   cpu us/step  vs torch
    opsdk                    16158.8     0.62x        9110.3     0.58x
    torch                    25978.7     1.00x       15807.0     1.00x
    BLAS threads 1 (OPENBLAS_NUM_THREADS=1)
    opsdk                     2644.2     0.82x        1319.0     0.70x
    torch                     3240.0     1.00x        1871.0     1.00x
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import opsdk  # noqa: E402

BATCH, D_IN, D_HID, D_OUT = 64, 784, 256, 10


def blas_threads():
    """The thread count NumPy's BLAS runs with (env settings, else one per core)."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    return os.cpu_count() or 1


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, D_IN)).astype(np.float32)
    y = rng.integers(0, D_OUT, BATCH).astype(np.int64)
    w1 = (rng.standard_normal((D_IN, D_HID)) * 0.05).astype(np.float32)
    w2 = (rng.standard_normal((D_HID, D_OUT)) * 0.05).astype(np.float32)
    return x, y, w1, w2


def opsdk_step_fn():
    x, y, w1, w2 = make_data()
    nn = opsdk.nn
    model = nn.Sequential(nn.Linear(D_IN, D_HID), nn.ReLU(), nn.Linear(D_HID, D_OUT))
    model[0].weight.set_value(w1)
    model[2].weight.set_value(w2)
    opt = opsdk.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    xt, yt = opsdk.to_tensor(x), opsdk.to_tensor(y)

    def step():
        loss = nn.functional.cross_entropy(model(xt), yt)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def torch_step_fn(torch):
    x, y, w1, w2 = make_data()
    nn = torch.nn
    model = nn.Sequential(nn.Linear(D_IN, D_HID), nn.ReLU(), nn.Linear(D_HID, D_OUT))
    with torch.no_grad():
        model[0].weight.copy_(torch.from_numpy(w1.T.copy()))
        model[2].weight.copy_(torch.from_numpy(w2.T.copy()))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)

    def step():
        loss = nn.functional.cross_entropy(model(xt), yt)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss
    return step


def time_blocks(steps_by_name, steps, repeats):
    """Per implementation: (median wall us/step, median CPU us/step) over repeats.

    Blocks of the implementations alternate, so a busy machine slows both alike.
    """
    for step in steps_by_name.values():
        for _ in range(20):
            step()
    wall = {name: [] for name in steps_by_name}
    cpu = {name: [] for name in steps_by_name}
    for _ in range(repeats):
        for name, step in steps_by_name.items():
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(steps):
                step()
            wall[name].append((time.perf_counter() - w0) / steps * 1e6)
            cpu[name].append((time.process_time() - c0) / steps * 1e6)
    return {name: (statistics.median(wall[name]), statistics.median(cpu[name]))
            for name in steps_by_name}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    threads = blas_threads()
    steps = {"opsdk": opsdk_step_fn()}
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(threads)
        steps[f"torch {torch.__version__}"] = torch_step_fn(torch)
    results = time_blocks(steps, args.steps, args.repeats)
    print(f"MLP {D_IN}-{D_HID}-{D_OUT}, batch {BATCH}, Adam; BLAS threads {threads}, "
          f"{os.cpu_count()} cores; median of {args.repeats} x {args.steps} steps")
    print(f"{'impl':<22}{'wall us/step':>14}{'vs torch':>10}{'cpu us/step':>14}{'vs torch':>10}")
    ref = results[list(steps)[-1]] if torch is not None else None
    for name, (wall, cpu) in results.items():
        rw = f"{wall / ref[0]:.2f}x" if ref else "-"
        rc = f"{cpu / ref[1]:.2f}x" if ref else "-"
        print(f"{name:<22}{wall:>14.1f}{rw:>10}{cpu:>14.1f}{rc:>10}")


if __name__ == "__main__":
    main()
