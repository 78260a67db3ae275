"""The built-in pack's plugin: pack 'opsdk', registered through the same hook as any installed pack."""
from ..hookspecs import hookimpl
from . import register_all


@hookimpl
def register_ops(register):
    """Register the SDK's own ops (``opsdk.packs.builtin``)."""
    register_all(register)
