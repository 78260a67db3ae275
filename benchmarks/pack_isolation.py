"""What watching the packs costs: the `opsdk` command with its watched worker against the same
command run in one process, and (``--baseline DIR``) against an older opsdk tree, in one run.

Supervised is ``python -m opsdk.cli ARGS`` (the `opsdk` command: a parent forks a worker at the
first pack load and watches it); in-process is the same click command called through
``main.main()`` (as CliRunner does), where nothing forks. Both snapshot opsdk's names around each
pack; the baseline tree does neither. Runs are interleaved so that load from other processes hits
every variant alike; the table shows medians of wall time and of CPU time (parent and children).

Usage: python benchmarks/pack_isolation.py [--runs 7] [--baseline DIR] [--full-check]
(the first-party packs must be importable: PYTHONPATH with plugins/opsdk-nn and
plugins/opsdk-example/src, as in HELPERS.md; the kernel cache should be warm: run `opsdk check` once).

Last results (2 CPU cores shared with other jobs, load average ~7, Python 3.11.7; list and
the 2-op check: medians of 7 interleaved runs; every op: one run each, so only a rough check):

| command                               | variant        | wall s | cpu s | wall vs in-process |
|---------------------------------------|----------------|--------|-------|--------------------|
| list                                  | supervised     |   3.16 |  0.92 |               0.93 |
| list                                  | in-process     |   3.39 |  0.92 |               1.00 |
| list                                  | baseline tree  |   3.06 |  1.01 |               0.90 |
| check opsdk.erf example.swish --fast  | supervised     |   9.62 |  2.87 |               1.01 |
| check opsdk.erf example.swish --fast  | in-process     |   9.55 |  2.79 |               1.00 |
| check opsdk.erf example.swish --fast  | baseline tree  |   9.65 |  2.86 |               1.01 |
| check (every op)                      | supervised     | 134.81 | 42.29 |               0.72 |
| check (every op)                      | in-process     | 187.03 | 47.57 |               1.00 |
| check (every op)                      | baseline tree  | 181.08 | 46.37 |               0.97 |

The differences are within the noise of a loaded machine: the fork and the watching parent cost
a few milliseconds, the snapshot of opsdk's names ~2-5 ms and its comparison ~1-3 ms per pack.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
IN_PROCESS = "import sys; from opsdk.cli import main; main.main(sys.argv[1:], prog_name='opsdk')"


def _timed(argv, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return wall, cpu


def variants(baseline):
    """name -> (argv prefix, PYTHONPATH head)."""
    found = {"supervised": ([sys.executable, "-m", "opsdk.cli"], REPO),
             "in-process": ([sys.executable, "-c", IN_PROCESS], REPO)}
    if baseline:
        found["baseline tree"] = ([sys.executable, "-m", "opsdk.cli"], Path(baseline).resolve())
    return found


def measure(command, runs, baseline):
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    times = {name: [] for name in variants(baseline)}
    for _ in range(runs + 1):  # the first round only warms caches
        for name, (argv, head) in variants(baseline).items():
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(head), *rest]))
            times[name].append(_timed([*argv, *command], env))
    return {name: got[1:] for name, got in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", help="an opsdk source tree to compare with (git archive of an older commit)")
    parser.add_argument("--full-check", action="store_true", help="also time `opsdk check` of every op")
    args = parser.parse_args()
    commands = [("list", ["list"]),
                ("check opsdk.erf example.swish --fast", ["check", "opsdk.erf", "example.swish", "--fast",
                                                          "--no-progress"])]
    if args.full_check:
        commands.append(("check (every op)", ["check", "--no-progress"]))
    print(f"python {sys.version.split()[0]}, median of {args.runs} interleaved runs\n")
    print("| command                               | variant        | wall s | cpu s | wall vs in-process |")
    print("|---------------------------------------|----------------|--------|-------|--------------------|")
    for label, command in commands:
        runs = 1 if command == ["check", "--no-progress"] else args.runs
        results = measure(command, runs, args.baseline)
        base = statistics.median(w for w, _ in results["in-process"])
        for name, got in results.items():
            wall = statistics.median(w for w, _ in got)
            cpu = statistics.median(c for _, c in got)
            print(f"| {label:<37} | {name:<14} | {wall:6.2f} | {cpu:5.2f} | {wall / base:18.2f} |")


if __name__ == "__main__":
    main()
