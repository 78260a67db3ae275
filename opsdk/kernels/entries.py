"""One build in the cache (``c/<key>``, ``cudasim/<key>``): made in a private temporary directory,
sealed with a MANIFEST (the extension's name, size and digest), renamed into place; read back
once, through descriptors, and checked before anything is loaded.

The MANIFEST detects truncation and corruption; it is no signature (whoever can write the
extension can write its MANIFEST), so an entry is read only where only you can write (``trust``).
"""
import os
import stat
import time
from typing import NamedTuple

from opsdk.errors import CacheUntrustedError, KernelBuildError
from opsdk.kernels import trust
from opsdk.kernels.digest import digest_bytes

MANIFEST = "MANIFEST"
_copies = {}  # (entry, digest) -> its private copy, per process: one path per build, so a caller
# that keeps loaded libraries by path (the CUDA simulator) loads each build once


class Build(NamedTuple):
    """A checked extension of a cache entry: its file name, its bytes and their digest."""

    name: str
    data: bytes
    digest: str


def new_build_dir(entry):
    """A fresh private directory (mode 0700) next to entry to build it in: ``<entry>.tmp-<pid>-<ns>``."""
    tmp = f"{entry}.tmp-{os.getpid()}-{time.monotonic_ns()}"
    os.mkdir(tmp, trust.DIR_MODE)
    return tmp


def write_manifest(entry_dir, so_name):
    """Record the extension's name, size and digest, and take group and others' write permission
    from everything in the build (the compiler's output follows the umask)."""
    with open(os.path.join(entry_dir, so_name), "rb") as f:
        data = f.read()
    text = f"so {so_name}\nsize {len(data)}\ndigest {digest_bytes(data)}\n"
    trust.write_private(os.path.join(entry_dir, MANIFEST), text)
    trust.seal(entry_dir)


def _manifest_fields(text):
    """(name, size, digest) of a MANIFEST's text, or None if it is not one opsdk wrote."""
    try:
        fields = dict(line.split(" ", 1) for line in text.decode("utf-8").splitlines())
        name, size, digest = fields["so"], int(fields["size"]), fields["digest"]
    except (UnicodeDecodeError, ValueError, KeyError):
        return None
    # a bare file name: opened relative to the entry, it must not climb out of it (no regex:
    # compiling one would cost a fresh process's cached load a third of its time)
    if not name or name.startswith(".") or "/" in name or os.sep in name or "\0" in name or size < 0:
        return None
    return name, size, digest


def read_entry(entry_dir):
    """The ``Build`` (file name, bytes, digest) of the entry's extension, read once and matched
    against its MANIFEST; None when the entry is missing, incomplete or corrupt (the caller
    rebuilds it).

    Load these bytes (``loader.load_verified``), never the entry's path: what was checked is
    what runs.

    Raises:
        CacheUntrustedError: the entry, its MANIFEST or its extension is a link, belongs to
            another user or is writable by others.
    """
    parent = os.path.dirname(entry_dir)
    try:
        why = trust.distrust(os.lstat(parent), parent)  # whoever writes it could swap entries
        fd = trust.open_dir(entry_dir)
    except OSError:
        return None  # missing, or a file where a directory belongs
    if why:
        os.close(fd)
        raise CacheUntrustedError(why)
    try:
        manifest = trust.read_trusted(MANIFEST, fd, label=os.path.join(entry_dir, MANIFEST))
        fields = _manifest_fields(manifest)
        if fields is None:
            return None
        name, size, digest = fields
        data = trust.read_trusted(name, fd, size=size, label=os.path.join(entry_dir, name))
    except OSError:
        return None
    finally:
        os.close(fd)
    if data is None or len(data) != size or digest_bytes(data) != digest:
        return None
    return Build(name, data, digest)


def verified_extension(entry_dir):
    """Path of a private copy of the entry's checked extension, to load; None when the entry is
    missing, corrupt or untrusted (the caller rebuilds it, and ``discard_entry`` removes it)."""
    from opsdk.kernels.loader import private_copy

    try:
        found = read_entry(entry_dir)
    except CacheUntrustedError:
        return None
    if found is None:
        return None
    path = _copies.get((entry_dir, found.digest))
    if path is None or not os.path.exists(path):
        path = _copies[(entry_dir, found.digest)] = private_copy(found.name, found.data)
    return path


def installed_extension(entry_dir, label):
    """``verified_extension`` of an entry just built and installed; KernelBuildError if it is gone."""
    path = verified_extension(entry_dir)
    if path is None:
        raise KernelBuildError(f"{label}: the build at {entry_dir} was removed or altered as soon as it "
                               f"was installed (another process clearing the cache?); run it again")
    return path


def discard_entry(path):
    """Remove what sits at an entry's name: a build directory opsdk made, or a file or link (the
    link, never what it points to).

    Raises:
        CacheUntrustedError: it could not be removed (another user's, most likely).
    """
    import shutil

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path, ignore_errors=True)  # removes links inside, never follows them
    else:
        try:
            os.unlink(path)
        except OSError:
            pass
    if os.path.lexists(path):
        why = trust.distrust(st, path) or f"{path} is not opsdk's to remove"
        raise CacheUntrustedError(f"{why}, and it cannot be removed; fix: remove it (as its owner or "
                                  f"root), or `opsdk cache clear`")
