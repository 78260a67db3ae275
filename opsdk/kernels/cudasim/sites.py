"""Source lines of a simulated fault: the offsets the runtime records, read through the module's
line tables.

Kernel modules are compiled with ``-g1``: line tables, inlined calls included. The runtime
records, for a finding, the offsets in the module of the faulting access and of the thread's
calling frames (and of the other thread's access of a race); ``addr2line -i`` turns each into
file:line, expanding the ``__device__`` functions the compiler inlined. Frames in the simulator's
own headers and in system headers are left out: what remains is the user's call chain, innermost
first, as compute-sanitizer prints it for code built with ``-lineinfo``.
"""
import os
import re
import shutil
import subprocess
from typing import NamedTuple

_TOOLS = ("addr2line", "llvm-addr2line", "eu-addr2line")
_LOCATION = re.compile(r"^(?P<file>.*):(?P<line>\d+|\?)(?: \(discriminator \d+\))?$")
# the temporary directory a module was compiled in, which the line tables prefix to file names
# that were not absolute ("<CUDA source>", a relative #line)
_BUILD_DIR = re.compile(r"^.*\.tmp-\d+-\d+/")
_cache = {}   # (module path, query offset) -> tuple of Frames, innermost first
_tool = []    # [path or None], found once


class Frame(NamedTuple):
    """One source position of a call chain."""

    file: str
    line: int
    function: str

    def __str__(self):
        return f"{self.file}:{self.line}"


def _symbolizer():
    if not _tool:
        found = None
        for name in _TOOLS:
            found = shutil.which(name)
            if found:
                break
        _tool.append(found)
    return _tool[0]


def available():
    """Whether a line-table reader (addr2line) is on PATH."""
    return _symbolizer() is not None


def _parse(text):
    """{address: [Frame, ...]} of ``addr2line -a -f -i -C`` output."""
    out, current, lines = {}, None, text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if re.fullmatch(r"0x[0-9a-fA-F]+", line):
            current = int(line, 16)
            out[current] = []
            i += 1
            continue
        if current is not None and i + 1 < len(lines):
            function, where = line, lines[i + 1].strip()
            found = _LOCATION.match(where)
            if found and found.group("line").isdigit() and found.group("file") != "??":
                file = _BUILD_DIR.sub("", found.group("file"))
                out[current].append(Frame(file, int(found.group("line")), function))
            i += 2
            continue
        i += 1
    return out


def lookup(path, queries):
    """{query offset: (Frame, ...)} innermost first, for offsets into the module at ``path``."""
    missing = sorted({q for q in queries if (path, q) not in _cache})
    tool = _symbolizer()
    if missing and tool and os.path.exists(path):
        try:
            done = subprocess.run([tool, "-e", path, "-a", "-f", "-i", "-C", *(hex(q) for q in missing)],
                                  capture_output=True, text=True, timeout=60)
            parsed = _parse(done.stdout) if done.returncode == 0 else {}
        except (OSError, subprocess.SubprocessError):
            parsed = {}
        for q in missing:
            _cache[(path, q)] = tuple(parsed.get(q, ()))
    return {q: _cache.get((path, q), ()) for q in queries}


def chain(path, pcs, exact_first, user_files):
    """The user's frames (innermost first) of a thread's recorded offsets.

    ``pcs`` are return addresses except the first when ``exact_first`` (a signal's faulting
    instruction); ``user_files`` the files of the source itself (the simulator's headers and
    system headers are dropped). Consecutive repeats are merged.
    """
    queries = [pc if (k == 0 and exact_first) else pc - 1 for k, pc in enumerate(pcs) if pc]
    found = lookup(path, queries)
    frames = []
    for q in queries:
        for frame in found.get(q, ()):
            if _is_user(frame.file, user_files) and (not frames or frames[-1] != frame):
                frames.append(frame)
    return frames


def _is_user(file, user_files):
    if user_files:
        return file in user_files
    return not file.startswith("<") and not file.startswith("/usr/")


def words(frames):
    """' at f.cu:12' and the call chain ('called from f.cu:30 <- f.cu:41'), or ('', '')."""
    if not frames:
        return "", ""
    site = f" at {frames[0]}"
    if len(frames) == 1:
        return site, ""
    return site, "called from " + " <- ".join(str(f) for f in frames[1:])
