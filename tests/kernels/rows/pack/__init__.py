"""The rows test pack: ops written with ``opsdk.kernels.rows.Rows`` behind Functions of its forward and
backward (opsdk-nn's RMSNorm, LayerNorm and softmax, and a per-row cross entropy of its own),
registered as pack ``rows`` for ``opsdk check`` (see ``registered``)."""
import os

from opsdk import hookimpl

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "opsdk_rows_pack"
NAME = "rows"
MODULES = ("rms_norm", "layer_norm", "softmax", "cross_entropy")


def import_pack():
    """This directory as the package ``opsdk_rows_pack`` (imported once per process)."""
    from helpers.packages import import_directory

    return import_directory(HERE, PACKAGE)


def module(name):
    """The pack's module ``name``."""
    import importlib

    import_pack()
    return importlib.import_module(f"{PACKAGE}.{name}")


@hookimpl
def register_ops(register):
    """Every module's ops, under the pack's name."""
    for name in MODULES:
        module(name).register_op(register)


def registered():
    """The pack registered as ``rows`` for a block (a context manager)."""
    from helpers.packages import registered_pack

    import_pack()
    return registered_pack(PACKAGE, NAME)
