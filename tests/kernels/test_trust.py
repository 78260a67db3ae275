"""Which cache files opsdk trusts: yours (or root's), writable by nobody else, no link followed."""
import os

import pytest

from opsdk.errors import CacheUntrustedError
from opsdk.kernels import trust


def test_your_private_file_is_trusted(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x")
    os.chmod(path, 0o644)
    assert trust.distrust(os.lstat(path), str(path)) is None
    assert trust.read_trusted(str(path)) == b"x"


@pytest.mark.parametrize("mode, whom", [(0o664, "its group"), (0o646, "others"), (0o666, "group and others")])
def test_a_file_others_can_write_is_not(tmp_path, mode, whom):
    path = tmp_path / "f"
    path.write_bytes(b"x")
    os.chmod(path, mode)
    with pytest.raises(CacheUntrustedError, match=f"writable by {whom} \\(mode 0{mode:o}\\)"):
        trust.read_trusted(str(path))


def test_a_file_of_another_user_is_not(tmp_path, monkeypatch):
    path = tmp_path / "f"
    path.write_bytes(b"x")
    monkeypatch.setattr(trust, "_owner", lambda st: 4242)
    with pytest.raises(CacheUntrustedError, match="belongs to uid 4242, not to you"):
        trust.read_trusted(str(path))


def test_a_file_of_root_is_trusted(tmp_path, monkeypatch):
    # root can do anything anyway: a system-wide cache root installed is fine
    path = tmp_path / "f"
    path.write_bytes(b"x")
    os.chmod(path, 0o644)
    monkeypatch.setattr(trust, "_owner", lambda st: 0)
    assert trust.read_trusted(str(path)) == b"x"


def test_a_link_is_never_followed(tmp_path):
    (tmp_path / "real").write_bytes(b"x")
    os.symlink(tmp_path / "real", tmp_path / "link")
    with pytest.raises(CacheUntrustedError, match="is a symbolic link"):
        trust.read_trusted(str(tmp_path / "link"))
    os.mkdir(tmp_path / "dir", 0o700)
    os.symlink(tmp_path / "dir", tmp_path / "dirlink")
    with pytest.raises(CacheUntrustedError, match="is a symbolic link"):
        trust.open_dir(str(tmp_path / "dirlink"))


def test_a_file_is_judged_by_the_descriptor_it_is_read_from(tmp_path):
    # read through a directory descriptor: a file of the wrong size is not read at all
    (tmp_path / "f").write_bytes(b"abc")
    os.chmod(tmp_path / "f", 0o600)
    fd = trust.open_dir(str(tmp_path))
    try:
        assert trust.read_trusted("f", fd, size=3) == b"abc"
        assert trust.read_trusted("f", fd, size=4) is None
    finally:
        os.close(fd)


def test_private_writes_ignore_a_permissive_umask(tmp_path):
    old = os.umask(0)
    try:
        trust.write_private(str(tmp_path / "f"), "text")
        trust.make_dir(str(tmp_path / "d"))
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "f").st_mode & 0o777 == 0o644
    assert os.stat(tmp_path / "d").st_mode & 0o777 == 0o700


def test_a_private_write_replaces_a_link_instead_of_writing_through_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    os.symlink(victim, tmp_path / "f")
    trust.write_private(str(tmp_path / "f"), "new")
    assert victim.read_text() == "precious" and not os.path.islink(tmp_path / "f")
