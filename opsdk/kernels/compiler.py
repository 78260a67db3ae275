"""The C compiler: finding it, its identity (memoised on disk), running it, reading its errors."""

import os
import re
import shutil
from typing import NamedTuple

from opsdk.kernels.cache import subdir
from opsdk.kernels.digest import digest_parts

_CANDIDATES = ("cc", "gcc", "clang")
_identities = {}  # (real path, size, mtime, extra words) -> identity, per process

# gcc/clang: "file.c:12:5: error: ..." (column optional), also "fatal error"
_C_ERROR = r"(?m)^(?P<loc>.+?:\d+(?::\d+)?): (?:fatal )?error: (?P<msg>.*)$"


class CompilerInfo(NamedTuple):
    """What ``compiler_info()`` reports."""

    available: bool
    command: tuple
    path: str
    version: str
    reason: str


def find_compiler():
    """The compiler command as a list (``$CC`` or the first of cc, gcc, clang on PATH), or None."""
    cc = os.environ.get("CC", "").strip()
    if cc:
        if any(q in cc for q in "'\"\\"):
            import shlex  # only for the rare quoted CC

            words = shlex.split(cc)
        else:
            words = cc.split()
        path = shutil.which(words[0])
        return None if path is None else [path, *words[1:]]
    for name in _CANDIDATES:
        path = shutil.which(name)
        if path:
            return [path]
    return None


def compiler_identity(command):
    """The compiler's real path, extra words and ``--version``, memoised by path, size and mtime."""
    real = os.path.realpath(command[0])
    st = os.stat(real)
    stamp = (real, st.st_size, st.st_mtime_ns, *command[1:])
    known = _identities.get(stamp)
    if known is not None:
        return known
    memo = os.path.join(subdir("compilers"), digest_parts(*map(str, stamp))[:32])
    try:
        with open(memo, encoding="utf-8") as f:
            identity = f.read()
    except OSError:
        # the key holds what the compiler is, not when it was installed: path, flags, version
        identity = " ".join([real, *command[1:]]) + "\n" + _version_text(command)
        tmp = f"{memo}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(identity)
        os.replace(tmp, memo)
    _identities[stamp] = identity
    return identity


def _version_text(command):
    """``CC --version`` output (empty if the compiler does not answer)."""
    import subprocess

    try:
        done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


def compiler_info():
    """Which C compiler opsdk uses, its version, or why there is none (for ``opsdk doctor``).

    Returns:
        ``CompilerInfo(available, command, path, version, reason)``.

    Example:
        >>> info = compiler_info()
        >>> info.available or bool(info.reason)
        True
    """
    command = find_compiler()
    if command is None:
        wanted = os.environ.get("CC") or " / ".join(_CANDIDATES)
        return CompilerInfo(False, (), "", "", f"no C compiler found: looked for {wanted} on PATH; "
                                              "install gcc or clang, or set CC")
    version = _version_text(command)
    first = version.splitlines()[0] if version else ""
    return CompilerInfo(True, tuple(command), command[0], first, "")


def first_error(log_text):
    """The compiler's first ``file:line: error: message`` line, or the first line that says error."""
    match = re.search(_C_ERROR, log_text)
    if match:
        return f"{match['loc']}: error: {match['msg']}"
    for line in log_text.splitlines():
        if "error" in line.lower():
            return line.strip()
    return log_text.strip().splitlines()[-1] if log_text.strip() else "(the compiler printed nothing)"
