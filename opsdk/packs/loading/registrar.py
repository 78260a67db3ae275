"""The ``register`` callback a pack's ``register_ops`` hook receives."""
from ...errors import RegistrationError
from ..registry.validation import build_opinfo


class Registrar:
    """``register(function, name=..., inputs=..., ...)`` for one pack: checks each op and collects it.

    The ops reach the registry only after the pack's hook returns without error, so a pack
    either loads whole or not at all.
    """

    def __init__(self, pack, version=None, distribution=None):
        self.pack = pack
        self.version = version
        self.distribution = distribution
        self.ops = {}
        self.closed = False

    def __call__(self, *args, **options):
        where = f"pack '{self.pack}'"
        if self.closed:
            raise RegistrationError(f"{where}: register() called after register_ops returned; "
                                    "expected: every register() call inside the hook")
        if not args and "function" in options:
            args = (options.pop("function"),)
        if len(args) != 1:
            raise RegistrationError(f"{where}: register() takes the Function as its only positional "
                                    f"argument and the rest by keyword; got: {len(args)} positional")
        info = build_opinfo(self.pack, self.version, self.distribution, args[0], options)
        if info.name in self.ops:
            raise RegistrationError(f"{where}, op '{info.name}': registered twice (by "
                                    f"{self.ops[info.name].function.__name__} and "
                                    f"{info.function.__name__}); expected: one register() per op name")
        self.ops[info.name] = info
        return info
