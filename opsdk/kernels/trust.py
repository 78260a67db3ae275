"""Which files of the kernel cache may be read and loaded: those the current user (or root) owns,
that nobody else can write, reached without following a symbolic link.

As pip disables a cache it does not own, and CPython ignores a ``__pycache__`` it cannot trust,
opsdk never loads code from a place another user could have written. Files are opened with
``O_NOFOLLOW`` and judged by ``fstat`` of the open descriptor, so what is checked is what is read.
"""
import os
import stat

from opsdk.errors import CacheUntrustedError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_AT_SUPPORTED = os.open in os.supports_dir_fd
# a private file: never writable by group or others, whatever the umask
FILE_MODE, DIR_MODE = 0o644, 0o700


def _owner(st):
    """The uid owning a stat result (a seam: tests make an entry foreign without being root)."""
    return st.st_uid


def _who(uid):
    """'alice (uid 1000)', or 'uid 1000' for a uid without a name."""
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def distrust(st, path):
    """Why the file or directory at path (``st`` from lstat or fstat) is not trusted, or None.

    Trusted: not a symbolic link, owned by you or by root, not writable by group or others.

    Example:
        >>> distrust(os.lstat("/"), "/") is None  # root's, mode 0755
        True
    """
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"{path} is a symbolic link (to {target}), and opsdk follows none in its cache"
    if not hasattr(os, "geteuid"):  # Windows: no uids, no mode bits that mean this
        return None
    uid, me = _owner(st), os.geteuid()
    if uid not in (me, 0):
        return f"{path} belongs to {_who(uid)}, not to you ({_who(me)})"
    loose = st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    if loose:
        whom = {stat.S_IWGRP: "its group", stat.S_IWOTH: "others"}.get(loose, "group and others")
        return f"{path} is writable by {whom} (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _refuse(why):
    """The error that says why a cache file is not trusted."""
    return CacheUntrustedError(why)


def _open(path, flags, dir_fd, label):
    """os.open with O_NOFOLLOW; a symbolic link is CacheUntrustedError, not ELOOP."""
    if not _AT_SUPPORTED and dir_fd is not None:
        path, dir_fd = label, None
    try:
        return os.open(path, flags | _NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in _LINK_ERRNOS and _is_link(path, dir_fd):
            raise _refuse(distrust(os.lstat(path, dir_fd=dir_fd), label)) from None
        raise


def _is_link(path, dir_fd):
    try:
        return stat.S_ISLNK(os.lstat(path, dir_fd=dir_fd).st_mode)
    except OSError:
        return False


def _link_errnos():
    import errno

    # Linux and macOS say ELOOP for O_NOFOLLOW on a link; FreeBSD says EMLINK, NetBSD EFTYPE
    return {errno.ELOOP, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP), errno.ENOTDIR}


_LINK_ERRNOS = _link_errnos()


def open_dir(path):
    """A descriptor of the trusted directory at path (no link followed).

    Raises:
        CacheUntrustedError: it is a link, or not yours alone.
        OSError: it is missing or not a directory.
    """
    fd = _open(path, os.O_RDONLY | _DIRECTORY, None, path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISDIR(st.st_mode):
            raise NotADirectoryError(20, "Not a directory", path)
        why = distrust(st, path)
        if why:
            raise _refuse(why)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_trusted(name, dir_fd=None, *, size=None, label=None):
    """The bytes of the trusted regular file ``name`` (relative to ``dir_fd`` if given), read
    once through one descriptor.

    Args:
        name: the file (a bare name when ``dir_fd`` is given).
        dir_fd: a descriptor of its directory, from ``open_dir``.
        size: the size it must have; None when the file is any other size.
        label: how messages name the file (default: name).

    Raises:
        CacheUntrustedError: it is a link, not a regular file, or not yours alone.
        OSError: it is missing or unreadable.
    """
    label = label or name
    fd = _open(name, os.O_RDONLY, dir_fd, label)
    with open(fd, "rb", closefd=True) as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(f"{label} is not a regular file")
        why = distrust(st, label)
        if why:
            raise _refuse(why)
        if size is not None and st.st_size != size:
            return None
        return f.read()


def write_private(path, data):
    """Write bytes or text to path atomically (a new file renamed over it), never writable by
    group or others and never through a link."""
    import secrets

    if isinstance(data, str):
        data = data.encode("utf-8")
    tmp = f"{path}.{os.getpid()}{secrets.randbelow(10**6):06d}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, FILE_MODE)
    try:
        with open(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def make_dir(path):
    """Create the directory path (mode 0700) if missing; CacheUntrustedError if what is there is
    a link or not yours alone, NotADirectoryError if it is a file."""
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass
    st = os.lstat(path)
    why = distrust(st, path)
    if why:
        raise _refuse(why)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(20, "Not a directory", path)
    return path


def seal(folder):
    """Drop group and others' write permission from folder and the files directly in it (what
    the compiler made follows the umask, which may grant them)."""
    for item in os.scandir(folder):
        if item.is_file(follow_symlinks=False):
            mode = stat.S_IMODE(item.stat(follow_symlinks=False).st_mode)
            if mode & 0o022:
                os.chmod(item.path, mode & ~0o022)
    mode = stat.S_IMODE(os.lstat(folder).st_mode)
    if mode & 0o022:
        os.chmod(folder, mode & ~0o022)
