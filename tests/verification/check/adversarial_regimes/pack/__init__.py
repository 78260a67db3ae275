"""The regimes pack: ops whose bugs hide in a selection regime, at exact ties, in a float32
accumulation over long rows, in a buffer reused across calls, behind a broadcast that asks
for gigabytes, or in a cache keyed on part of the call (issue 21); and hard correct ops of the
same kinds, which no check may flag.

Tests import this directory as the package ``opsdk_regimes`` (see ``import_pack``) and
register it as pack ``reg`` with ``registered()``; ``BUGS`` (in ../expected.py) says, for each
bug, a check that must fail and words its report must contain. It shares the adversarial
pack's helpers (``opsdk_adversarial._common``).
"""
import os

from verification.check.adversarial_helpers import pack_functions

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "opsdk_regimes"
NAME = "reg"
MODULES = ("correct", "ported", "bugs_regimes", "bugs_ties", "bugs_accumulation",
           "bugs_buffers", "bugs_broadcast", "caches", "bugs_caches")


def import_pack():
    """This directory as the package ``opsdk_regimes`` (imported once per process)."""
    from verification.check.adversarial.pack import import_pack as import_adversarial
    from helpers.packages import import_directory

    import_adversarial()
    return import_directory(HERE, PACKAGE)


register_ops, module, registered = pack_functions(PACKAGE, NAME, MODULES, import_pack)
