"""Where packs come from: the built-in pack, entry points in group ``opsdk``, and in-process objects."""
import importlib
import importlib.metadata
import os
import re
import sys
from typing import Any, Callable, NamedTuple

from ...errors import PackNotInstalledError
from .failures import PluginFailure

GROUP = "opsdk"
ENV_VAR = "OPSDK_LOAD_PLUGINS"
BUILTIN_PACK = "opsdk"
BUILTIN_MODULE = "opsdk.packs.builtin.plugin"


class PackSource(NamedTuple):
    """A pack not loaded yet: its name, how to get its plugin object, its distribution, and the
    module that loading imports (None when the plugin object is given)."""

    name: str
    load: Callable[[], Any]
    distribution: str = None
    version: str = None
    module: str = None


def _normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _sdk_version():
    version = getattr(sys.modules.get("opsdk"), "__version__", None)
    if version is None:
        try:
            version = importlib.metadata.version("opsdk")
        except importlib.metadata.PackageNotFoundError:
            pass
    return version


def builtin_source():
    """The SDK's own pack (name 'opsdk'), loaded through the same hook as every other pack."""
    return PackSource(BUILTIN_PACK, lambda: importlib.import_module(BUILTIN_MODULE), "opsdk",
                      _sdk_version(), BUILTIN_MODULE)


def object_source(plugin, name, distribution=None, version=None):
    """A pack given by code: a plugin object (module, class, instance) or a module's dotted name."""
    if isinstance(plugin, str):
        load = lambda: importlib.import_module(plugin)  # noqa: E731
        return PackSource(name, load, distribution, version, plugin)
    load = lambda: plugin  # noqa: E731
    version = version if version is not None else getattr(plugin, "__version__", None)
    return PackSource(name, load, distribution, version)


def wanted_packs(environ=os.environ):
    """Names listed in OPSDK_LOAD_PLUGINS; None when it is unset (load every pack)."""
    value = environ.get(ENV_VAR)
    if value is None:
        return None
    return [name.strip() for name in value.split(",") if name.strip()]


def entry_point_sources(wanted):
    """Packs installed under group 'opsdk' (only those ``wanted`` lists, when it is not None).

    Returns:
        ``(sources, failures)``: a PackSource per selected entry point, in discovery order, and a
        PluginFailure for each wanted name that no installed pack or distribution matches.
    """
    sources, matched, failures = [], set(), []
    wanted_keys = None if wanted is None else {_normalize(w): w for w in wanted}
    try:
        entry_points = list(importlib.metadata.entry_points(group=GROUP))
    except Exception as error:  # one distribution's broken metadata must not cost every pack
        failures.append(PluginFailure.capture(f"<entry points '{GROUP}'>", None, None, "import", error))
        entry_points = []
    for ep in entry_points:
        # the SDK registers its own pack directly; an entry point for it would only clash
        if ep.value.split(":")[0] == BUILTIN_MODULE:
            continue
        dist = getattr(ep, "dist", None)
        # .name and .version each parse METADATA again; one parse serves both
        metadata = dist.metadata if dist is not None else {}
        dist_name, dist_version = metadata.get("Name"), metadata.get("Version")
        if wanted_keys is not None:
            keys = {_normalize(ep.name)} | ({_normalize(dist_name)} if dist_name else set())
            hits = keys & wanted_keys.keys()
            if not hits:
                continue
            matched |= hits
        sources.append(PackSource(ep.name, ep.load, dist_name, dist_version, ep.module))
    for key, name in (wanted_keys or {}).items():
        if key not in matched and key != _normalize(BUILTIN_PACK):
            error = PackNotInstalledError(
                f"pack '{name}' is listed in {ENV_VAR} but no installed pack or distribution has "
                f"that name; expected: an entry-point name in group '{GROUP}' or the distribution "
                f"providing it; got: '{name}'", name, sorted({BUILTIN_PACK, *(ep.name for ep in entry_points)}))
            failures.append(PluginFailure.capture(name, None, None, "import", error))
    return sources, failures
