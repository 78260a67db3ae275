"""The outsider's adversarial pack: realistic buggy ops beside correct ops that are hard to verify.

Written as a third-party author would (python and C kernels through the SDK's kernel API, an
installable distribution: see ../pyproject.toml), without reading the first adversarial pack.
Tests import this directory as the package ``opsdk_outsider`` (``import_pack``) and register it
as pack ``out`` with ``registered()``; ../expected.py says which check must report each bug, in
which words, and which ops are correct.
"""
import importlib
import os

from opsdk import hookimpl

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "opsdk_outsider"
NAME = "out"
MODULES = ("state_bugs", "tolerance_bugs", "size_bugs", "broadcast_bugs", "layout_bugs",
           "special_bugs", "attr_bugs", "unwritten_bugs", "grad_bugs", "int_row_bugs", "lltm",
           "edge_bugs", "function_bugs", "good", "good_c", "good_edges")


def import_pack():
    """This directory as the package ``opsdk_outsider`` (imported once per process)."""
    from helpers.packages import import_directory

    return import_directory(HERE, PACKAGE)


@hookimpl
def register_ops(register):
    """Every module's ops, under pack ``out``."""
    for name in MODULES:
        importlib.import_module(f"{PACKAGE}.{name}").register(register)


def module(name):
    """The pack's module ``name`` (``"good"``, ``"edge_bugs"``, ...), for tests of a single op."""
    import_pack()
    return importlib.import_module(f"{PACKAGE}.{name}")


def registered():
    """The pack registered as ``out`` for a block (a context manager)."""
    from helpers.packages import registered_pack

    import_pack()
    return registered_pack(PACKAGE, NAME)
