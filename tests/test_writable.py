"""Can files be created here, and if not, is the place unwritable or full (their fixes differ)."""
import os
import sys

import pytest

from opsdk import writable


def _statvfs_with(free_blocks=None, free_inodes=None):
    real = os.statvfs

    def fake(path):
        fields = list(real(path))
        if free_blocks is not None:
            fields[3] = fields[4] = free_blocks  # f_bfree, f_bavail
        if free_inodes is not None:
            fields[6] = fields[7] = free_inodes  # f_ffree, f_favail
        return os.statvfs_result(fields)

    return fake


def test_a_writable_directory_with_room_has_no_problem(tmp_path):
    assert writable.creation_problem(tmp_path / "new", "the report") is None


def test_a_full_filesystem_is_said_to_be_full_not_unwritable(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "statvfs", _statvfs_with(free_blocks=0))
    problem = writable.creation_problem(tmp_path, "the report")
    assert problem.kind == "full" and "is on a full filesystem (0 KiB free)" in problem


def test_a_filesystem_out_of_inodes_is_full_too(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "statvfs", _statvfs_with(free_inodes=0))
    monkeypatch.setattr(writable, "can_create_in", lambda folder: False)  # ENOSPC on the probe
    problem = writable.creation_problem(tmp_path / "new", "the report")
    assert problem.kind == "full" and "no free inodes" in problem


def test_reading_needs_no_room(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "statvfs", _statvfs_with(free_blocks=0))
    assert writable.creation_problem(tmp_path, "the report", writing=False) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_a_pseudo_filesystem_is_unwritable_not_full():
    # /proc has no blocks at all: "0 bytes free" there does not mean full
    problem = writable.creation_problem("/proc/opsdk-x", "the report")
    assert problem.kind == "not-writable"
