"""The SDK's built-in ops: pack 'opsdk', registered through the same hook as any installed pack."""
from .hookspecs import hookimpl


@hookimpl
def register_ops(register):
    """Register the SDK's own ops (``opsdk.builtin_ops``)."""
    from . import builtin_ops

    builtin_ops.register_all(register)
