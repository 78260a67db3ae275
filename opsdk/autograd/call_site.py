"""Where user code called an op: the first frame outside the opsdk package."""
import os
import sys

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


def caller_site(depth=2):
    """The CallSite of the nearest caller outside opsdk, starting ``depth`` frames up."""
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
