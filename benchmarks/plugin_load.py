"""How long `import opsdk` and the first op lookup take with N op packs installed as entry points.

Each pack is a real distribution (a ``.dist-info`` with an ``[opsdk]`` entry point) in a temporary
directory put on PYTHONPATH, so discovery goes through importlib.metadata exactly as for packs
installed with pip. Every measurement runs in a fresh interpreter and times, inside it,
``import opsdk`` and then ``opsdk.ops.get(...)`` (which loads every pack), with bytecode cached
as it is for installed packages.

Usage: python benchmarks/plugin_load.py [--packs 10] [--runs 7]

Last results (2 shared CPU cores, Python 3.11.7, 107 distributions in site-packages; medians, ms):

| case                                     | packs | import ms | 1st lookup ms | total ms |
|------------------------------------------|-------|-----------|---------------|----------|
| no packs installed                       |     1 |      76.1 |          26.9 |     99.7 |
| 10 packs, all loaded                     |    11 |      79.9 |          33.1 |    113.0 |
| 10 packs, OPSDK_LOAD_PLUGINS=1 of them   |     2 |      86.3 |          27.5 |    113.2 |

The first lookup's fixed cost is importing importlib.metadata (~11 ms, it pulls in ``email``),
pluggy (~2 ms) and the plugin/registry modules, plus one entry-point scan of sys.path (~4 ms);
each pack adds well under 1 ms. Under load from other processes the totals rose to ~165 ms.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PACK = '''
import opsdk
from opsdk import TensorSpec, hookimpl


class Scale{i}(opsdk.PyLayer):
    """Multiply by {i} plus one."""

    @staticmethod
    def forward(ctx, x):
        return x * {k}

    @staticmethod
    def backward(ctx, dy):
        return dy * {k}


@hookimpl
def register_ops(register):
    register(Scale{i}, name="scale{i}", inputs=[TensorSpec(shape=(4,), domain=(-1.0, 1.0))],
             dtypes=("float32", "float64"), double_backward=True)
'''

CHILD = '''
import json, time
t0 = time.perf_counter()
import opsdk
t1 = time.perf_counter()
found = opsdk.ops.get({name!r}) if {name!r} else opsdk.list_ops()
t2 = time.perf_counter()
registry = opsdk.plugins.get_registry()
print(json.dumps({{"import": t1 - t0, "lookup": t2 - t1, "packs": len(registry.packs()),
                  "failures": [str(f) for f in registry.failures()]}}))
'''


def install_packs(root, count):
    """Write ``count`` packs, each its own distribution with one entry point, under ``root``."""
    for i in range(count):
        (root / f"benchpack{i}.py").write_text(textwrap.dedent(PACK.format(i=i, k=i + 1)))
        info = root / f"benchpack{i}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: benchpack{i}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[opsdk]\nbenchpack{i} = benchpack{i}\n")


def measure(site, lookup, runs, pycache, load_plugins=None):
    """Run the child ``runs`` times (``lookup`` None: list_ops()); return its JSON reports."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(REPO)]),
               PYTHONPYCACHEPREFIX=str(pycache))
    # installed packages import from bytecode; a first, untimed run writes it (outside the repo)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("OPSDK_LOAD_PLUGINS", None)
    if load_plugins is not None:
        env["OPSDK_LOAD_PLUGINS"] = load_plugins
    reports = []
    for _ in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", CHILD.format(name=lookup)], env=env,
                             capture_output=True, text=True, check=True)
        reports.append(json.loads(out.stdout))
    return reports[1:]


def row(label, reports):
    ms = {key: [r[key] * 1e3 for r in reports] for key in ("import", "lookup")}
    total = [a + b for a, b in zip(ms["import"], ms["lookup"])]
    return (f"| {label:<40} | {reports[0]['packs']:>5} | {statistics.median(ms['import']):>9.1f} | "
            f"{statistics.median(ms['lookup']):>13.1f} | {statistics.median(total):>8.1f} | "
            f"{min(total):>7.1f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", type=int, default=10)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        empty, site, pycache = Path(tmp, "empty"), Path(tmp, "site"), Path(tmp, "pycache")
        empty.mkdir()
        site.mkdir()
        install_packs(site, args.packs)
        last = f"benchpack{args.packs - 1}.scale{args.packs - 1}"
        cases = [
            ("no packs installed", measure(empty, None, args.runs, pycache)),
            (f"{args.packs} packs, all loaded", measure(site, last, args.runs, pycache)),
            (f"{args.packs} packs, OPSDK_LOAD_PLUGINS=1 of them",
             measure(site, "benchpack0.scale0", args.runs, pycache, load_plugins="benchpack0")),
        ]
    print(f"python {sys.version.split()[0]}, median of {args.runs} fresh interpreters (ms)\n")
    print("| case                                     | packs | import ms | 1st lookup ms | total ms | min ms  |")
    print("|------------------------------------------|-------|-----------|---------------|----------|---------|")
    for label, reports in cases:
        print(row(label, reports))
    loaded = [r["import"] + r["lookup"] for r in cases[1][1]]
    verdict = "ok" if statistics.median(loaded) < 0.2 else "OVER"
    print(f"\nimport + first lookup with {args.packs} packs: median "
          f"{statistics.median(loaded) * 1e3:.1f} ms (target < 200 ms: {verdict})")
    failures = [f for _, reports in cases for f in reports[0]["failures"]]
    if failures:
        print("\nfailures:", *failures, sep="\n  ")


if __name__ == "__main__":
    main()
