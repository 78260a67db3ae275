"""Directories the scaffolding commands are given: not empty, and within the file system's limits."""
import os
from pathlib import Path

from ..errors import InvalidPathError

# where pathconf cannot say (Windows): the classic limits
_FALLBACK = (255, 260)


def check_directory(value, option):
    """Refuse an empty ``--dir`` / ``--pack``: it would silently mean the current directory."""
    if value is not None and str(value) == "":
        raise InvalidPathError(f"{option} is empty; expected: a directory path (leave {option} out for "
                               f"the default); got: ''")


def _limits(path):
    """(NAME_MAX, PATH_MAX) of the file system holding ``path``'s nearest existing parent."""
    if not hasattr(os, "pathconf"):
        return _FALLBACK
    existing = Path(path)
    while True:
        try:
            if existing.exists():
                break
        except OSError:  # too long to even look at: its parent then
            pass
        if existing.parent == existing:
            break
        existing = existing.parent
    try:
        return os.pathconf(existing, "PC_NAME_MAX"), os.pathconf(existing, "PC_PATH_MAX")
    except (OSError, ValueError):
        return _FALLBACK


def length_problem(path):
    """Why the file system would refuse ``path`` for its length (a name over NAME_MAX, the whole over
    PATH_MAX), or None."""
    name_max, path_max = _limits(path)
    for part in Path(path).parts:
        size = len(os.fsencode(part))
        if size > name_max:
            return (f"its part '{part[:24]}...' is {size} bytes long; expected: names of at most "
                    f"{name_max} bytes (NAME_MAX of the file system); got: {size}")
    size = len(os.fsencode(str(path)))
    if size >= path_max:
        return f"it is {size} bytes long; expected: less than {path_max} (PATH_MAX); got: {size}"
    return None


def check_lengths(paths, where):
    """Raise InvalidPathError naming the first of ``paths`` too long to create (``where`` is what the
    paths are for: "pack 'p' in DIR")."""
    for path in paths:
        problem = length_problem(path)
        if problem is not None:
            shown = str(path) if len(str(path)) <= 80 else str(path)[:40] + "..." + str(path)[-30:]
            raise InvalidPathError(f"cannot write {where}: {shown} is too long for the file system: {problem}")
