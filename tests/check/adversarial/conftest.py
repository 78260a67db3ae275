"""The adversarial pack, registered for the tests of this directory."""
import json

import pytest
from click.testing import CliRunner


def cli_failures(seed, *extra):
    """{'adv.op': [failed result dicts]} from `opsdk check --pack adv --json` in this process."""
    from opsdk.cli import main

    from .pack import registered

    with registered():
        result = CliRunner().invoke(main, ["check", "--pack", "adv", "--json", "--seed", str(seed),
                                           *extra], catch_exceptions=False)
    failed = {}
    for row in json.loads(result.output)["results"]:
        failed.setdefault(row["op"], [])
        if row["status"] in ("fail", "error", "blocked"):
            failed[row["op"]].append(row)
    return failed


@pytest.fixture(scope="session")
def seed0():
    """The CLI's failures over the pack at seed 0 (full mode, the default)."""
    return cli_failures(0)
