"""What compiling a pack's CUDA kernels ahead of time costs: opsdk-nn's wheel built without it
(OPSDK_CUDA_ARCHS=none: C prebuilt, CUDA as source), for sm_90 alone, and for the default
architectures (a cubin each for 75, 80, 90, 100, 120 and PTX for 75): build time, wheel size,
and the bytes of PTX and cubins it holds. Builds offline (`pip wheel --no-build-isolation`) from
a copy of the pack, twice each, alternating. Run: python benchmarks/prebuilt_cuda_build.py

Last results (2 cores shared with other agents' work, nvcc 13.0, gcc 12, CPython 3.11; the best
of two runs each, with a load average of 3 to 5):

    archs       build (s)   wheel (bytes)   PTX + cubins (bytes, unpacked)
    none             11.7          223242                                0
    90               16.8          554317                          1522145
    default          37.1         1444709                          5393585

A quieter run (load about 2) took 7.7 s, 10.3 s and 18.2 s.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = {"none": "none", "90": "90", "default": None}


def _build(source, dist, archs):
    env = {**os.environ, "PYTHONPATH": ROOT}
    env.pop("OPSDK_CUDA_ARCHS", None)
    if archs is not None:
        env["OPSDK_CUDA_ARCHS"] = archs
    for leftover in ("build", "opsdk_nn.egg-info"):
        shutil.rmtree(os.path.join(source, leftover), ignore_errors=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", dist,
                    source], check=True, env=env)
    seconds = time.perf_counter() - started
    (wheel,) = [os.path.join(dist, n) for n in os.listdir(dist)]
    shipped = sum(i.file_size for i in zipfile.ZipFile(wheel).infolist() if i.filename.endswith((".ptx", ".cubin")))
    return seconds, os.path.getsize(wheel), shipped


def main():
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(ROOT, "plugins", "opsdk-nn"), source,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests"))
        best = {}
        for run in range(2):
            for mode, archs in MODES.items():
                seconds, size, shipped = _build(source, os.path.join(tmp, f"dist-{mode}-{run}"), archs)
                if mode not in best or seconds < best[mode][0]:
                    best[mode] = (seconds, size, shipped)
        print(f"{'archs':<10} {'build (s)':>10} {'wheel (bytes)':>15} {'PTX + cubins (bytes, unpacked)':>32}")
        for mode, (seconds, size, shipped) in best.items():
            print(f"{mode:<10} {seconds:>10.1f} {size:>15} {shipped:>32}")


if __name__ == "__main__":
    main()
