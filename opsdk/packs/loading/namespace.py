"""opsdk's public names, watched while a pack loads: a pack that replaces or wraps one is named.

A pack that assigns ``opsdk.sigmoid`` or ``opsdk.Tensor.__add__`` at import changes every other
pack's ops, and nothing in a traceback would point at it. So the loader takes a snapshot of
opsdk's public modules (their public names) and of the classes they define (public names and
dunders) before each pack, compares after it, and puts back whatever the pack changed.
"""
import os
import sys

_ROOT = "opsdk"
_HOME = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # opsdk/
# entries Python itself rewrites on a class, or that say nothing about behaviour
_CLASS_IGNORED = frozenset({"__dict__", "__weakref__", "__doc__", "__module__", "__qualname__",
                            "__annotations__", "__parameters__", "__abstractmethods__"})
# a module's hooks that change how its names resolve
_MODULE_HOOKS = ("__getattr__", "__dir__")
_MISSING = object()


def _public_module(name):
    return name == _ROOT or (name.startswith(_ROOT + ".")
                             and not any(part.startswith("_") for part in name.split(".")))


def _watched(name, of_class):
    """Public names, and the dunders that change behaviour (a module's ``__getattr__``, a class's
    operators)."""
    if not name.startswith("_"):
        return True
    if of_class:
        return name.endswith("__") and name not in _CLASS_IGNORED
    return name in _MODULE_HOOKS


def _defined_in_opsdk(value):
    """True for an object opsdk's own code made (its own lazy imports and policy hooks set such
    names); judged by where the code lives, since ``functools.wraps`` copies ``__module__``."""
    code = getattr(value, "__code__", None)
    if code is not None:
        return os.path.abspath(code.co_filename).startswith(_HOME + os.sep)
    kind = value if isinstance(value, type) else type(value)
    module = sys.modules.get(getattr(kind, "__module__", None) or "")
    where = getattr(module, "__file__", None)
    return bool(where) and os.path.abspath(where).startswith(_HOME + os.sep)


def _origin(value):
    """What took a name's place, and where that was written."""
    if value is _MISSING:
        return "deleted"
    code = getattr(value, "__code__", None)
    if code is not None:
        name = getattr(value, "__qualname__", "?")
        return f"replaced by {name} from {code.co_filename}:{code.co_firstlineno}"
    kind = value if isinstance(value, type) else type(value)
    return f"replaced by {'class' if kind is value else 'a'} {kind.__module__}.{kind.__qualname__}"


class Snapshot:
    """The names of every imported public opsdk module and of the classes defined there."""

    def __init__(self):
        self.modules = {}   # module name -> (module, copy of its __dict__)
        self.classes = {}   # id(cls) -> (cls, copy of its __dict__)
        self.update()

    def update(self):
        """Take in what changed since, without judging it: opsdk modules imported meanwhile (a
        pack may import parts of opsdk first) and names opsdk's lazy imports added."""
        for name, module in list(sys.modules.items()):
            if module is None or not _public_module(name):
                continue
            known = self.modules.get(name)
            if known is not None and len(known[1]) == len(vars(module)):
                continue
            names = dict(vars(module))
            self.modules[name] = (module, names)
            for key, value in names.items():
                # public classes, and the private ones a module defines for its own machinery
                # (``opsdk.ops._PackOps.__getattr__`` resolves ``opsdk.ops.<pack>.<op>``)
                home = getattr(value, "__module__", "") if isinstance(value, type) else None
                if home and _public_module(home) and (not key.startswith("_") or home == name):
                    known = self.classes.get(id(value))
                    if known is None or len(known[1]) != len(vars(value)):
                        self.classes[id(value)] = (value, dict(vars(value)))

    def _changes(self):
        """(owner, label, name, old value or _MISSING) of every watched name replaced or removed."""
        owners = [(module, label, before, False) for label, (module, before) in self.modules.items()]
        owners += [(cls, f"{cls.__module__}.{cls.__qualname__}", before, True)
                   for cls, before in self.classes.values()]
        changed = []
        for owner, label, before, of_class in owners:
            now = vars(owner)
            for key, old in before.items():
                new = now.get(key, _MISSING)
                if new is not old and _watched(key, of_class) and not _defined_in_opsdk(new):
                    changed.append((owner, label, key, old))
            if of_class and len(now) != len(before):
                changed += [(owner, label, key, _MISSING) for key in now.keys() - before.keys()
                            if _watched(key, True) and key.startswith("_")
                            and not _defined_in_opsdk(now[key])]
        return changed

    def restore(self):
        """Put back every watched opsdk name changed since the snapshot.

        Returns:
            the changed names, each with what replaced it (``opsdk.sigmoid (replaced by
            <lambda> from /x/pack.py:3)``), sorted; empty when nothing changed.
        """
        names = {}
        for owner, label, name, old in self._changes():
            new = vars(owner).get(name, _MISSING)
            if old is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, old)
            names[f"{label}.{name}"] = _origin(new)
        self.update()
        return [f"{name} ({how})" for name, how in sorted(names.items())]
