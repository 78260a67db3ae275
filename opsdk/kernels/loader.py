"""Loading compiled extensions so that the bytes checked are the bytes loaded.

A cache entry's extension is read once, through a descriptor, and matched against its MANIFEST
(``entries.read_entry``). Those very bytes are written to a new file in a directory that only
this process writes (mode 0700, a fresh random name), and that file is what ``dlopen`` opens:
nobody can swap it between the check and the load, neither another user nor another opsdk
process rebuilding the entry. The private directory is ``load/<random>`` in the cache (the
filesystem the compiler just wrote to, so not one mounted noexec as /tmp sometimes is), or a
fresh directory in the system's temporary directory when the cache cannot be written (a
read-only cache of prebuilt kernels). A cffi module's copy is removed as soon as it is loaded.

Why not ``dlopen("/proc/self/fd/N")`` of the checked descriptor: Linux only, and glibc matches an
already loaded library by its path string, so a later load reusing the number N would get the
earlier library back.
"""
import atexit
import itertools
import os
import secrets
import shutil
import threading
import time
from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_file_location

from opsdk.errors import CacheUnusableError
from opsdk.kernels import trust

# a private directory left by a killed process is removed by the next one after this long
STALE_AFTER = 24 * 3600

_dirs = {}  # cache root, or None for the system temp dir -> this process's private directory there
_made = []  # (pid, path) of every private directory this process made: removed at its exit
_lock = threading.Lock()
_count = itertools.count()


def load_extension(module_name, path):
    """(lib, ffi) of the cffi extension module at path."""
    loader = ExtensionFileLoader(module_name, path)
    spec = spec_from_file_location(module_name, path, loader=loader)
    module = module_from_spec(spec)
    loader.exec_module(module)
    return module.lib, module.ffi


def load_verified(module_name, build):
    """(lib, ffi) of a cffi extension given as a checked ``Build`` (``entries.read_entry``):
    loaded from a private copy of its bytes, which is removed once loaded.

    Raises:
        ImportError, OSError: it does not load (the caller rebuilds it or falls back).
    """
    path = private_copy(build.name, build.data)
    try:
        return load_extension(module_name, path)
    finally:
        try:
            os.unlink(path)  # the loaded library stays mapped
        except OSError:
            pass


def private_copy(file_name, data):
    """Path of a new file holding data, in a directory only this process writes."""
    with _lock:
        error = None
        for base in _bases():
            for _ in range(2):  # a second try in a fresh directory: `cache clear` may remove ours
                try:
                    folder = _dirs.get(base) or _make_dir(base)
                    path = os.path.join(folder, f"{next(_count)}-{file_name}")
                    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | trust._NOFOLLOW | trust._CLOEXEC
                    with open(os.open(path, flags, 0o700), "wb") as f:
                        f.write(data)
                    return path
                except OSError as exc:  # removed, full, read-only: the next place
                    _dirs.pop(base, None)
                    error = exc
                except CacheUnusableError as exc:  # the cache is not ours to write: the next place
                    error = OSError(str(exc))
                    break
        raise error


def _bases():
    """Where private directories may be made: the cache (when it can be written), then the
    system's temporary directory."""
    from opsdk.kernels.cache import cache_dir
    from opsdk.writable import can_create_in

    root = cache_dir()
    if root in _dirs or (os.path.isdir(root) and can_create_in(root)):
        return (root, None)
    return (None,)


def _make_dir(base):
    """A new private directory in the cache's load/ folder (base, a cache root) or in the
    system temp dir (base None)."""
    import tempfile

    if base is None:
        folder = tempfile.mkdtemp(prefix="opsdk-load-")
    else:
        from opsdk.kernels.cache import subdir

        parent = subdir("load")
        _remove_stale(parent)
        folder = os.path.join(parent, secrets.token_hex(8))
        os.mkdir(folder, trust.DIR_MODE)
    if not _made:
        atexit.register(_remove_made)
    _made.append((os.getpid(), folder))
    _dirs[base] = folder
    return folder


def _remove_stale(parent):
    """Remove the private directories of processes killed long ago (their libraries, if they
    still run, stay mapped)."""
    from opsdk.kernels.cache import is_item_name

    now = time.time()
    for item in os.scandir(parent):
        try:
            if is_item_name(item.name) and item.is_dir(follow_symlinks=False) and \
                    now - item.stat(follow_symlinks=False).st_mtime > STALE_AFTER:
                shutil.rmtree(item.path, ignore_errors=True)
        except OSError:
            pass


def _remove_made():
    """At exit: remove the private directories this process (not a forked child) made."""
    for pid, folder in _made:
        if pid == os.getpid():
            shutil.rmtree(folder, ignore_errors=True)
