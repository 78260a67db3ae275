"""Op packs: everything opsdk does with them, in one place.

- ``hookspecs.py``: the hooks a pack implements and the pluggy markers (public as ``opsdk.hookspecs``;
  ``opsdk.hookimpl``).
- ``registry/``: what ``register(...)`` builds and checks (OpInfo, TensorSpec, Sample,
  tolerances) and the registry of loaded packs (public as ``opsdk.registry``).
- ``loading/``: finding packs (entry-point group ``opsdk``), loading each under its guard, the
  process's registry and its failures (public as ``opsdk.plugins``).
- ``lookup.py``: registered ops by name (public as ``opsdk.ops``).
- ``builtin/``: the built-in pack ``opsdk`` (its ops, and the plugin that registers them through
  the same hook as any installed pack).

The first-party packs shipped with the SDK (``plugins/`` at the top of the repository) are
separate distributions, loaded like any third-party pack. This package imports nothing itself,
so importing one part (the built-in pack's erf, the hook markers) does not load the others.
"""
