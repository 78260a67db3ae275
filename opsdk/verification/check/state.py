"""The state an op keeps outside ``ctx``: module-level variables and class attributes of its code,
the attributes of objects its modules hold (a workspace instance), and the variables its
functions close over (a cache created in a factory).

Each case of a run starts from the op's state as it was before the run touched it ("fresh op
state"), so a cache filled by one dtype or check can neither hide nor cause a failure in
another; and when calls of the op interfere, the report names what changed in between.
"""
import dis
import inspect
import os
import sys
import types
from collections import deque

import numpy as np

from .per_op import once_per_op

_CONTAINERS = (dict, list, set, bytearray, deque, np.ndarray)
_SKIPPED_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type,
                  staticmethod, classmethod, property)
_cache = {}
_modules = {}


def _copy(value):
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        return list(value.items())
    return list(value)


def _restore_content(value, saved):
    if isinstance(value, np.ndarray):
        if value.shape == saved.shape and value.flags.writeable:
            value[...] = saved
    elif isinstance(value, dict):
        value.clear()
        value.update(saved)
    elif isinstance(value, (set, deque)):
        value.clear()
        value.update(saved) if isinstance(value, set) else value.extend(saved)
    else:
        value[:] = saved


def _same_content(value, saved):
    if isinstance(value, np.ndarray):
        return value.shape == saved.shape and np.array_equal(value, saved, equal_nan=True)
    if isinstance(value, dict):
        return len(value) == len(saved) and all(
            k in value and value[k] is v for k, v in saved)
    items = list(value)
    return len(items) == len(saved) and all(a is b for a, b in zip(items, saved))


def _describe(value):
    if isinstance(value, np.ndarray):
        return f"array {list(value.shape)}"
    if isinstance(value, (dict, list, set, deque)):
        return f"{type(value).__name__} of {len(value)}"
    return type(value).__name__


class _Namespace:
    """The variables of one module, class or object, as they were when captured."""

    def __init__(self, owner, label, is_class):
        self.owner = owner
        self.label = label
        self.is_class = is_class
        self.values = {}
        items = self._items()
        for name, value in items.items():
            if self._tracked(name, value):
                self.values[name] = (value, _copy(value) if isinstance(value, _CONTAINERS) else None)
        # restore() runs before every sample: a namespace whose names are all still bound to
        # the captured objects (compared by identity, at C speed) only has contents to put back
        self._keys = list(items)
        self._names = list(self.values)
        self._ids = [id(value) for value, _ in self.values.values()]  # held in self.values
        self._caches = [v.cache_clear for v in items.values()
                        if callable(getattr(v, "cache_clear", None)) and hasattr(v, "cache_info")]
        self._contents = [(v, saved) for v, saved in self.values.values() if saved is not None]

    def _items(self):
        return dict(vars(self.owner))

    def _set(self, name, value):
        setattr(self.owner, name, value)

    def _delete(self, name):
        delattr(self.owner, name)

    def _tracked(self, name, value):
        if name.startswith("__") or isinstance(value, _SKIPPED_TYPES):
            return False
        return not (isinstance(value, np.ndarray) and value.size > 1 << 20)

    def _current(self):
        return {n: v for n, v in self._items().items() if self._tracked(n, v)}

    def is_static(self):
        """Whether nothing of this namespace can change but by rebinding its names from outside:
        no container, no cache, and (a module) no function of its own that assigns a global."""
        if self._caches or self._contents:
            return False
        return not any(_assigns_global(code) for code in _codes(self.owner))

    def restore(self):
        items = self._items()
        # untracked names (a Function's forward, which check mode wraps per case) may be
        # rebound; the tracked ones, and which names exist, must be as captured
        if list(items) == self._keys and [id(items[n]) for n in self._names] == self._ids:
            for clear in self._caches:  # functools.lru_cache wrappers keep their memo inside
                clear()
            for value, saved in self._contents:
                _restore_content(value, saved)
            return
        for value in items.values():
            # functools.lru_cache / cache wrappers keep their memo inside: forget it
            if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                value.cache_clear()
        current = self._current()
        for name in current.keys() - self.values.keys():
            try:
                self._delete(name)
            except (AttributeError, TypeError, ValueError):
                pass
        for name, (value, saved) in self.values.items():
            if current.get(name, _MISSING) is not value:
                self._set(name, value)
            if saved is not None:
                _restore_content(value, saved)

    def changes(self):
        current = self._current()
        found = [f"{self.label}.{n} (added: {_describe(current[n])})"
                 for n in sorted(current.keys() - self.values.keys())]
        for name, (value, saved) in self.values.items():
            now = current.get(name, _MISSING)
            if now is _MISSING:
                found.append(f"{self.label}.{name} (deleted)")
            elif now is not value:
                found.append(f"{self.label}.{name} (rebound: {_describe(now)})")
            elif saved is not None and not _same_content(value, saved):
                found.append(f"{self.label}.{name} (changed: {_describe(value)})")
        # a functools.lru_cache / cache wrapper keeps its memo inside; restore() empties it
        for name, value in current.items():
            size = _memo_size(value)
            if size:
                found.append(f"{self.label}.{name} (functools cache of {size})")
        return found


def _memo_size(value):
    """Entries in a functools.lru_cache or cache wrapper's memo (0 for anything else)."""
    info = getattr(value, "cache_info", None)
    if not callable(info) or not callable(getattr(value, "cache_clear", None)):
        return 0
    try:
        return int(info().currsize)
    except Exception:  # a cache_info of another kind
        return 0


_MISSING = object()
_GLOBAL_WRITES = {dis.opmap[name] for name in ("STORE_GLOBAL", "DELETE_GLOBAL") if name in dis.opmap}


def _codes(module):
    """The code objects of the functions and methods a module defines (not those it imports)."""
    found = []
    for value in vars(module).values():
        members = vars(value).values() if isinstance(value, type) \
            and getattr(value, "__module__", None) == module.__name__ else (value,)
        for member in members:
            member = getattr(member, "__func__", member)
            member = getattr(member, "_opsdk_watched", member)
            code = getattr(member, "__code__", None)
            if isinstance(code, types.CodeType) and getattr(member, "__globals__", None) is vars(module):
                found.append(code)
    return found


def _assigns_global(code):
    """Whether a code object (or one nested in it) assigns or deletes a global variable."""
    if any(op in _GLOBAL_WRITES for op in code.co_code[::2]):
        return True
    return any(_assigns_global(c) for c in code.co_consts if isinstance(c, types.CodeType))


class _Cells(_Namespace):
    """The variables a function closes over (``cache = {}`` in the factory that made it)."""

    def _items(self):
        cells = getattr(self.owner, "__closure__", None) or ()
        names = self.owner.__code__.co_freevars
        found = {}
        for name, cell in zip(names, cells):
            try:
                found[name] = cell.cell_contents
            except ValueError:  # a cell not filled yet
                continue
        return found

    def _set(self, name, value):
        names = self.owner.__code__.co_freevars
        self.owner.__closure__[names.index(name)].cell_contents = value

    def _delete(self, name):
        raise ValueError(name)


def _functions_of(owner):
    """The plain functions a module or class defines (staticmethods and classmethods unwrapped)."""
    found = []
    for value in vars(owner).values():
        value = getattr(value, "__func__", value)
        # check mode wraps a Function's methods while a case runs (watch.py): its state is the op's
        value = getattr(value, "_opsdk_watched", value)
        if isinstance(value, types.FunctionType):
            found.append(value)
    return found


def _closures(op, modules, classes):
    """(label, function) for every function of the op's code that closes over a variable."""
    functions = [f for m in modules.values() for f in _functions_of(m)]
    functions += [f for c in classes for f in _functions_of(c)]
    for kernel in op.kernels:
        functions += list(getattr(kernel, "_impls", {}).values())
    seen, found = set(), []
    for fn in functions:
        if id(fn) in seen or not getattr(fn, "__closure__", None) or _is_sdk(fn.__module__ or ""):
            continue
        seen.add(id(fn))
        found.append((f"{fn.__module__}.{fn.__qualname__} (closure)", fn))
    return found


def _objects(modules):
    """(label, object) for instances of the op's own classes held at module level (a workspace)."""
    found = []
    for name, module in modules.items():
        for attr, value in vars(module).items():
            cls = type(value)
            if cls.__module__ in modules and hasattr(value, "__dict__") \
                    and not isinstance(value, _SKIPPED_TYPES):
                found.append((f"{name}.{attr}", value))
    return found


def _file_dir(module):
    path = getattr(module, "__file__", None)
    return os.path.dirname(os.path.abspath(path)) if path else None


def _is_test_module(module):
    base = os.path.basename(getattr(module, "__file__", "") or "")
    return base.startswith(("test_", "conftest")) or base.endswith("_test.py")


def _is_sdk(name):
    return name == "opsdk" or name.startswith("opsdk.")


def _top(name):
    return name.split(".", 1)[0]


def code_modules(op):
    """The modules of the op's code (``modules_of``), found once per op and run."""
    return dict(once_per_op(_modules, op, make=lambda: modules_of(op)))


def modules_of(op):
    """The modules holding the op's code: its Function's, its kernels' and its reference's, plus
    every other module of their top-level packages (helpers) and of their directories, never
    opsdk's own or test modules."""
    seeds = set()
    for cls in inspect.getmro(op.function):
        seeds.add(getattr(cls, "__module__", None))
    for kernel in op.kernels:
        for fn in getattr(kernel, "_impls", {}).values():
            seeds.add(getattr(fn, "__module__", None))
    if op.reference is not None:
        seeds.add(getattr(op.reference, "__module__", None))
    # a script's own namespace is the user's, not the op's: never restored
    modules = {name: sys.modules[name] for name in seeds
               if name in sys.modules and not _is_sdk(name) and name != "__main__"}
    dirs = {_file_dir(m) for m in modules.values()} - {None}
    tops = {_top(n) for n in modules} - {"__main__"}
    for name, module in list(sys.modules.items()):
        if module is None or _is_sdk(name):
            continue
        if _file_dir(module) in dirs or _top(name) in tops:
            modules.setdefault(name, module)
    return {n: m for n, m in modules.items() if not _is_test_module(m)}


def function_classes(op, modules):
    """The op's Function class and every PyLayer subclass its modules define (grad Functions)."""
    from ...autograd.function import PyLayer

    classes = {cls for cls in inspect.getmro(op.function) if not _is_sdk(cls.__module__)
               and cls is not object}
    for module in modules.values():
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, PyLayer) and value is not PyLayer \
                    and getattr(value, "__module__", None) == module.__name__:
                classes.add(value)
    return classes


class OpState:
    """A snapshot of the op's module-level variables and class attributes; restorable."""

    def __init__(self, op):
        modules = code_modules(op)
        self.spaces = [_Namespace(m, name, False) for name, m in sorted(modules.items())]
        classes = sorted(function_classes(op, modules), key=lambda c: (c.__module__, c.__qualname__))
        self.spaces += [_Namespace(c, f"{c.__module__}.{c.__qualname__}", True) for c in classes]
        self.spaces += [_Namespace(o, label, False) for label, o in _objects(modules)]
        self.spaces += [_Cells(fn, label, False) for label, fn in _closures(op, modules, classes)]
        # restore() runs before every sample: a module holding no container or cache, whose
        # code never rebinds a global, has nothing to put back
        self._restored = [s for s in self.spaces
                          if not (isinstance(s.owner, types.ModuleType) and s.is_static())]

    def restore(self):
        """Put every variable back as it was captured (contents of dicts, lists, sets, arrays too)."""
        for space in self._restored:
            space.restore()

    def changes(self):
        """What differs from the snapshot, one line per variable (``module.name (changed: dict of 2)``)."""
        return [line for space in self.spaces for line in space.changes()]


def fresh_state(op):
    """The op's OpState captured the first time a run meets the op (before any check calls it)."""
    return once_per_op(_cache, op, make=lambda: OpState(op))


def clear_cache():
    """Forget captured states and found modules (tests re-register packs under the same names)."""
    _cache.clear()
    _modules.clear()
