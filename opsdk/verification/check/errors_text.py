"""The report of an op that raised while being checked: where in the op's code, and a short traceback.

The frames of the verifier and of the frameworks driving it (click, pluggy, pytest) say nothing
about the op; the report names the innermost frame of the op's own code and keeps the rest.
"""
import os
import traceback

from ...kernels import unwritten

_FRAMEWORK_PARTS = (os.sep + "click" + os.sep, os.sep + "pluggy" + os.sep,
                    os.sep + "_pytest" + os.sep, os.sep + "runpy.py")
_CHECK_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# check mode's wrappers around kernels and the op's Functions are the verifier's frames too
_CHECK_MODE = os.path.abspath(unwritten.__file__)
_SHOWN_LINES = 30


def _op_files(op):
    from .state import code_modules

    files = set()
    for module in code_modules(op).values():
        path = getattr(module, "__file__", None)
        if path:
            files.add(os.path.abspath(path))
    return files


def _frames(error):
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    return frames


def op_frame(error, op):
    """``file:line in function`` of the innermost frame of the op's code in the error's
    traceback (following ``__cause__``), or None."""
    files = _op_files(op)
    for err in _chain(error):
        for tb in reversed(_frames(err)):
            path = os.path.abspath(tb.tb_frame.f_code.co_filename)
            if path in files:
                return f"{path}:{tb.tb_lineno} in {tb.tb_frame.f_code.co_name}"
    return None


def _kept(summary):
    path = os.path.abspath(summary.filename)
    return not path.startswith(_CHECK_DIR) and path != _CHECK_MODE \
        and not any(p in path for p in _FRAMEWORK_PARTS)


def error_report(error, op):
    """``Type: message``, where in the op's code it was raised, and the traceback without the
    verifier's and frameworks' frames."""
    head = f"{type(error).__name__}: {error}"
    where = op_frame(error, op)
    lines = [head]
    if where:
        lines.append(f"raised in the op's code at {where}")
    text = []
    for err in _chain(error):
        stack = [s for s in traceback.extract_tb(err.__traceback__) if _kept(s)]
        text += traceback.format_list(stack)
        text.append(f"{type(err).__name__}: {err}\n")
    body = "".join(text).splitlines()
    lines.append("Traceback (verifier frames left out):")
    lines += body[-_SHOWN_LINES:]
    return "\n".join(lines)


def _chain(error):
    chain, seen = [], set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        chain.append(error)
        error = error.__cause__ or error.__context__
    return list(reversed(chain))
