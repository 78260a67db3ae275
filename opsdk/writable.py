"""Can files be created here? Asked of the OS by trying, since permission bits do not bind root,
and ACLs and read-only mounts fool ``os.access``; a full filesystem is told apart from an
unwritable one, since their fixes differ."""
import os

# fewer free bytes than this and a filesystem counts as full: a small build needs more
FULL_BELOW = 1 << 20


class Problem(str):
    """A sentence saying why a path cannot be used, with what kind of problem it is
    (``"not-a-directory"``, ``"not-writable"``, ``"full"``, or a kind the caller names) and,
    when the caller knows it, what to do (``fix``)."""

    def __new__(cls, text, kind, fix=""):
        self = super().__new__(cls, text)
        self.kind, self.fix = kind, fix
        return self


def nearest_existing(path):
    """``path``, or its nearest parent that exists (what decides whether path can be created)."""
    folder = os.path.abspath(path)
    while not os.path.lexists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return folder


def can_create_in(folder):
    """True if a file can be created in the directory ``folder`` (it is created and removed)."""
    import tempfile

    try:
        fd, path = tempfile.mkstemp(prefix=".opsdk-probe-", dir=folder)
    except OSError:
        return False
    os.close(fd)
    os.unlink(path)
    return True


def free_space(folder):
    """(free bytes, free inodes) for an unprivileged writer on folder's filesystem; inodes is None
    where the filesystem has no fixed number; (None, None) where the OS does not say."""
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):
        return None, None
    if st.f_blocks == 0:  # /proc and other pseudo-filesystems: no capacity, so never "full"
        return None, None
    # root may use the blocks reserved for it; everyone else gets f_bavail
    blocks = st.f_bfree if hasattr(os, "geteuid") and os.geteuid() == 0 else st.f_bavail
    return blocks * st.f_frsize, (st.f_favail if st.f_files else None)


def full_problem(folder, what, path):
    """A "full" Problem when folder's filesystem has (almost) no space or no inodes left, else None."""
    free, inodes = free_space(folder)
    if free is not None and free < FULL_BELOW:
        return Problem(f"{what} {path} is on a full filesystem ({free // 1024} KiB free)", "full")
    if inodes == 0:
        return Problem(f"{what} {path} is on a full filesystem (no free inodes)", "full")
    return None


def creation_problem(path, what, writing=True):
    """Why ``path`` (a file or directory to create) cannot be created, or None.

    Args:
        path: the path to create.
        what: how messages name it, e.g. ``"the kernel cache"``.
        writing: also require that files can be created in it (else only: it is, or can become,
            a directory).

    Returns:
        None, or a ``Problem`` like ``"the kernel cache /x cannot be created: / is not writable"``
        (its ``kind``: ``"not-a-directory"``, ``"not-writable"`` or ``"full"``).

    Example:
        >>> creation_problem("/proc/x/y", "the report") is not None
        True
    """
    path = os.path.abspath(path)
    folder = nearest_existing(path)
    if folder == path:
        if not os.path.isdir(folder):
            return Problem(f"{what} {path} is not a directory", "not-a-directory")
        if not writing:
            return None
        if not can_create_in(folder):
            return full_problem(folder, what, path) or Problem(f"{what} {path} is not writable", "not-writable")
        return full_problem(folder, what, path)
    if not os.path.isdir(folder):
        return Problem(f"{what} {path} cannot be created: {folder} is not a directory", "not-a-directory")
    if writing and not can_create_in(folder):
        return full_problem(folder, what, path) or \
            Problem(f"{what} {path} cannot be created: {folder} is not writable", "not-writable")
    return full_problem(folder, what, path) if writing else None
