"""Can files be created here? Asked of the OS by trying, since permission bits do not bind root,
and ACLs and read-only mounts fool ``os.access``."""
import os


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


def creation_problem(path, what, writing=True):
    """Why ``path`` (a file or directory to create) cannot be created, or None.

    Args:
        path: the path to create.
        what: how messages name it, e.g. ``"the kernel cache"``.
        writing: also require that files can be created in it (else only: it is, or can become,
            a directory).

    Returns:
        None, or a sentence like ``"the kernel cache /x cannot be created: / is not writable"``.

    Example:
        >>> creation_problem("/proc/x/y", "the report") is not None
        True
    """
    path = os.path.abspath(path)
    folder = nearest_existing(path)
    if folder == path:
        if not os.path.isdir(folder):
            return f"{what} {path} is not a directory"
        return None if not writing or can_create_in(folder) else f"{what} {path} is not writable"
    if not os.path.isdir(folder):
        return f"{what} {path} cannot be created: {folder} is not a directory"
    if writing and not can_create_in(folder):
        return f"{what} {path} cannot be created: {folder} is not writable"
    return None
