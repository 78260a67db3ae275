"""The process's packs: loaded on first use (never at ``import opsdk``), reloadable, extensible."""
import importlib
import threading

import pluggy

from ...errors import PackNotFoundError, PluginLoadError
from ..hookspecs import PROJECT, OpsdkSpec
from ..registry.registry import Registry
from .failures import PluginFailure
from . import supervisor
from .loader import load_pack
from .namespace import Snapshot
from .sources import builtin_source, entry_point_sources, object_source, wanted_packs


class _State:
    """The one registry, its pluggy manager, and the packs code registered in this process."""

    def __init__(self):
        self.lock = threading.RLock()
        self.registry = None
        self.ready = False
        self.pm = None
        self.in_process = {}


_state = _State()


def _load_all():
    """Fill a fresh registry: built-in pack, installed packs OPSDK_LOAD_PLUGINS allows, in-process packs.

    Installed packs that hung or ended a supervised process are recorded, not loaded again; the
    names of opsdk each pack changed are put back (supervisor.py, namespace.py).
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(OpsdkSpec)
    registry = Registry()
    # readers that skip the lock must never see the new registry marked ready before it is
    _state.ready = False
    _state.registry, _state.pm = registry, pm
    try:
        snapshot = Snapshot()
        load = lambda source: load_pack(source, pm, registry, snapshot)  # noqa: E731
        load(builtin_source())
        sources, failures = entry_point_sources(wanted_packs())
        for failure in failures:
            registry.record_failure(failure)
        stopped = supervisor.isolate(sources, load)
        for source in sources:
            failure = stopped.get(supervisor.key(source))
            if failure is not None:
                registry.record_failure(failure)
            else:
                load(source)
        for source in _state.in_process.values():
            load(source)
    finally:
        _state.ready = True


def get_registry():
    """The registry of every loaded op, loading the packs on the first call.

    Returns:
        Registry: ``ops()``, ``get(name)``, ``packs()``, ``failures()``.

    Example::

        reg = opsdk.plugins.get_registry()
        [op.qualname for op in reg.ops()]       # ['mypack.swish', ...]
        [str(f) for f in reg.failures()]        # packs that did not load, and why
    """
    registry = _state.registry
    if registry is not None and _state.ready:
        return registry
    with _state.lock:
        # a pack that looks ops up while it is being loaded sees the packs loaded before it
        if _state.registry is None:
            _load_all()
        return _state.registry


def reload():
    """Load every pack again: rescan entry points, re-read OPSDK_LOAD_PLUGINS, re-run in-process packs.

    Returns:
        the new Registry.

    Example::

        os.environ["OPSDK_LOAD_PLUGINS"] = "mypack"
        opsdk.plugins.reload()
    """
    with _state.lock:
        importlib.invalidate_caches()
        _load_all()
        return _state.registry


def register_pack(plugin, name, *, version=None, distribution=None):
    """Load a pack from code, under the same guard as installed packs; it stays until unregister_pack.

    Args:
        plugin: an object with ``@hookimpl`` functions (a module, class or instance), or the
            dotted name of a module to import.
        name: the pack's name; its ops become ``<name>.<op>``.
        version: the pack's version (default: the plugin's ``__version__``, if any).
        distribution: the distribution it belongs to, if any.

    Returns:
        PackInfo of the loaded pack.

    Raises:
        PluginLoadError: the name is taken, or the pack failed (the failure is also recorded and
            listed like any other until ``unregister_pack(name)``).

    Example::

        opsdk.plugins.register_pack(my_ops_module, name="testpack")
        try:
            opsdk.ops.testpack.swish(x)
        finally:
            opsdk.plugins.unregister_pack("testpack")
    """
    with _state.lock:
        registry = get_registry()
        if name in _state.in_process or registry.has_pack(name):
            raise PluginLoadError(f"pack name '{name}' is taken by a loaded pack; expected: a free "
                                  f"name, or unregister_pack('{name}') first; got: '{name}'")
        source = object_source(plugin, name, distribution, version)
        _state.in_process[name] = source
        result = load_pack(source, _state.pm, registry, Snapshot())
        if isinstance(result, PluginFailure):
            raise PluginLoadError(str(result)) from result.error
        return result


def unregister_pack(name):
    """Remove a pack, its ops and its failure records (an installed pack comes back on reload()).

    Raises:
        PackNotFoundError: no pack, loaded or failed, is called ``name``.

    Example::

        opsdk.plugins.unregister_pack("testpack")
    """
    with _state.lock:
        registry = get_registry()
        known = _state.in_process.pop(name, None) is not None
        if _state.pm.has_plugin(name):
            _state.pm.unregister(name=name)
        known |= registry.remove_pack(name) is not None
        known |= registry.forget_failures(name) > 0
        if not known:
            loaded = ", ".join(p.name for p in registry.packs()) or "(none)"
            raise PackNotFoundError(f"no op pack named '{name}' is loaded or failed; expected: "
                                    f"one of {loaded}; got: '{name}'")


def list_ops(pack=None):
    """Every registered op (OpInfo), sorted by qualified name; only one pack's when ``pack`` is given.

    Example::

        [op.qualname for op in opsdk.list_ops()]           # ['mypack.swish', ...]
    """
    registry = get_registry()
    ops = registry.ops()
    if pack is not None:
        registry.pack(pack)  # an unknown pack is an error, not an empty list
        ops = [op for op in ops if op.pack == pack]
    return ops
