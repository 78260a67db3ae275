"""Registered ops by name: the behaviour of the public namespace ``opsdk.ops``.

``opsdk.ops.swish(x)`` works while exactly one pack registers ``swish``; ``opsdk.ops.mypack.swish(x)``
and ``opsdk.ops.get("mypack.swish")`` always work. Packs load on the first lookup, not on import.
Names starting with '_' are never ops, so introspection (``__path__``, ``__wrapped__``, ...) never
loads packs. ``opsdk/ops.py`` takes ``get``, ``__getattr__`` and ``__dir__`` from here and
nothing else: every name it holds hides an op of that name from short attribute access.
"""


def get(name):
    """The op called ``name``: qualified (``'mypack.swish'``) or a short name one pack registers.

    Args:
        name: ``'pack.op'`` or ``'op'``.

    Returns:
        OpInfo, callable like the op (``Function.apply``), with its metadata.

    Raises:
        OpNotFoundError: no such op; the message suggests close names and lists failed packs.
        AmbiguousOpError: several packs register the short name; the message lists them.

    Example::

        swish = opsdk.ops.get("mypack.swish")
        y = swish(x, beta=1.5)
    """
    from .loading import get_registry

    return get_registry().get(name)


class _PackOps:
    """``opsdk.ops.<pack>``: one pack's ops as attributes."""

    def __init__(self, pack):
        self._pack = pack

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(f"'opsdk.ops.{self._pack}' has no attribute '{name}'")
        return get(f"{self._pack}.{name}")

    def __dir__(self):
        from .loading import get_registry

        return sorted(op.name for op in get_registry().pack(self._pack).ops)

    def __repr__(self):
        return f"<ops of pack '{self._pack}'>"


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(f"module 'opsdk.ops' has no attribute '{name}'")
    from ..errors import AmbiguousOpError, OpNotFoundError
    from .loading import get_registry

    registry = get_registry()
    if not registry.has_pack(name):
        return registry.get(name)
    try:
        op = registry.get(name)
    except OpNotFoundError:
        return _PackOps(name)
    raise AmbiguousOpError(f"'opsdk.ops.{name}' is ambiguous: '{name}' is a pack and also the op "
                           f"'{op.qualname}'; expected: opsdk.ops.get('{op.qualname}') for the op, "
                           f"or opsdk.ops.get('{name}.<op>') for an op of the pack; got: '{name}'")


def __dir__():
    from .loading import get_registry

    registry = get_registry()
    return sorted({"get", *(p.name for p in registry.packs()), *registry.short_names()})
