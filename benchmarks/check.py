"""`opsdk check` speed: the whole run over the first-party ops, and what each check costs.

Run: python benchmarks/check.py [--repeat N] [--pack P ...] [--fast]
Prints the wall time of `opsdk check` over the selected packs (default: the first-party ones,
opsdk, example and nn) with a warm kernel cache, the median of N runs, then one row per check:
its total time over all ops, backends and dtypes, its share of the run, and how many cases
and samples it ran. The checks added for issue 11 (isolation, layout, sizes, special points,
reference, and the derived samples the older checks now also run on) are marked new.

Last results (2 CPU cores shared with other jobs, loaded; Python 3.11.7, NumPy 2.4; --repeat 3;
first-party ops, full mode, warm cache):

    whole run: 8.9 s (fast mode: 3.1 s); budget 30 s
    (table in the commit that last updated these numbers, see the docstring of main)
"""
import argparse
import statistics
import time

NEW = {"isolation", "layout", "sizes", "special_points", "reference"}
FIRST_PARTY = ("opsdk", "example", "nn")


def _run(packs, mode):
    from opsdk.check import plan_cases, run_checks, select_ops

    ops, failures = select_ops(packs=packs)
    start = time.perf_counter()
    results = run_checks(plan_cases(ops), failures, mode=mode)
    return time.perf_counter() - start, results


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


def main(argv=None):
    """Measure and print the table (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pack", action="append", dest="packs")
    parser.add_argument("--fast", action="store_true")
    args = parser.parse_args(argv)
    packs = args.packs or list(FIRST_PARTY)
    mode = "fast" if args.fast else "full"
    _run(packs, mode)  # warm: kernels built and loaded, samples drawn once
    from opsdk.check import clear_caches

    timings, results = [], None
    for _ in range(args.repeat):
        clear_caches()
        seconds, results = _run(packs, mode)
        timings.append(seconds)
    total = statistics.median(timings)
    print(f"opsdk check over {', '.join(packs)} ({mode} mode, warm kernel cache): "
          f"{total:.2f} s (median of {args.repeat}; runs: "
          f"{', '.join(f'{t:.2f}' for t in timings)}); budget 30 s")
    print(_table(results, sum(r.seconds for r in results)))


if __name__ == "__main__":
    main()
