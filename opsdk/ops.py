"""``opsdk.ops``: every registered op, by name (``opsdk.ops.swish(x)``, ``opsdk.ops.mypack.swish(x)``,
``opsdk.ops.get("mypack.swish")``).

The lookup lives in ``opsdk/packs/lookup.py``; this module takes only ``get`` and the module
hooks from there, because every name defined here hides an op of that name.
"""
from .packs.lookup import __dir__, __getattr__, get  # noqa: F401
