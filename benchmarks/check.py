"""`opsdk check` speed: the whole run over the first-party ops, and what each check costs.

Run: python benchmarks/check.py [--repeat N] [--pack P ...] [--fast]
Prints the wall time of `opsdk check` over the selected packs (default: the first-party ones,
opsdk, example and nn) with a warm kernel cache, the median of N runs, then one row per check:
its total time over all ops, backends and dtypes, its share of the run, and how many cases
and samples it ran. The checks added for issue 11 (isolation, layout, sizes, special points,
reference, and the derived samples the older checks now also run on) are marked new.

Each run is the `opsdk check` command in a fresh process (as a user runs it: packs loaded, a
worker forked, with -j its own processes), once with -j 1 and once with the default, taking
turns; the table is the last default run's, each check's time summed over its cases.

Last results (issue 21, after `-j` and the counted gradcheck side; 2 CPU cores, load average
1.0-1.1 while measured; Python 3.11.7, NumPy 2.4; --repeat 3; first-party ops: 11, CPU
backends; warm kernel cache):

    one process (-j 1): 7.17 s (runs 7.17, 7.40, 7.08); 2 processes (-j auto): 4.43 s
    (runs 4.44, 4.25, 4.43); speed-up 1.62x; budget 8 s
    slowest op: nn.layer_norm 1.24 s (budget 20 s); then nn.cross_entropy 1.04, nn.rms_norm 0.94
    `time opsdk check` (the whole command, start-up included): 4.9-5.0 s; -j 1: 7.8 s

| check | seconds | share | cases | samples |
| --- | --- | --- | --- | --- |
| sizes (new) | 1.49 | 18 % | 44 | 230 |
| gradcheck | 1.39 | 17 % | 66 | 294 |
| gradgradcheck | 0.87 | 10 % | 66 | 152 |
| forward | 0.87 | 10 % | 55 | 299 |
| isolation (new) | 0.86 | 10 % | 66 | 92 |
| backward_agreement | 0.52 | 6 % | 55 | 299 |
| ties | 0.47 | 6 % | 66 | 392 |
| special_points, reference, layout, accumulation | 1.47 | 17 % | | |
| the eight engine checks (protocol ... jvp) | 0.43 | 5 % | | |

The run before (issue 21's first pass, one process, load 3.1-3.3): 13.68 s; the same code
idle: 11.5 s.
Issue 11's run (before the regime, tie, long-row samples and the ties and accumulation checks):
9.87 s at load 2.8; before issue 11, 6.5 s cold, about 2 s warm.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

NEW = {"isolation", "layout", "sizes", "special_points", "reference"}
FIRST_PARTY = ("opsdk", "example", "nn")
# issue 21: the warm first-party run (2 idle cores) and any one op's checks
BUDGET_RUN = 8.0
BUDGET_OP = 20.0


def _run(packs, mode, jobs):
    """One `opsdk check` as a user runs it (a fresh process, its own forks): (seconds the command
    reports for the run, its results)."""
    command = [sys.executable, "-m", "opsdk.cli", "check", "--json", "--no-progress", "-j", str(jobs)]
    command += [arg for pack in packs for arg in ("--pack", pack)]
    if mode == "fast":
        command.append("--fast")
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    if done.returncode not in (0, 1):
        raise SystemExit(f"opsdk check ended with {done.returncode}:\n{done.stderr}")
    report = json.loads(done.stdout)
    from opsdk.check import CheckResult

    fields = set(CheckResult.__dataclass_fields__)
    results = [CheckResult(**{k: v for k, v in r.items() if k in fields}) for r in report["results"]]
    return report["summary"]["seconds"], results


def _table(results, total):
    rows = {}
    for r in results:
        row = rows.setdefault(r.check, [0.0, 0, 0, 0])
        row[0] += r.seconds
        row[1] += 1
        row[2] += r.samples
        row[3] += r.failed
    lines = ["| check | seconds | share | cases | samples | failed |", "| --- | --- | --- | --- | --- | --- |"]
    for check, (seconds, cases, samples, failed) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        mark = " (new)" if check in NEW else ""
        lines.append(f"| {check}{mark} | {seconds:.2f} | {100 * seconds / total:.0f} % | {cases} | "
                     f"{samples} | {failed} |")
    return "\n".join(lines)


def _slowest_ops(results, count=5):
    """[(op, seconds)] of the ``count`` ops whose checks took longest, slowest first."""
    per_op = {}
    for r in results:
        per_op[r.op] = per_op.get(r.op, 0.0) + r.seconds
    return sorted(per_op.items(), key=lambda kv: -kv[1])[:count]


def main(argv=None):
    """Measure and print the table (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pack", action="append", dest="packs")
    parser.add_argument("--fast", action="store_true")
    args = parser.parse_args(argv)
    packs = args.packs or list(FIRST_PARTY)
    mode = "fast" if args.fast else "full"
    _run(packs, mode, 1)  # warm: kernels built into the cache
    from opsdk.check import plan_cases, select_ops
    from opsdk.verification.check.parallel import jobs_for

    jobs = jobs_for(plan_cases(select_ops(packs=packs)[0]), None)
    timings, results = {1: [], jobs: []}, None
    for _ in range(args.repeat):  # one process and `opsdk check`'s default, taking turns
        for count in timings:
            seconds, results = _run(packs, mode, count)
            timings[count].append(seconds)
    for count, runs in timings.items():
        how = ("one process (-j 1)" if count == 1 else
               f"{count} processes (the default here, -j auto)")
        print(f"opsdk check over {', '.join(packs)} ({mode} mode, warm kernel cache), {how}: "
              f"{statistics.median(runs):.2f} s (median of {args.repeat}; runs: "
              f"{', '.join(f'{t:.2f}' for t in runs)}); budget {BUDGET_RUN:.0f} s")
    if jobs > 1:
        print(f"speed-up of {jobs} processes over one: "
              f"{statistics.median(timings[1]) / statistics.median(timings[jobs]):.2f}x")
    slowest = _slowest_ops(results)
    print(f"slowest op: {slowest[0][0]} {slowest[0][1]:.2f} s (budget {BUDGET_OP:.0f} s per op); "
          f"next: " + ", ".join(f"{op} {t:.2f} s" for op, t in slowest[1:]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the end: {load:.2f} on {os.cpu_count()} CPU(s)")
    print(_table(results, sum(r.seconds for r in results)))


if __name__ == "__main__":
    main()
