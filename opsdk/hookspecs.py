"""``opsdk.hookspecs``: the public name of the hooks an op pack implements and of the pluggy
markers (project ``opsdk``) that tag them: ``hookimpl``, ``hookspec``, ``OpsdkSpec``.

They live in ``opsdk/packs/hookspecs.py``; this module only re-exports them.
"""
from .packs.hookspecs import *  # noqa: F401,F403
from .packs.hookspecs import __all__  # noqa: F401
