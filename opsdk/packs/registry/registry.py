"""The registry: loaded packs, their ops by qualified and short name, and packs that failed."""
from typing import NamedTuple

from ...errors import PackNameClashError, PackNotFoundError
from .resolution import ambiguous, not_found


def source_label(distribution, version):
    """'distribution version' for messages; 'in-process' for a pack with no distribution."""
    if distribution is None:
        return "in-process"
    return f"{distribution} {version}" if version else distribution


class PackInfo(NamedTuple):
    """A loaded op pack: its name, where it came from, and the ops it registered."""

    name: str
    distribution: str = None
    version: str = None
    ops: tuple = ()

    @property
    def source(self):
        """'distribution version' for messages ('in-process' when it has no distribution)."""
        return source_label(self.distribution, self.version)


class Registry:
    """Every op of every loaded pack, plus the failures of packs that did not load.

    The plugin loader fills it (``add_pack``, ``remove_pack``, ``record_failure``,
    ``forget_failures``); users read it (``ops``, ``get``, ``packs``, ``failures``).
    """

    def __init__(self):
        self._packs = {}
        self._ops = {}
        self._by_short = {}
        self._failures = []

    # -- reading -----------------------------------------------------------------------------
    def ops(self):
        """Every registered op (OpInfo), sorted by qualified name."""
        return [self._ops[q] for q in sorted(self._ops)]

    def get(self, name):
        """The op called ``name``: a qualified name ``'pack.op'`` or a short name one pack registers.

        Args:
            name: ``'mypack.swish'`` or ``'swish'``.

        Returns:
            OpInfo.

        Raises:
            OpNotFoundError: no such op (the message suggests close names and failed packs).
            AmbiguousOpError: several packs register the short name (the message lists them).

        Example::

            registry.get("mypack.swish") is registry.get("swish")   # while only mypack has swish
        """
        op = self._ops.get(name)
        if op is not None:
            return op
        candidates = self._by_short.get(name, ())
        if len(candidates) == 1:
            return self._ops[candidates[0]]
        if candidates:
            raise ambiguous(name, candidates)
        raise not_found(name, [*self._ops, *self._by_short], self._failures)

    def short_names(self):
        """Short op names that resolve on their own (registered by exactly one pack)."""
        return sorted(n for n, q in self._by_short.items() if len(q) == 1)

    def packs(self):
        """Every loaded pack (PackInfo), in load order."""
        return list(self._packs.values())

    def pack(self, name):
        """The loaded pack called ``name`` (PackInfo); PackNotFoundError if none is loaded."""
        if name not in self._packs:
            raise PackNotFoundError(f"no op pack named '{name}' is loaded; expected: one of "
                                    f"{', '.join(self._packs) or '(none)'}; got: '{name}'")
        return self._packs[name]

    def has_pack(self, name):
        """Whether a pack called ``name`` is loaded."""
        return name in self._packs

    def failures(self):
        """Packs that failed to load, as PluginFailure records, in the order they failed."""
        return list(self._failures)

    # -- filled by the plugin loader ---------------------------------------------------------
    def check_pack_name_free(self, name, source):
        """Raise RegistrationError naming both packs when a pack called ``name`` is already loaded."""
        if name in self._packs:
            raise PackNameClashError(
                f"pack '{name}' ({source}) clashes with the already loaded pack '{name}' "
                f"({self._packs[name].source}): both would register ops as '{name}.<op>'; "
                "expected: a pack name no other pack uses (the entry-point name in group "
                "'opsdk'); rename one of them")

    def add_pack(self, info):
        """Add a loaded pack and its ops; RegistrationError when its name is taken."""
        self.check_pack_name_free(info.name, info.source)
        self._packs[info.name] = info
        for op in info.ops:
            self._ops[op.qualname] = op
            self._by_short.setdefault(op.name, []).append(op.qualname)

    def remove_pack(self, name):
        """Remove a loaded pack and its ops; return its PackInfo, or None when it is not loaded."""
        info = self._packs.pop(name, None)
        for op in info.ops if info else ():
            del self._ops[op.qualname]
            self._by_short[op.name].remove(op.qualname)
            if not self._by_short[op.name]:
                del self._by_short[op.name]
        return info

    def record_failure(self, failure):
        """Record a pack that failed to load (a PluginFailure, or anything with a ``pack``)."""
        self._failures.append(failure)

    def forget_failures(self, pack):
        """Drop the failure records of ``pack``; return how many there were."""
        kept = [f for f in self._failures if f.pack != pack]
        dropped = len(self._failures) - len(kept)
        self._failures = kept
        return dropped
