"""Run `opsdk check` (the CLI, in this process) over the outsider's pack, for given seeds.

    python tests/verification/check/adversarial_outsider/run_pack.py [--seeds 10] [--fast] [-- extra args]

Prints, per seed, the bugs not caught (or caught without naming their cause) and the correct
ops flagged, by issue-11 class; exits 1 if any.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))  # tests/, for `verification.check.adversarial_outsider`


def main(argv=None):
    from verification.check.adversarial_outsider.conftest import cli_failures
    from verification.check.adversarial_outsider.expected import BUGS, CORRECT, false_alarms, missed

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--fast", action="store_true")
    args, extra = parser.parse_known_args(argv)
    extra = [a for a in extra if a != "--"] + (["--fast"] if args.fast else [])
    bad = 0
    for seed in range(args.seeds):
        failed = cli_failures(seed, *extra)
        misses, alarms = missed(failed), false_alarms(failed)
        print(f"outsider seed {seed}: {len(BUGS) - len(misses)}/{len(BUGS)} bugs caught naming "
              f"their cause, {len(alarms)}/{len(CORRECT)} correct ops flagged", flush=True)
        for name, why in misses.items():
            print(f"  MISSED [{BUGS[name][0]}] {name}: {why}")
        for name, rows in alarms.items():
            print(f"  FALSE ALARM {name}: " + "; ".join(
                f"{r['backend']}-{r['dtype']}-{r['check']}: {r['message'][:200]}" for r in rows[:3]))
        bad += len(misses) + len(alarms)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
