"""Op packs as pluggy plugins: loading under guards, failure records, the process's registry
(public as ``opsdk.plugins``).

Packs load lazily, on the first ``opsdk.ops.<name>`` or ``opsdk.list_ops()``, never at
``import opsdk``. OPSDK_LOAD_PLUGINS limits which installed packs load (unset: all; empty:
none; the built-in pack always loads). Each pack loads under a guard: what it raises is recorded
(loader.py), opsdk names it changes are put back (namespace.py), and where a process is watched
(the `opsdk` command, the pytest plugin) a pack that hangs, exits or crashes is stopped in a
child process and recorded (supervisor.py; the child reports through channel.py, watch.py
reads it).
"""
from .failures import PluginFailure
from .manager import get_registry, list_ops, register_pack, reload, unregister_pack
from ..registry.registry import PackInfo

__all__ = ["get_registry", "list_ops", "register_pack", "unregister_pack", "reload",
           "PluginFailure", "PackInfo"]
