"""``opsdk new-pack``: the files it writes, --dir, --dry-run, --force, and refusals with exit code 2."""
import os

import pytest

PACK_FILES = {
    ".gitignore", ".opsdk-answers.json", "README.md", "pyproject.toml", "MANIFEST.in",
    ".github/workflows/wheels.yml", "src/pack_build.py", "src/clidemo/__init__.py", "src/clidemo/ops/__init__.py",
    "tests/test_pack.py", "tests/test_checks.py", "tests/test_cuda_kernels.py",
}


def tree(root):
    """Relative paths of every file under root."""
    return {os.path.relpath(os.path.join(folder, name), root)
            for folder, _, files in os.walk(root) for name in files}


def test_writes_exactly_the_pack_files_into_name(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("new-pack", "clidemo")
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "clidemo") == PACK_FILES
    assert "create  clidemo/pyproject.toml" in result.stdout
    assert "opsdk new-op" in result.stdout


def test_dir_option_chooses_the_directory(invoke, tmp_path):
    result = invoke("new-pack", "clidemo", "--dir", tmp_path / "elsewhere")
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "elsewhere") == PACK_FILES


def test_dry_run_lists_the_same_files_and_writes_nothing(invoke, tmp_path):
    result = invoke("new-pack", "clidemo", "--dir", tmp_path / "p", "--dry-run")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "p").exists()
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".p")]
    listed = {line.split()[-1] for line in result.stdout.splitlines() if line.startswith("  create")}
    assert {os.path.relpath(p, tmp_path / "p") for p in listed} == PACK_FILES
    assert "nothing was written" in result.stdout


def test_existing_files_are_refused_with_exit_2_and_kept(invoke, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "README.md").write_text("mine")
    result = invoke("new-pack", "clidemo", "--dir", tmp_path / "p")
    assert result.exit_code == 2
    assert "README.md" in result.stderr and "--force" in result.stderr
    assert tree(tmp_path / "p") == {"README.md"}
    assert (tmp_path / "p" / "README.md").read_text() == "mine"


def test_force_overwrites_existing_files(invoke, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "README.md").write_text("mine")
    result = invoke("new-pack", "clidemo", "--dir", tmp_path / "p", "--force")
    assert result.exit_code == 0, result.output
    assert "overwrite" in result.stdout
    assert "# opsdk-clidemo" in (tmp_path / "p" / "README.md").read_text()


@pytest.mark.parametrize("name, says", [
    ("my-pack", "is not a valid name"),
    ("def", "is a Python keyword"),
    ("os", "is a standard-library module"),
    ("opsdk", "is reserved"),
])
def test_bad_names_are_refused_with_exit_2_and_nothing_written(invoke, tmp_path, name, says):
    result = invoke("new-pack", name, "--dir", tmp_path / "p")
    assert result.exit_code == 2
    assert says in result.stderr and f"got: {name!r}" in result.stderr
    assert not (tmp_path / "p").exists()
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".p")]


def test_failure_while_writing_exits_1_and_leaves_nothing(invoke, tmp_path, monkeypatch):
    def failing(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "rename", failing)
    result = invoke("new-pack", "clidemo", "--dir", tmp_path / "p")
    monkeypatch.undo()
    assert result.exit_code == 1
    assert "No space left" in result.stderr and "Nothing was written" in result.stderr
    assert not (tmp_path / "p").exists()
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".p")]
