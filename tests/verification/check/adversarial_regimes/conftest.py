"""The regimes pack, registered for the tests of this directory."""
import pytest

from ..adversarial_helpers import cli_failures as _pack_failures


def cli_failures(seed, *extra):
    """{'reg.op': [failed result dicts]} from `opsdk check --pack reg --json` in this process."""
    from .pack import registered

    return _pack_failures(registered, "reg", seed, *extra)


@pytest.fixture(scope="session")
def regimes_seed0():
    """The CLI's failures over the pack at seed 0 in float32 (full mode, the default): the one
    run of the pack the default test run affords; float32 shows every class (an accumulator's
    too), and test_seeds.py (-m slow) sweeps seeds 0-4 with each dtype alone."""
    return cli_failures(0, "--dtype", "float32")
