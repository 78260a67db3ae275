"""Loading one pack under its own guard: whatever goes wrong is recorded, never raised."""
import pluggy

from ...errors import PluginTamperError, RegistrationError
from ..registry.registry import PackInfo, source_label
from ..registry.validation import check_name
from . import channel
from .failures import PluginFailure
from .namespace import Snapshot
from .registrar import Registrar

_HOOKS = ("register_ops",)


def _pack_hooks(pm, plugin, name):
    """Register ``plugin`` with pluggy as ``name``; return its register_ops implementations."""
    where = f"pack '{name}'"
    if pm.is_registered(plugin):
        raise RegistrationError(f"{where}: {plugin!r} is already loaded as pack "
                                f"'{pm.get_name(plugin)}'; expected: one plugin object per pack")
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as error:
        raise RegistrationError(f"{where}: its hook does not match the spec; expected: "
                                f"register_ops(register); got: {error}") from error
    impls = []
    for caller in pm.get_hookcallers(plugin) or ():
        own = [impl for impl in caller.get_hookimpls() if impl.plugin is plugin]
        if not caller.has_spec() and not all(impl.optionalhook for impl in own):
            raise RegistrationError(f"{where}: implements unknown hook '{caller.name}'; "
                                    f"expected: one of {', '.join(_HOOKS)}")
        if caller.name == "register_ops":
            impls += own
    if not impls:
        raise RegistrationError(f"{where}: {plugin!r} implements no opsdk hook; expected: a function "
                                "register_ops(register) decorated with @opsdk.hookimpl")
    for impl in impls:
        if impl.wrapper or impl.hookwrapper:
            raise RegistrationError(f"{where}: register_ops must be a plain hook; got: a wrapper")
    return impls


def _left_alone(snapshot, source, stage):
    """Put back the opsdk names the pack changed so far; raise PluginTamperError naming them."""
    changed = snapshot.restore()
    if changed:
        raise PluginTamperError(
            f"pack '{source.name}' replaced opsdk's own names at {stage}: {', '.join(changed)}; "
            "they were put back and the pack was left out; expected: a pack adds ops through "
            "register(...) and leaves opsdk's names alone (wrap an op in your own function instead)",
            changed)


def load_pack(source, pm, registry, snapshot=None):
    """Import ``source``, run its hooks and add its ops to ``registry``, all under one guard.

    Args:
        snapshot: opsdk's names as they were before this pack (a namespace.Snapshot, shared by
            the packs of one load); None takes one now.

    Returns:
        the pack's PackInfo, or the PluginFailure recorded in ``registry`` when it failed (the
        pack then leaves no op behind and stays out of ``pm``).
    """
    stage, plugin = "register", None
    snapshot = Snapshot() if snapshot is None else snapshot
    try:
        check_name(source.name, f"pack name '{source.name}' (its entry-point name)")
        registry.check_pack_name_free(source.name, source_label(source.distribution, source.version))
        stage = "import"
        with channel.loading(source):
            plugin = source.load()
            _left_alone(snapshot, source, stage)
            stage = "register"
            impls = _pack_hooks(pm, plugin, source.name)
            stage = "hook"
            channel.stage(stage)
            registrar = Registrar(source.name, source.version, source.distribution)
            arguments = {"register": registrar}
            try:
                for impl in impls:
                    impl.function(*[arguments[name] for name in impl.argnames])
            finally:
                registrar.closed = True
            _left_alone(snapshot, source, stage)
        stage = "register"
        info = PackInfo(source.name, source.distribution, source.version, tuple(registrar.ops.values()))
        registry.add_pack(info)
        return info
    # a pack that calls sys.exit() while importing is broken, not a request to stop the SDK
    except (Exception, SystemExit) as error:
        snapshot.restore()  # a pack that failed otherwise is named already; its changes still go
        if plugin is not None and pm.get_plugin(source.name) is plugin:
            pm.unregister(name=source.name)
        if isinstance(error, RegistrationError):
            stage = "register"
        failure = PluginFailure.capture(source.name, source.distribution, source.version, stage, error)
        registry.record_failure(failure)
        return failure
