"""Where user code called an op: the first frame outside the opsdk package."""
import os
import sys
import threading

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class CallSite:
    """A file:line (and function) kept on a backward node, formatted only when an error shows it."""

    __slots__ = ("filename", "lineno", "function")

    def __init__(self, filename, lineno, function):
        self.filename = filename
        self.lineno = lineno
        self.function = function

    def __str__(self):
        return f"{self.filename}:{self.lineno} in {self.function}"

    __repr__ = __str__


_local = threading.local()


class ops_own_sites:
    """Within the block (a verifier calling ops), errors name the op's own code, not the caller:
    ``caller_site`` answers None and callers fall back to ``definition_site``."""

    def __enter__(self):
        self.before = getattr(_local, "own", False)
        _local.own = True

    def __exit__(self, *exc):
        _local.own = self.before


def definition_site(cls, method="forward"):
    """The CallSite where ``cls.<method>`` is defined (the op's own code), or None."""
    fn = getattr(cls, method, None)
    # a decorated method (functools.wraps, check mode's wrapper) is defined where it was written
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    return CallSite(code.co_filename, code.co_firstlineno, f"{cls.__name__}.{method}")


def caller_site(depth=2):
    """The CallSite of the nearest caller outside opsdk, starting ``depth`` frames up."""
    if getattr(_local, "own", False):
        return None
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return None
    # op wrappers (registry, ops namespace) live in opsdk: the user wants their own line
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    return CallSite(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
