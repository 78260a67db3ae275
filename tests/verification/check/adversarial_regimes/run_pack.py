"""Run `opsdk check` (the CLI, in this process) over the regimes pack: the catch matrix.

    python tests/verification/check/adversarial_regimes/run_pack.py [--seeds 5] [--dtype float32 ...]

For each seed and each dtype alone (default: float32, float64), prints the bugs not caught
(or caught without naming their cause) and the correct ops flagged, by class; then the matrix
of classes caught in every run. Exits 1 if any bug was missed or any correct op flagged.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))  # tests/, for `verification.check.adversarial_regimes`


def main(argv=None):
    from verification.check.adversarial_regimes.conftest import cli_failures
    from verification.check.adversarial_regimes.expected import BUGS, ONLY_IN, false_alarms, missed

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--dtype", action="append", dest="dtypes")
    args, extra = parser.parse_known_args(argv)
    extra = [a for a in extra if a != "--"]
    classes = sorted({cls for cls, _, _ in BUGS.values()})
    caught = {cls: 0 for cls in classes}
    runs = {cls: 0 for cls in classes}
    bad = 0
    for seed in range(args.seeds):
        for dtype in args.dtypes or ("float32", "float64"):
            failed = cli_failures(seed, "--dtype", dtype, *extra)
            misses, alarms = missed(failed, dtype), false_alarms(failed)
            expected = set(BUGS) - set(ONLY_IN) | {n for n, ds in ONLY_IN.items() if dtype in ds}
            for cls in {BUGS[n][0] for n in expected}:
                runs[cls] += 1
                caught[cls] += not any(BUGS[m][0] == cls for m in misses)
            print(f"seed {seed} {dtype}: {len(expected) - len(misses)}/{len(expected)} bugs caught, "
                  f"{len(alarms)} correct op(s) flagged", flush=True)
            for name, why in misses.items():
                print(f"  MISSED {name} ({BUGS[name][0]}): {why[:300]}")
            for name, rows in alarms.items():
                print(f"  FALSE ALARM {name}: " + "; ".join(
                    f"{r['backend']}-{r['dtype']}-{r['check']}: {r['message'][:200]}" for r in rows[:3]))
            bad += len(misses) + len(alarms)
    print("class: runs that caught every bug of the class / runs that can show it")
    for cls in classes:
        print(f"  {cls}: {caught[cls]}/{runs[cls]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
