"""``opsdk new-op``: the files each backend writes, the pack files it updates, refusals with exit code 2."""
import json
import os

import pytest

from opsdk.scaffold import plan_pack, write_plan


@pytest.fixture
def pack(tmp_path):
    root = tmp_path / "oppack"
    write_plan(plan_pack("oppack", root))
    return root


def files(root):
    """Every file under root, with its bytes."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = open(path, "rb").read()
    return found


def written(result):
    """The (verb, path) lines a new-op run printed."""
    return {tuple(line.split()) for line in result.stdout.splitlines() if line.startswith("  ")
            and line.split()[0] in ("create", "update", "overwrite")}


@pytest.mark.parametrize("options, kernels", [
    ((), ()),
    (("--backend", "c"), ()),  # elementwise kernels come from the module's C bodies
    (("--kind", "multi", "--backend", "cuda"), ()),  # Multi.c_bodies writes them
    (("--kind", "rows", "-b", "python", "-b", "c", "-b", "cuda"), ()),  # Rows.c_bodies writes them
    (("--signature", "x: float[N] -> y: float[N]", "--backend", "cuda"), ("swish.cu",)),
])
def test_writes_exactly_the_op_files_and_updates_the_pack(invoke, pack, options, kernels):
    before = files(pack)
    result = invoke("new-op", "swish", "--pack", pack, *options)
    assert result.exit_code == 0, result.output
    created = {"src/oppack/ops/swish.py", "tests/ops/test_swish.py",
               *(f"src/oppack/ops/{k}" for k in kernels)}
    after = files(pack)
    assert set(after) - set(before) == created
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {"src/oppack/ops/__init__.py", ".opsdk-answers.json"}
    shown = {(verb, os.path.relpath(path, pack)) for verb, path in written(result)}
    assert shown == {("create", p) for p in created} | {("update", "src/oppack/ops/__init__.py"),
                                                        ("update", ".opsdk-answers.json")}


def test_default_pack_is_the_current_directory(invoke, pack, monkeypatch):
    monkeypatch.chdir(pack / "src")
    result = invoke("new-op", "swish")
    assert result.exit_code == 0, result.output
    assert (pack / "src/oppack/ops/swish.py").is_file()


def test_python_is_always_generated(invoke, pack):
    invoke("new-op", "swish", "--pack", pack, "--backend", "cuda")
    answers = json.loads((pack / ".opsdk-answers.json").read_text())
    assert answers["ops"]["swish"]["backends"] == ["python", "cuda"]


def test_dry_run_lists_the_files_and_writes_nothing(invoke, pack):
    before = files(pack)
    result = invoke("new-op", "swish", "--pack", pack, "--backend", "c", "--dry-run")
    assert result.exit_code == 0, result.output
    assert files(pack) == before
    assert {os.path.relpath(path, pack) for _, path in written(result)} == {
        "src/oppack/ops/swish.py", "tests/ops/test_swish.py",
        "src/oppack/ops/__init__.py", ".opsdk-answers.json"}


@pytest.mark.parametrize("name, says", [
    ("swish-2", "is not a valid name"),
    ("for", "is a Python keyword"),
    ("_swish", "starts with '_'"),
    ("OPS", "is reserved"),
])
def test_bad_names_are_refused_with_exit_2_and_nothing_written(invoke, pack, name, says):
    before = files(pack)
    result = invoke("new-op", name, "--pack", pack)
    assert result.exit_code == 2
    assert says in result.stderr
    assert files(pack) == before


def test_existing_op_is_refused_with_exit_2(invoke, pack):
    invoke("new-op", "swish", "--pack", pack)
    before = files(pack)
    result = invoke("new-op", "swish", "--pack", pack, "--backend", "c")
    assert result.exit_code == 2
    assert "already an op of pack 'oppack'" in result.stderr
    assert files(pack) == before


def test_force_regenerates_an_existing_op(invoke, pack):
    invoke("new-op", "swish", "--pack", pack)
    result = invoke("new-op", "swish", "--pack", pack, "--backend", "c", "--force")
    assert result.exit_code == 0, result.output
    assert ("overwrite", "src/oppack/ops/swish.py") in {
        (verb, os.path.relpath(path, pack)) for verb, path in written(result)}
    assert "c=True, cuda=False" in (pack / "src/oppack/ops/swish.py").read_text()


def test_unknown_backend_is_refused_with_exit_2(invoke, pack):
    before = files(pack)
    result = invoke("new-op", "swish", "--pack", pack, "--backend", "rocm")
    assert result.exit_code == 2
    assert "'rocm' is not one of 'python', 'c', 'cuda'" in result.stderr
    assert files(pack) == before


def test_directory_that_is_no_pack_is_refused_with_exit_2(invoke, tmp_path):
    (tmp_path / "plain").mkdir()
    result = invoke("new-op", "swish", "--pack", tmp_path / "plain")
    assert result.exit_code == 2
    assert "not inside an opsdk pack" in result.stderr
    assert os.listdir(tmp_path / "plain") == []
