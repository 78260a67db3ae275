"""The built-in pack: the SDK's own ops (pack ``opsdk``), built on the kernel machinery exactly
like a pack's ops.

Each op is one module here with a ``register_op(register)`` function; ``OPS`` lists them, and
``plugin.py`` registers them through the same hook as any installed pack. Nothing is imported
until the packs load (the first ``opsdk.ops.<name>``), or until an op is called.
"""
import importlib

OPS = (
    "erf",
)


def register_all(register):
    """Register each op listed in OPS (its module's ``register_op(register)``)."""
    for name in OPS:
        importlib.import_module(f"{__name__}.{name}").register_op(register)
