"""Run `opsdk check` (the CLI, in this process) over the adversarial pack, for given seeds.

    python tests/verification/check/adversarial/run_pack.py [--seeds 20] [--fast] [-- extra opsdk check args]

Prints, per seed, the bugs not caught and the correct ops flagged; exits 1 if any.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))  # tests/, for `verification.check.adversarial`


def verdicts(seed, extra=()):
    """{op: [failed results as dicts]} for every op of the pack, from `opsdk check --json`."""
    from click.testing import CliRunner

    from verification.check.adversarial.pack import registered
    from opsdk.cli import main

    with registered():
        result = CliRunner().invoke(main, ["check", "--pack", "adv", "--json", "--seed", str(seed),
                                           *extra], catch_exceptions=False)
    document = json.loads(result.output)
    failed = {}
    for row in document["results"]:
        failed.setdefault(row["op"], [])
        if row["status"] in ("fail", "error", "blocked"):
            failed[row["op"]].append(row)
    return failed


def main(argv=None):
    from verification.check.adversarial.expected import BUGS, CORRECT, missed

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--fast", action="store_true")
    args, extra = parser.parse_known_args(argv)
    extra = [a for a in extra if a != "--"] + (["--fast"] if args.fast else [])
    bad = 0
    for seed in range(args.seeds):
        failed = verdicts(seed, extra)
        alarms = {op: rows for op, rows in failed.items() if op.split(".", 1)[1] in CORRECT and rows}
        misses = missed(failed)
        print(f"seed {seed}: {len(BUGS) - len(misses)}/{len(BUGS)} bugs caught, "
              f"{len(alarms)} false alarm(s)", flush=True)
        for op, rows in alarms.items():
            print(f"  FALSE ALARM {op}: " + "; ".join(f"{r['backend']}-{r['dtype']}-{r['check']}: "
                                                  f"{r['message']}" for r in rows[:3]))
        for name, why in misses.items():
            print(f"  MISSED {name}: {why}")
        bad += len(alarms) + len(misses)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
