"""`opsdk check` over many seeds: first-party ops, packs made by `opsdk new-op`, the adversarial packs.

    python tests/verification/check/run_seeds.py [--seeds 20] [--only first-party|generated|adversarial|outsider]

The suite runs one or two seeds of each (tests/verification/check/test_seeds.py, adversarial/test_seeds.py,
adversarial_outsider/test_seeds.py); this script runs the acceptance of issue 11 over every
seed: no first-party or generated op fails, every bug of both adversarial packs is caught with
its cause named and no correct op of theirs is flagged. Exits 1 on any problem and prints one
line per seed.
"""
import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # tests/, for `verification.check.adversarial`


def _failures(*args):
    from click.testing import CliRunner

    from opsdk.cli import main

    result = CliRunner().invoke(main, ["check", "--json", *args], catch_exceptions=False)
    return [f"{r['op']}[{r['backend']}-{r['dtype']}-{r['check']}]: {r['message']}"
            for r in json.loads(result.output)["results"]
            if r["status"] in ("fail", "error", "blocked")]


def generate_pack(root):
    """A pack made by `opsdk new-pack` and `opsdk new-op` (python; c and python), registered."""
    from click.testing import CliRunner

    import opsdk.plugins
    from opsdk.verification.check import clear_caches
    from opsdk.cli import main

    runner, cwd = CliRunner(), os.getcwd()
    try:
        os.chdir(root)
        assert runner.invoke(main, ["new-pack", "seedpack"]).exit_code == 0
        os.chdir("seedpack")
        for args in (["new-op", "smooth"], ["new-op", "smooth_c", "--backend", "c",
                                            "--backend", "python"]):
            result = runner.invoke(main, args)
            assert result.exit_code == 0, result.output
    finally:
        os.chdir(cwd)
    sys.path.insert(0, os.path.join(root, "seedpack", "src"))
    opsdk.plugins.register_pack("seedpack", name="seedpack")
    clear_caches()
    return "seedpack"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--only", choices=("first-party", "generated", "adversarial", "outsider"))
    args = parser.parse_args(argv)
    problems = 0
    if args.only in (None, "first-party"):
        for seed in range(args.seeds):
            found = _failures("--pack", "opsdk", "--pack", "example", "--pack", "nn",
                              "--seed", str(seed))
            print(f"first-party seed {seed}: {len(found)} failure(s)", *found, sep="\n  ", flush=True)
            problems += len(found)
    if args.only in (None, "generated"):
        name = generate_pack(tempfile.mkdtemp(prefix="opsdk-seeds-"))
        for seed in range(args.seeds):
            found = _failures("--pack", name, "--seed", str(seed))
            print(f"generated seed {seed}: {len(found)} failure(s)", *found, sep="\n  ", flush=True)
            problems += len(found)
    if args.only in (None, "adversarial"):
        from verification.check.adversarial.run_pack import main as adversarial

        problems += adversarial(["--seeds", str(args.seeds)])
    if args.only in (None, "outsider"):
        from verification.check.adversarial_outsider.run_pack import main as outsider

        problems += outsider(["--seeds", str(args.seeds)])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
