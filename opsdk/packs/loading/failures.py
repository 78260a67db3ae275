"""PluginFailure: what a pack that failed to load leaves behind, for ``opsdk list`` / ``opsdk doctor``."""
from typing import NamedTuple

from ..registry.registry import source_label

class PluginFailure(NamedTuple):
    """A pack that failed to load, and why.

    Attributes:
        pack: the pack's name (its entry-point name).
        distribution: the installed distribution that provides it (None for in-process packs).
        version: that distribution's version.
        stage: "import" (the module did not import or is not installed), "hook" (its
            ``register_ops`` raised), or "register" (it registered something invalid or clashing).
        error: the exception (PluginTimeoutError, PluginCrashError for a pack that hung or ended
            a watched process, PluginTamperError for one that changed opsdk's names).
        traceback: the formatted traceback, for ``opsdk doctor``; for a pack that hung or
            crashed, the stack faulthandler wrote where it waited or crashed.
    """

    pack: str
    distribution: str
    version: str
    stage: str
    error: BaseException
    traceback: str

    @classmethod
    def capture(cls, pack, distribution, version, stage, error):
        """Record ``error`` (being handled now) as the failure of ``pack`` at ``stage``."""
        import traceback  # only a failing pack pays for it

        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        return cls(pack, distribution, version, stage, error, text)

    @property
    def source(self):
        """'distribution version', or 'in-process' for packs registered by code."""
        return source_label(self.distribution, self.version)

    def __str__(self):
        return (f"pack '{self.pack}' ({self.source}) failed at {self.stage}: "
                f"{type(self.error).__name__}: {self.error}")
