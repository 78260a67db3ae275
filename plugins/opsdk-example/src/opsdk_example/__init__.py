"""opsdk-example: the example op pack, ``example.swish`` with python, C and CUDA kernels.

opsdk finds this module through the entry point ``example`` (group ``opsdk``) and calls its
``register_ops`` hook when the packs load; importing it compiles nothing.
"""
from opsdk import hookimpl

__version__ = "0.1.0"


@hookimpl
def register_ops(register):
    """Register the pack's ops with opsdk."""
    from . import swish

    swish.register_op(register)
