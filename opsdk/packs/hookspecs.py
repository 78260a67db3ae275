"""The hooks an op pack implements, and the pluggy markers (project "opsdk") that tag them.

A pack is a module (or any object) found through the entry-point group ``opsdk``; the entry
point's name is the pack's name, and every op it registers is called ``<pack>.<op>``::

    from opsdk import hookimpl, TensorSpec

    @hookimpl
    def register_ops(register):
        register(Swish, name="swish", inputs=[TensorSpec(shape=(3, 4))])
"""
import pluggy

__all__ = ["PROJECT", "hookspec", "hookimpl", "OpsdkSpec"]

PROJECT = "opsdk"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class OpsdkSpec:
    """The hook specifications every opsdk pack is checked against."""

    @hookspec
    def register_ops(self, register):
        """Register this pack's ops by calling ``register(...)`` once per op."""
