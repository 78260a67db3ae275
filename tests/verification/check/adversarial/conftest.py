"""The adversarial pack, registered for the tests of this directory."""
import pytest

from ..adversarial_helpers import cli_failures as _pack_failures


def cli_failures(seed, *extra):
    """{'adv.op': [failed result dicts]} from `opsdk check --pack adv --json` in this process."""
    from .pack import registered

    return _pack_failures(registered, "adv", seed, *extra)


@pytest.fixture(scope="session")
def seed0():
    """The CLI's failures over the pack at seed 0 (full mode, the default)."""
    return cli_failures(0)
