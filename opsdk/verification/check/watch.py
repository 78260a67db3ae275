"""Check mode for the op's own Functions: their forward and backward, not only its kernels.

Python ops often allocate outside a Kernel (``y = numpy.empty_like(a)`` in forward). While a
case runs, the ``forward`` and ``backward`` of the op's Function classes are wrapped so their
fresh buffers start as the check-mode NaN and the Tensors they return are scanned, as kernels
are: an element never written is reported with the method's name and the indices, instead of
leaving a result to whatever memory the allocator handed back.
"""
import contextlib

from ...kernels import unwritten
from .state import code_modules, function_classes
from .per_op import once_per_op


_classes = {}


def _watched_classes(op):
    """The op's Function classes (found once per op and run: finding them walks its modules)."""
    return once_per_op(_classes, op, make=lambda: function_classes(op, code_modules(op)))


def clear_cache():
    """Forget the classes found (tests re-register packs under the same names)."""
    _classes.clear()


@contextlib.contextmanager
def watching(op):
    """Wrap the op's Function classes' forward and backward for the duration of a case."""
    replaced = []
    for cls in _watched_classes(op):
        for name in ("forward", "backward"):
            raw = cls.__dict__.get(name)
            fn = getattr(raw, "__func__", None)
            if not isinstance(raw, staticmethod) or fn is None or hasattr(fn, "_opsdk_watched"):
                continue
            label = f"{cls.__qualname__}.{name} (the op's Function)"
            setattr(cls, name, staticmethod(unwritten.watched_method(label, fn)))
            replaced.append((cls, name, raw))
    try:
        yield
    finally:
        for cls, name, raw in replaced:
            setattr(cls, name, raw)
