"""The on-disk cache of compiled C kernels: layout, manifests, info and clearing.

Layout under ``cache_dir()``::

    c/<key>/            one finished build: the extension, its generated .c, build.log, MANIFEST
    c/<key>.lock        the OS lock held while <key> is built
    c/<key>.tmp-*       a build in progress (or the leftovers of a killed one)
    index/<source key>  the key last built for a source, found when no compiler is present
    compilers/<id>      a compiler's memoised ``--version``, keyed by its path, size and mtime
    logs/               logs of failed builds
    builds.log          one line per compile (what ran, how long)
"""

import os
import shutil
import time
from typing import NamedTuple

from opsdk.kernels.digest import digest_file

MANIFEST = "MANIFEST"


def cache_dir():
    """The cache directory: ``$OPSDK_CACHE_DIR`` or the per-user cache directory.

    Returns:
        The path (a ``str``); it may not exist yet.

    Example:
        >>> import os; os.environ["OPSDK_CACHE_DIR"] = "/tmp/opsdk-cache"
        >>> cache_dir()
        '/tmp/opsdk-cache'
    """
    override = os.environ.get("OPSDK_CACHE_DIR")
    if override:
        return os.path.abspath(os.path.expanduser(override))
    import platformdirs  # only when no override: it costs milliseconds to import

    return platformdirs.user_cache_dir("opsdk", appauthor=False)


def subdir(name):
    """A directory inside the cache, created if missing."""
    path = os.path.join(cache_dir(), name)
    os.makedirs(path, exist_ok=True)
    return path


def write_manifest(entry_dir, so_name):
    """Record the extension's name, size and digest so truncation or corruption is detected."""
    so_path = os.path.join(entry_dir, so_name)
    text = f"so {so_name}\nsize {os.path.getsize(so_path)}\ndigest {digest_file(so_path)}\n"
    with open(os.path.join(entry_dir, MANIFEST), "w", encoding="utf-8") as f:
        f.write(text)


def verified_extension(entry_dir):
    """Path of the entry's extension if it matches its manifest, else None."""
    try:
        with open(os.path.join(entry_dir, MANIFEST), encoding="utf-8") as f:
            fields = dict(line.split(" ", 1) for line in f.read().splitlines())
        so_path = os.path.join(entry_dir, fields["so"])
        if os.path.getsize(so_path) != int(fields["size"]):
            return None
        if digest_file(so_path) != fields["digest"]:
            return None
    except (OSError, ValueError, KeyError):
        return None
    return so_path


def append_build_log(line):
    """Append one line to builds.log (one ``write`` call, so concurrent appends never interleave)."""
    with open(os.path.join(subdir(""), "builds.log"), "a", encoding="utf-8") as f:
        f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {line}\n")


class CacheInfo(NamedTuple):
    """What ``cache_info()`` reports."""

    path: str
    entries: int
    total_bytes: int


def cache_info():
    """Where the cache is, how many C builds it holds and its total size.

    Returns:
        ``CacheInfo(path, entries, total_bytes)``.

    Example:
        >>> info = cache_info()
        >>> info.entries >= 0
        True
    """
    root = cache_dir()
    c_dir = os.path.join(root, "c")
    entries = 0
    if os.path.isdir(c_dir):
        entries = sum(1 for e in os.scandir(c_dir) if e.is_dir() and ".tmp-" not in e.name)
    total = 0
    for folder, _, files in os.walk(root):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(folder, name))
            except OSError:
                pass  # removed while we walked
    return CacheInfo(root, entries, total)


# what to do about any problem cache_problem reports
CACHE_FIX = "set OPSDK_CACHE_DIR to a writable directory"


def cache_problem(writing=True):
    """Why the cache cannot be used (one sentence, e.g. 'the kernel cache /x is not a directory'),
    or None when it can; ``CACHE_FIX`` says what to do about it.

    Args:
        writing: also require that builds can be written there (a read-only cache of prebuilt
            kernels still serves the builds it holds).

    Example:
        >>> cache_problem() is None or cache_problem().startswith("the kernel cache")
        True
    """
    from opsdk.writable import creation_problem

    return creation_problem(cache_dir(), "the kernel cache", writing)


def build_lock(path, timeout):
    """The OS lock of one entry's build (flock on POSIX): released by the kernel when its holder
    dies, so never stale. Returns (lock, the Timeout exception class)."""
    import filelock

    cls = filelock.UnixFileLock if os.name == "posix" else filelock.FileLock
    return cls(path, timeout=timeout), filelock.Timeout


def _clear_builds(c_dir):
    """Remove the builds in c_dir, each under its lock; those being built elsewhere stay."""
    keys = {}
    for item in os.scandir(c_dir):
        keys.setdefault(item.name.split(".", 1)[0], []).append(item)
    removed = 0
    for key, items in keys.items():
        lock, busy = build_lock(os.path.join(c_dir, key + ".lock"), timeout=0)
        try:
            with lock:
                for item in items:
                    if item.name.endswith(".lock"):
                        continue
                    removed += item.name == key and item.is_dir(follow_symlinks=False)
                    _remove(item.path)
            _remove(lock.lock_file)
        except (busy, OSError):
            continue  # another process is building it: its build finishes and installs the entry
    return removed


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def clear_cache():
    """Remove every cached build, log and memo.

    A build in progress in another process is left alone (its lock is held): it finishes and
    installs its entry.

    Returns:
        The number of C builds removed.

    Raises:
        CacheUnusableError: the cache is not a directory, or not writable.

    Example:
        >>> clear_cache() >= 0
        True
    """
    from opsdk.errors import CacheUnusableError

    problem = cache_problem()
    if problem is not None:
        raise CacheUnusableError(f"cannot clear: {problem}; fix: {CACHE_FIX}")
    root = cache_dir()
    if not os.path.isdir(root):
        return 0
    c_dir = os.path.join(root, "c")
    removed = _clear_builds(c_dir) if os.path.isdir(c_dir) else 0
    for item in os.scandir(root):
        if item.name != "c":
            _remove(item.path)
    return removed
