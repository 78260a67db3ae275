"""The outsider's adversarial pack, registered for the tests of this directory."""
import pytest

from ..adversarial_helpers import cli_failures as _pack_failures


def cli_failures(seed, *extra):
    """{'out.op': [failed result dicts]} from `opsdk check --pack out --json` in this process."""
    from .pack import registered

    return _pack_failures(registered, "out", seed, *extra)


@pytest.fixture(scope="session")
def outsider_seed0():
    """The CLI's failures over the pack at seed 0 (full mode, the default)."""
    return cli_failures(0)
