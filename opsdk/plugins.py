"""``opsdk.plugins``: the public name of pack loading (``get_registry``, ``register_pack``,
``unregister_pack``, ``reload``, ``list_ops``).

Its code lives in ``opsdk/packs/loading/``; this module only re-exports that package's public names.
"""
from .packs.loading import *  # noqa: F401,F403
from .packs.loading import __all__  # noqa: F401
