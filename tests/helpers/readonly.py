"""Read-only directories for tests that must also run as root (root writes through permission bits)."""
import os
import stat

import pytest

from opsdk import writable

_READ_ONLY_DIR = stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
_READ_ONLY_FILE = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH


@pytest.fixture
def read_only(monkeypatch):
    """``read_only(path)`` makes the tree at path read-only: for real where permission bits bind,
    and, as root (whom they do not bind), as opsdk's write probe sees it; restored at teardown."""
    made = []

    def make(path):
        path = os.path.abspath(str(path))
        for folder, _, files in os.walk(path, topdown=False):
            for name in files:
                os.chmod(os.path.join(folder, name), _READ_ONLY_FILE)
            os.chmod(folder, _READ_ONLY_DIR)
        made.append(path)
        if os.geteuid() == 0:
            real = writable.can_create_in
            monkeypatch.setattr(writable, "can_create_in",
                                lambda folder: not _inside(folder, made) and real(folder))
        return path

    yield make
    for path in made:
        for folder, _, files in os.walk(path):
            os.chmod(folder, stat.S_IRWXU)
            for name in files:
                os.chmod(os.path.join(folder, name), stat.S_IRUSR | stat.S_IWUSR)


def _inside(folder, roots):
    folder = os.path.abspath(folder)
    return any(folder == root or folder.startswith(root + os.sep) for root in roots)


def tree_snapshot(path):
    """{relative path: (size, mtime_ns)} of every file and directory under path."""
    found = {}
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            full = os.path.join(folder, name)
            st = os.stat(full)
            found[os.path.relpath(full, path)] = (st.st_size, st.st_mtime_ns)
    return found
