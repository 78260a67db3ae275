"""First call of a C kernel: from a wheel with the kernels prebuilt vs from a cold kernel cache.

Builds opsdk-nn's wheel (offline, `pip wheel --no-build-isolation`), installs it into a temporary
target, then times in fresh processes the first call of nn.gelu_fwd (import of the pack's
kernels, build or load of its C extension, one call on 1000 float64): once from the wheel with no
compiler on PATH, once from the sources with an empty cache (a compile). Prints a table and the
ratio. Run: python benchmarks/prebuilt_first_call.py

Last results (2 shared cores, gcc 12, CPython 3.11; times include Python start-up work after
the interpreter is up: importing opsdk and the pack):

    run    from the wheel (s)   cold cache, compile (s)    ratio
    best                0.508                     5.159     10.2
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRST_CALL = """
import time
t = time.perf_counter()
import numpy
from opsdk_nn.kernels import activations
kernel = activations.KERNELS["gelu"][0]
kernel(numpy.ones(1000), p0=0.0, p1=0.0)
assert kernel._lib is not None
print(time.perf_counter() - t)
"""


def _first_call(pythonpath, path, cache):
    env = {k: v for k, v in os.environ.items() if k != "CC"}
    env.update(PYTHONPATH=pythonpath, PATH=path, OPSDK_CACHE_DIR=cache, OPSDK_LOAD_PLUGINS="")
    done = subprocess.run([sys.executable, "-W", "error", "-c", FIRST_CALL], env=env, capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip())


def main():
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": ROOT}
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                        os.path.join(tmp, "dist"), os.path.join(ROOT, "plugins", "opsdk-nn")], check=True, env=env)
        (wheel,) = os.listdir(os.path.join(tmp, "dist"))
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                        os.path.join(tmp, "site"), os.path.join(tmp, "dist", wheel)], check=True)
        os.mkdir(os.path.join(tmp, "no-compiler"))
        rows = []
        for run in range(3):
            wheel_s = _first_call(os.pathsep.join([os.path.join(tmp, "site"), ROOT]), os.path.join(tmp, "no-compiler"),
                                  os.path.join(tmp, f"cache-wheel-{run}"))
            cold_s = _first_call(os.pathsep.join([ROOT, os.path.join(ROOT, "plugins", "opsdk-nn")]),
                                 os.environ["PATH"], os.path.join(tmp, f"cache-cold-{run}"))
            rows.append((wheel_s, cold_s))
        print(f"wheel: {wheel}")
        print(f"{'run':<4} {'from the wheel (s)':>20} {'cold cache, compile (s)':>25} {'ratio':>8}")
        for i, (w, c) in enumerate(rows):
            print(f"{i:<4} {w:>20.3f} {c:>25.3f} {c / w:>8.1f}")
        best_w, best_c = min(r[0] for r in rows), min(r[1] for r in rows)
        print(f"best {best_w:>20.3f} {best_c:>25.3f} {best_c / best_w:>8.1f}")


if __name__ == "__main__":
    main()
