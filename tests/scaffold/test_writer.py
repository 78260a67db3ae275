"""Writing a plan: all files or none, never overwriting without force, restoring on any failure."""
import os
from pathlib import Path

import pytest

from opsdk.errors import ExistingFilesError
from opsdk.scaffold.plan import UPDATE, Plan, PlannedFile
from opsdk.scaffold.writer import write_plan


def snapshot(root):
    """Every file and directory under root, with file contents."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            found[os.path.relpath(os.path.join(folder, name), root) + "/"] = None
        for name in files:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = open(path, "rb").read()
    return found


def plan(root, *files):
    return Plan(root, [PlannedFile(path, content, *kind) for path, content, *kind in files])


def test_writes_every_file_creating_directories(tmp_path):
    write_plan(plan(tmp_path / "pack", ("a.txt", b"a"), ("src/p/b.py", b"b")))
    assert snapshot(tmp_path / "pack") == {"a.txt": b"a", "src/": None, "src/p/": None, "src/p/b.py": b"b"}


def test_existing_file_is_refused_without_force_and_nothing_is_written(tmp_path):
    (tmp_path / "b.txt").write_bytes(b"mine")
    before = snapshot(tmp_path)
    with pytest.raises(ExistingFilesError, match="--force") as caught:
        write_plan(plan(tmp_path, ("a.txt", b"a"), ("b.txt", b"new")))
    assert "  b.txt" in str(caught.value)
    assert snapshot(tmp_path) == before


def test_force_overwrites_existing_files(tmp_path):
    (tmp_path / "b.txt").write_bytes(b"mine")
    write_plan(plan(tmp_path, ("b.txt", b"new")), force=True)
    assert snapshot(tmp_path) == {"b.txt": b"new"}


def test_update_of_an_existing_file_needs_no_force(tmp_path):
    (tmp_path / "list.py").write_bytes(b"old")
    write_plan(plan(tmp_path, ("list.py", b"new", UPDATE)))
    assert (tmp_path / "list.py").read_bytes() == b"new"


def test_overwritten_file_keeps_its_permissions(tmp_path):
    script = tmp_path / "run.sh"
    script.write_bytes(b"old")
    script.chmod(0o755)
    write_plan(plan(tmp_path, ("run.sh", b"new", UPDATE)))
    assert script.stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_failure_midway_leaves_the_disk_as_it_was(tmp_path, monkeypatch, fail_at):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "list.py").write_bytes(b"old list")
    before = snapshot(tmp_path)
    real_replace, calls = os.replace, []

    def failing_replace(src, dst):
        calls.append(dst)
        if len(calls) == fail_at:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space left"):
        write_plan(plan(tmp_path / "pack", ("new/a.py", b"a"), ("list.py", b"new list", UPDATE),
                        ("new/deeper/b.py", b"b")))
    monkeypatch.undo()
    assert snapshot(tmp_path) == before


def test_interrupt_midway_leaves_the_disk_as_it_was(tmp_path, monkeypatch):
    (tmp_path / "pack").mkdir()
    before = snapshot(tmp_path)
    real_replace, calls = os.replace, []

    def interrupted(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_plan(plan(tmp_path / "pack", ("a", b"a"), ("b/c", b"c")))
    monkeypatch.undo()
    assert snapshot(tmp_path) == before


def test_new_directory_appears_in_one_rename(tmp_path, monkeypatch):
    real_rename, renamed = os.rename, []

    def recording(src, dst):
        renamed.append((os.path.basename(src), sorted(os.listdir(src))))
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", recording)
    write_plan(plan(tmp_path / "parent" / "pack", ("a", b"a"), ("b/c", b"c")))
    assert len(renamed) == 1 and renamed[0][1] == ["a", "b"]
    assert snapshot(tmp_path / "parent") == {"pack/": None, "pack/a": b"a", "pack/b/": None, "pack/b/c": b"c"}


@pytest.mark.parametrize("failing", ["write_bytes", "rename"])
def test_failure_writing_a_new_directory_leaves_nothing(tmp_path, monkeypatch, failing):
    before = snapshot(tmp_path)

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if failing == "rename":
        monkeypatch.setattr(os, "rename", fail)
    else:
        real_write, calls = Path.write_bytes, []

        def write_then_fail(self, data):
            calls.append(self)
            if len(calls) == 2:
                fail()
            return real_write(self, data)

        monkeypatch.setattr(Path, "write_bytes", write_then_fail)
    with pytest.raises(OSError, match="No space left"):
        write_plan(plan(tmp_path / "parent" / "pack", ("a", b"a"), ("b/c", b"c")))
    monkeypatch.undo()
    assert snapshot(tmp_path) == before
