"""How long scaffolding takes, as a user sees it: `opsdk new-pack`, `opsdk new-op`, and the pack's tests.

Each command runs in a fresh process (interpreter start and imports included), in a temporary
directory, with a private kernel cache. The pack is made importable the way `pip install -e`
does it (a .dist-info with the entry point, src/ on the path), so no install step is timed.

    python benchmarks/scaffold.py [--repeat N]

Targets (issue 6): new-op under 1 s; a generated pack's tests under 30 s.
"""
import argparse
import importlib.metadata
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(command, cwd, env):
    """Seconds ``command`` took; raises if it failed."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return took


def install(root, name, site):
    """What `pip install -e` leaves: a .dist-info declaring the pack's entry point."""
    info = site / f"opsdk_{name}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: opsdk-{name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[opsdk]\n{name} = {name}\n")


def plugin_args():
    plugins = importlib.metadata.entry_points(group="pytest11")
    return [] if any(ep.value == "opsdk.testing.pytest_plugin" for ep in plugins) else \
        ["-p", "opsdk.testing.pytest_plugin"]


def run_once(index, work):
    name = f"bench_pack{index}"
    site = work / f"site{index}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(site), str(work / name / "src")]),
           "OPSDK_CACHE_DIR": str(work / f"cache{index}"), "OPSDK_LOAD_PLUGINS": name}
    opsdk = [sys.executable, "-m", "opsdk.cli"]
    times = {"new-pack": timed([*opsdk, "new-pack", name], work, env)}
    pack = work / name
    times["new-op (python)"] = timed([*opsdk, "new-op", "op_py"], pack, env)
    times["new-op (c, cuda)"] = timed([*opsdk, "new-op", "op_all", "-b", "c", "-b", "cuda"], pack, env)
    install(pack, name, site)
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin_args()]
    times["pack tests, first run (compiles C)"] = timed(pytest, pack, env)
    times["pack tests, cached kernels"] = timed(pytest, pack, env)
    times["opsdk check --pack"] = timed([*opsdk, "check", "--pack", name], pack, env)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="opsdk-bench-scaffold-") as tmp:
        runs = [run_once(i, Path(tmp)) for i in range(args.repeat)]
    targets = {"new-op (python)": 1.0, "new-op (c, cuda)": 1.0, "pack tests, first run (compiles C)": 30.0}
    print(f"{'step':<36} {'median s':>9} {'min s':>7}  target")
    for step in runs[0]:
        values = [run[step] for run in runs]
        target = f"< {targets[step]:g} s" if step in targets else ""
        print(f"{step:<36} {statistics.median(values):>9.3f} {min(values):>7.3f}  {target}")


if __name__ == "__main__":
    main()
