"""The on-disk cache of compiled kernels: its layout, whose it is, what it holds, clearing it.

Layout under ``cache_dir()``; opsdk reads, counts and removes these names and nothing else::

    CACHEDIR.TAG        marks the directory as a cache (backup tools skip it)
    opsdk-cache-layout  marks it as opsdk's, and the version of this layout
    c/<key>/            one finished build: the extension, its generated .c, build.log, MANIFEST
    c/<key>.lock        the OS lock held while <key> is built
    c/<key>.tmp-*       a build in progress (or the leftovers of a killed one)
    index/<source key>  the key last built for a source, found when no compiler is present
    compilers/<id>      a compiler's memoised ``--version``, keyed by its path, size and mtime
    cudasim/            the CUDA simulator's builds (named as in c/) and its compiler probes
    logs/<key>          failed builds, kept for their logs
    load/<random>/      one process's private copies of the extensions it loads
    builds.log          one line per compile (what ran, how long)

A directory is opsdk's when it carries the layout file, or holds nothing but these names (then
it is tagged on first use): any other directory is refused, never written into nor cleared.
It is used only while you (or root) own it and nobody else can write it (see ``trust``).
"""

import os
import re
import shutil
import stat
import time
from typing import NamedTuple

from opsdk.errors import CacheUntrustedError
from opsdk.kernels import trust
from opsdk.writable import Problem, creation_problem

TAG = "CACHEDIR.TAG"
# the Cache Directory Tagging convention: a file that begins with exactly this line
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This directory is opsdk's cache of compiled kernels; it can be rebuilt, so backups\n"
            "# may skip it. `opsdk cache clear` empties it; `opsdk cache info` shows it.\n")
LAYOUT = "opsdk-cache-layout"
LAYOUT_VERSION = 1
_LAYOUT_TEXT = f"opsdk kernel cache, layout {LAYOUT_VERSION}\n"
FOLDERS = ("c", "index", "compilers", "cudasim", "logs", "load")
FILES = ("builds.log",)
_MARKERS = (TAG, LAYOUT)
_PROBE = ".opsdk-probe-"  # writable.can_create_in's probe files: gone a moment later
# what opsdk names the items of its folders: a digest (maybe after words: "runtime-",
# "hooks-", "cudasim-"), then maybe a lock, a build in progress or a temporary file
ITEM_NAME = r"(?:[a-z]+-)*[0-9a-f]{16,64}(?:\.lock|\.tmp-[0-9]+-[0-9]+|\.[0-9]+)?"
KEY_NAME = r"[0-9a-f]{32}"
WHAT = "the kernel cache"

# what to do about a cache that is not a directory or not writable
CACHE_FIX = "set OPSDK_CACHE_DIR to a writable directory"
FULL_FIX = ("free space on that filesystem (`opsdk cache clear` removes old builds), or set "
            "OPSDK_CACHE_DIR to a directory on another filesystem")
NOT_OURS_FIX = ("set OPSDK_CACHE_DIR to a new or empty directory (opsdk tags it as its cache); opsdk "
                "never writes into or clears a directory that holds other files")
_claimed = {}  # cache root -> (st_dev, st_ino) of the directory found to be opsdk's, per process


def cache_dir():
    """The cache directory: ``$OPSDK_CACHE_DIR`` or the per-user cache directory.

    Point ``OPSDK_CACHE_DIR`` at a directory of your own (it is created with mode 0700, or must
    be empty, or already opsdk's); a fixed name in a shared directory such as /tmp would be
    refused once another user had made it first.

    Returns:
        The path (a ``str``); it may not exist yet.

    Example:
        >>> os.path.isabs(cache_dir())
        True
    """
    override = os.environ.get("OPSDK_CACHE_DIR")
    if override:
        return os.path.abspath(os.path.expanduser(override))
    import platformdirs  # only when no override: it costs milliseconds to import

    return platformdirs.user_cache_dir("opsdk", appauthor=False)


def is_item_name(name):
    """Whether name is one opsdk gives to an item of one of its folders."""
    return re.fullmatch(ITEM_NAME, name) is not None


def _others(root):
    """(names in root that are not opsdk's, whether root carries opsdk's layout file); the
    directory is opsdk's to use when the first is empty."""
    try:
        if stat.S_ISREG(os.lstat(os.path.join(root, LAYOUT)).st_mode):
            return [], True
    except OSError:
        pass
    known = {*FOLDERS, *FILES, *_MARKERS}
    try:
        names = os.listdir(root)
    except OSError:
        names = []  # unreadable: nothing is read from it either
    # also ours: a probe file, and the temporary file of a tag whose writer was killed
    passing = (_PROBE, *(f"{name}." for name in (*_MARKERS, *FILES)))
    return sorted(n for n in names if n not in known and not n.startswith(passing)), False


def _not_ours(root, others):
    shown = ", ".join(others[:4]) + (f" and {len(others) - 4} more" if len(others) > 4 else "")
    return Problem(f"{WHAT} {root} is not opsdk's: it has no opsdk cache tag and holds other "
                   f"files ({shown})", "not-ours", NOT_OURS_FIX)


def _untrusted(why, root):
    if "symbolic link" in why:
        fix = (f"set OPSDK_CACHE_DIR to the directory itself ({os.path.realpath(root)}) if it is "
               "yours and nobody else can write it")
    elif "belongs to" in why:
        fix = ("use a cache of your own: unset OPSDK_CACHE_DIR, or set it to a directory you own "
               "(if it is yours, `chown -R` it back)")
    else:
        fix = f"chmod -R go-w {root}"
    return Problem(f"{WHAT} {why}; nothing in it is loaded", "untrusted", fix)


def root_problem(root, writing=True):
    """Why the cache at root cannot be used, or None (see ``cache_problem``)."""
    try:
        st = os.lstat(root)
    except OSError:
        st = None
    if st is None or not stat.S_ISDIR(st.st_mode) and not stat.S_ISLNK(st.st_mode):
        problem = creation_problem(root, WHAT, writing)
        return problem if problem is None or problem.kind == "full" else \
            Problem(problem, problem.kind, CACHE_FIX)
    why = trust.distrust(st, root)
    if why:
        return _untrusted(why, root)
    if _claimed.get(root) != (st.st_dev, st.st_ino):
        others, tagged = _others(root)
        if others:
            return _not_ours(root, others)
        layout = _layout_problem(root) if tagged else None
        if layout:
            return layout
        if tagged:
            _claimed[root] = (st.st_dev, st.st_ino)
    if not writing:
        return None
    problem = creation_problem(root, WHAT, writing)
    if problem is not None and problem.kind != "full":
        problem.fix = CACHE_FIX
    elif problem is not None:
        problem.fix = FULL_FIX
    return problem


def _layout_problem(root):
    """A Problem when root holds a layout this opsdk does not know."""
    try:
        text = trust.read_trusted(os.path.join(root, LAYOUT)).decode("utf-8", "replace")
    except FileNotFoundError:
        return None
    except CacheUntrustedError as exc:
        return _untrusted(str(exc), root)
    except OSError:
        return None
    if text == _LAYOUT_TEXT:
        return None
    return Problem(f"{WHAT} {root} has another layout ({text.strip()[:60]!r}; this opsdk reads "
                   f"layout {LAYOUT_VERSION})", "layout",
                   "`opsdk cache clear` empties it for this version, or set OPSDK_CACHE_DIR elsewhere")


def cache_problem(writing=True):
    """Why the cache cannot be used (one sentence, e.g. 'the kernel cache /x is not a directory'),
    or None when it can.

    The answer is a ``str`` whose ``kind`` says what is wrong (``"not-a-directory"``,
    ``"not-writable"``, ``"full"``, ``"untrusted"``: a link, another owner, writable by others;
    ``"not-ours"``: a directory holding other files; ``"layout"``) and whose ``fix`` says what
    to do.

    Args:
        writing: also require that builds can be written there (a read-only cache of prebuilt
            kernels still serves the builds it holds).

    Example:
        >>> cache_problem() is None or cache_problem().startswith("the kernel cache")
        True
    """
    return root_problem(cache_dir(), writing)


def unusable_error(problem, prefix=""):
    """The CacheUnusableError (or its subclass for the kind) that says problem and its fix."""
    from opsdk.errors import CacheNotOursError, CacheUnusableError

    cls = {"not-ours": CacheNotOursError, "untrusted": CacheUntrustedError}.get(problem.kind,
                                                                                 CacheUnusableError)
    return cls(f"{prefix}{problem}; fix: {problem.fix}")


def claim():
    """The cache root, created (mode 0700) or adopted and tagged on first use.

    Raises:
        CacheUnusableError: it cannot be created, is not opsdk's, or is not yours alone.
    """
    root = cache_dir()
    try:
        st = os.lstat(root)
        if _claimed.get(root) == (st.st_dev, st.st_ino) and not trust.distrust(st, root):
            return root
    except OSError:
        pass
    try:
        os.makedirs(os.path.dirname(root), exist_ok=True)
        os.mkdir(root, trust.DIR_MODE)
    except OSError:
        pass  # exists already, or cannot be made: root_problem says which
    problem = root_problem(root, writing=False)
    if problem is not None:
        raise unusable_error(problem)
    if not os.path.lexists(os.path.join(root, LAYOUT)):
        if not os.path.lexists(os.path.join(root, TAG)):
            trust.write_private(os.path.join(root, TAG), TAG_TEXT)
        trust.write_private(os.path.join(root, LAYOUT), _LAYOUT_TEXT)
    st = os.lstat(root)
    _claimed[root] = (st.st_dev, st.st_ino)
    return root


def subdir(name):
    """A folder of the cache (``name`` one of ``FOLDERS``, or ``""`` for the root), created
    (mode 0700) if missing, in a root claimed as opsdk's.

    Raises:
        CacheUnusableError: the root is not usable, or the folder is a link or not yours alone.
    """
    root = claim()
    if not name:
        return root
    try:
        return trust.make_dir(os.path.join(root, name))
    except NotADirectoryError:
        from opsdk.errors import CacheUnusableError

        raise CacheUnusableError(f"{WHAT} {root} holds a file named {name}, where opsdk keeps a "
                                 f"folder; fix: `opsdk cache clear`, or remove it") from None


def append_build_log(line):
    """Append one line to builds.log (one ``write`` call, so concurrent appends never interleave)."""
    path = os.path.join(subdir(""), "builds.log")
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | trust._NOFOLLOW | trust._CLOEXEC
    with open(os.open(path, flags, trust.FILE_MODE), "a", encoding="utf-8") as f:
        f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {line}\n")


def build_lock(path, timeout):
    """The OS lock of one entry's build (flock on POSIX): released by the kernel when its holder
    dies, so never stale. Returns (lock, the Timeout exception class)."""
    import filelock

    cls = filelock.UnixFileLock if os.name == "posix" else filelock.FileLock
    return cls(path, timeout=timeout, mode=trust.FILE_MODE), filelock.Timeout


class CacheInfo(NamedTuple):
    """What ``cache_info()`` reports."""

    path: str
    entries: int
    total_bytes: int


def _items(root):
    """(folder name, DirEntry) of every item opsdk's layout names in its folders; no link followed."""
    for folder in FOLDERS:
        path = os.path.join(root, folder)
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                continue
            listing = list(os.scandir(path))
        except OSError:
            continue
        for item in listing:
            if is_item_name(item.name):
                yield folder, item


def _size(item):
    """Bytes of the files under a DirEntry (a file, or a directory walked without recursion and
    without following links)."""
    total, pending = 0, [item]
    while pending:
        entry = pending.pop()
        try:
            if entry.is_dir(follow_symlinks=False):
                pending.extend(os.scandir(entry.path))
            elif entry.is_file(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            pass  # removed while we walked
    return total


def cache_info():
    """Where the cache is, how many C builds it holds and the size of what opsdk put there.

    Only the names of opsdk's layout are counted, and no link is followed: pointed at a
    directory that is not a cache, it counts nothing of that directory's own.

    Returns:
        ``CacheInfo(path, entries, total_bytes)``.

    Example:
        >>> info = cache_info()
        >>> info.entries >= 0
        True
    """
    root = cache_dir()
    entries = total = 0
    if os.path.islink(root):
        return CacheInfo(root, 0, 0)  # counted through a link would be counting elsewhere
    for folder, item in _items(root):
        if folder == "c" and re.fullmatch(KEY_NAME, item.name) and item.is_dir(follow_symlinks=False):
            entries += 1
        total += _size(item)
    for name in FILES:
        try:
            st = os.lstat(os.path.join(root, name))
            total += st.st_size if stat.S_ISREG(st.st_mode) else 0
        except OSError:
            pass
    return CacheInfo(root, entries, total)


def clear_problem():
    """Why ``clear_cache`` would refuse (a Problem), or None: a cache that is not a directory,
    not writable, not opsdk's, or not yours alone (a link, another owner, writable by others:
    whoever else can write there could plant a link where clearing writes a lock). A full cache
    can be cleared: that frees space."""
    root = cache_dir()
    if not os.path.lexists(root):
        return None
    problem = root_problem(root, writing=True)
    return None if problem is None or problem.kind in ("full", "layout") else problem


def _remove(path):
    """Remove a file, a link (not what it points to) or a directory tree (shutil.rmtree never
    follows a link inside it)."""
    try:
        is_dir = stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return
    if is_dir:
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def _clear_builds(folder):
    """Remove the builds in folder, each under its lock; those being built elsewhere stay.
    Returns how many finished C builds (``<key>`` directories) went."""
    keys = {}
    for item in os.scandir(folder):
        if is_item_name(item.name):
            keys.setdefault(item.name.split(".", 1)[0], []).append(item)
    removed = 0
    for key, items in keys.items():
        lock, busy = build_lock(os.path.join(folder, key + ".lock"), timeout=0)
        try:
            with lock:
                for item in items:
                    if item.name.endswith(".lock"):
                        continue
                    removed += re.fullmatch(KEY_NAME, item.name) is not None and item.is_dir(follow_symlinks=False)
                    _remove(item.path)
            _remove(lock.lock_file)
        except (busy, OSError):
            continue  # another process is building it: its build finishes and installs the entry
    return removed


def clear_cache():
    """Remove every cached build, log and memo: the items of opsdk's layout, nothing else.

    A build in progress in another process is left alone (its lock is held): it finishes and
    installs its entry. The tag stays, so the directory stays opsdk's.

    Returns:
        The number of C builds removed.

    Raises:
        CacheUnusableError: the cache is not a directory, not writable, a link or another
            user's; ``CacheNotOursError`` when it holds other files and no opsdk tag.

    Example:
        >>> clear_cache() >= 0
        True
    """
    problem = clear_problem()
    if problem is not None:
        raise unusable_error(problem, "cannot clear: ")
    root = cache_dir()
    if not os.path.isdir(root):
        return 0
    removed = 0
    for folder in FOLDERS:
        path = os.path.join(root, folder)
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                continue
        except OSError:
            continue
        if folder in ("c", "cudasim"):
            counted = _clear_builds(path)
            removed += counted if folder == "c" else 0
        else:
            for item in os.scandir(path):
                if is_item_name(item.name):
                    _remove(item.path)
    for name in FILES:
        _remove(os.path.join(root, name))
    return removed


def untrusted_items():
    """["path: why"] for each item of the cache, or file in a build, that opsdk would not load
    (a link, another owner, writable by others); empty for a healthy cache."""
    root, found = cache_dir(), []
    for folder in FOLDERS:
        try:
            why = trust.distrust(os.lstat(os.path.join(root, folder)), os.path.join(root, folder))
        except OSError:
            continue
        if why:
            found.append(why)
    for folder, item in _items(root):
        if item.name.endswith(".lock"):
            continue  # never read: only locked
        try:
            st = item.stat(follow_symlinks=False)
        except OSError:
            continue
        why = trust.distrust(st, item.path)
        if why is None and stat.S_ISDIR(st.st_mode) and folder in ("c", "cudasim"):
            why = next(filter(None, (_file_distrust(f) for f in _listing(item.path))), None)
        if why:
            found.append(why)
    return found


def _listing(path):
    try:
        return list(os.scandir(path))
    except OSError:
        return []


def _file_distrust(entry):
    try:
        return trust.distrust(entry.stat(follow_symlinks=False), entry.path)
    except OSError:
        return None


def __getattr__(name):
    # the manifest helpers moved to entries.py; the CUDA simulator imports them from here
    if name in ("verified_extension", "write_manifest"):
        from opsdk.kernels import entries

        return getattr(entries, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
