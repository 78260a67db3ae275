"""The C compiler: finding it, its identity (memoised on disk), running it, reading its errors."""

import os
import re
import shutil
from typing import NamedTuple

from opsdk.errors import CacheUnusableError, CompilerSettingError
from opsdk.kernels.cache import cache_dir, cache_problem, subdir
from opsdk.kernels.digest import digest_parts
from opsdk.kernels.trust import read_trusted, write_private

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
    """The compiler command as a list (``$CC`` or the first of cc, gcc, clang on PATH), or None.

    Raises:
        CompilerSettingError: ``$CC`` cannot be split into words (an unterminated quote).
    """
    cc = os.environ.get("CC", "").strip()
    if cc:
        if any(q in cc for q in "'\"\\"):
            import shlex  # only for the rare quoted CC

            try:
                words = shlex.split(cc)
            except ValueError as exc:
                raise CompilerSettingError(
                    f"$CC is not a command line: {cc!r} ({str(exc).lower()}); fix: quote it as a "
                    "shell would (CC='gcc -m64'), or unset CC") from None
        else:
            words = cc.split()
        path = shutil.which(words[0]) if words else None
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
    memo = os.path.join(cache_dir(), "compilers", digest_parts(*map(str, stamp))[:32])
    try:
        identity = read_trusted(memo).decode("utf-8")
    except (OSError, UnicodeDecodeError, CacheUnusableError):
        # the key holds what the compiler is, not when it was installed: path, flags, version
        identity = " ".join([real, *command[1:]]) + "\n" + _version_text(command)
        if cache_problem() is None:  # a read-only cache goes without: the memo only saves a --version run
            try:
                subdir("compilers")
                write_private(memo, identity)
            except (OSError, CacheUnusableError):
                pass
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


# POSIX sh: run the compiler ("$@") in this process group, and kill the whole group (driver,
# cc1, as, ld) when the pipe on stdin reaches end-of-file, which happens when the Python process
# that started it dies, however it dies; a normal exit stops the watcher and keeps the status
_WATCHED = (
    'exec 3<&0; "$@" </dev/null 3<&- & c=$!; '
    '(read _ <&3; kill -9 0) </dev/null & w=$!; '
    'wait "$c"; s=$?; kill "$w" 2>/dev/null; exit "$s"'
)


def compiler_env(build_dir):
    """The environment for a compiler building in build_dir: its temporary files (gcc's cc*.s,
    cc*.o) go there too, so a killed compile leaves them where the next build removes them."""
    build_dir = os.path.abspath(build_dir)
    return {**os.environ, "TMPDIR": build_dir, "TMP": build_dir, "TEMP": build_dir}


def run_compiler(args, cwd, log):
    """Run the compiler with its output into log; returns its exit status.

    On POSIX the compiler runs in its own process group under a watcher, so a killed Python
    leaves no gcc/cc1 behind; elsewhere it runs as a plain child. Its temporary files go to cwd.
    """
    import signal
    import subprocess

    env = compiler_env(cwd)
    if os.name != "posix" or shutil.which("sh") is None:
        return subprocess.run(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    # stdin is a pipe nobody writes to: only this process holds its write end
    with subprocess.Popen(["sh", "-c", _WATCHED, "sh", *args], cwd=cwd, env=env, stdin=subprocess.PIPE,
                          stdout=log, stderr=subprocess.STDOUT, start_new_session=True) as process:
        try:
            return process.wait()
        except BaseException:  # Ctrl-C or a timeout in the caller: take the whole group down
            os.killpg(process.pid, signal.SIGKILL)
            raise


def exit_text(returncode):
    """The compiler's exit status in words; the watcher shell reports a signal as 128 + N."""
    import signal

    number = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else 0
    try:
        name = signal.Signals(number).name if number else ""
    except ValueError:
        name = ""
    if name:
        return f"exit status {returncode}: killed by {name} (out of memory, or killed from outside)"
    return f"exit status {returncode}"


def run_logged(args, cwd, log_path, mode="w"):
    """Run the compiler in cwd with the command line, then its output, written to log_path;
    returns its exit status (-1, with the reason logged, when it cannot start)."""
    import shlex

    with open(log_path, mode, encoding="utf-8") as log:
        log.write(f"$ cd {shlex.quote(str(cwd))} && {shlex.join(args)}\n")
        log.flush()
        try:
            return run_compiler(args, cwd, log)
        except OSError as exc:
            log.write(f"cannot run the compiler: {exc}\n")
            return -1


def compiler_info():
    """Which C compiler opsdk uses, its version, or why there is none (for ``opsdk doctor``).

    Returns:
        ``CompilerInfo(available, command, path, version, reason)``.

    Example:
        >>> info = compiler_info()
        >>> info.available or bool(info.reason)
        True
    """
    try:
        command = find_compiler()
    except CompilerSettingError as exc:
        return CompilerInfo(False, (), "", "", str(exc))
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
