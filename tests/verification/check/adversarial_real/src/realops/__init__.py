"""realops: an opsdk op pack.

Its ops are listed in ``ops/__init__.py``, one module each; ``opsdk list`` shows them once the
pack is installed, and ``opsdk new-op NAME --backend python`` adds one.
"""
from opsdk import hookimpl

__version__ = "0.1.0"


@hookimpl
def register_ops(register):
    """Register every op of the pack with opsdk."""
    from . import ops

    ops.register_all(register)
