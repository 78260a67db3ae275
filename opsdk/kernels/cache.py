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


def clear_cache():
    """Remove every cached build, log and memo.

    A process building at the same time still finishes: it installs its entry afresh.

    Returns:
        The number of C builds removed.

    Example:
        >>> clear_cache() >= 0
        True
    """
    root = cache_dir()
    removed = cache_info().entries
    if os.path.isdir(root):
        for entry in os.scandir(root):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass
    return removed
