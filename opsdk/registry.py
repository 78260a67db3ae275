"""``opsdk.registry``: the public name of op registration (``TensorSpec``, ``Sample``, ``OpInfo``,
``build_opinfo``, tolerances).

Its code lives in ``opsdk/packs/registry/``; this module only re-exports that package's public names.
"""
from .packs.registry import *  # noqa: F401,F403
from .packs.registry import __all__  # noqa: F401
