"""The adversarial pack: correct ops of every kind, and ops with one realistic bug each.

Tests import this directory as the package ``opsdk_adversarial`` (see ``import_pack``) and
register it with ``registered()``; ``BUGS`` (in ../expected.py) says, for each bug, a check
that must fail and words its report must contain. ``module(name)`` gives one of its modules to
tests that check a single op of it.
"""
import os

from verification.check.adversarial_helpers import pack_functions

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "opsdk_adversarial"
NAME = "adv"
MODULES = ("correct", "bugs_state", "bugs_numerics", "bugs_sizes", "bugs_shapes", "bugs_points",
           "bugs_forward")


def import_pack():
    """This directory as the package ``opsdk_adversarial`` (imported once per process)."""
    from helpers.packages import import_directory

    return import_directory(HERE, PACKAGE)


register_ops, module, registered = pack_functions(PACKAGE, NAME, MODULES, import_pack)
