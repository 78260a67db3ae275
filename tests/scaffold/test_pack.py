"""plan_pack: the exact files of a new pack, the answers it records, and what makes it refuse."""
import json
import tomllib

import pytest

import opsdk
from opsdk.errors import InvalidNameError, ScaffoldError
from opsdk.scaffold import plan_pack, template_version

PACK_FILES = {
    ".gitignore", ".opsdk-answers.json", "README.md", "pyproject.toml", "MANIFEST.in",
    ".github/workflows/wheels.yml", "src/pack_build.py",
    "src/demo_pk/__init__.py", "src/demo_pk/ops/__init__.py",
    "tests/test_pack.py", "tests/test_checks.py", "tests/test_cuda_kernels.py",
}


def files(plan):
    return {f.path: f.content.decode() for f in plan.files}


def test_new_pack_plans_exactly_these_files(tmp_path):
    assert plan_pack("demo_pk", tmp_path / "demo").paths() == PACK_FILES


def test_pack_directory_defaults_to_its_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert plan_pack("demo_pk").root == tmp_path / "demo_pk"


def test_pyproject_declares_the_opsdk_entry_point_and_requires_opsdk(tmp_path):
    project = tomllib.loads(files(plan_pack("demo_pk", tmp_path))["pyproject.toml"])
    assert project["project"]["name"] == "opsdk-demo-pk"
    assert project["project"]["entry-points"]["opsdk"] == {"demo_pk": "demo_pk"}
    assert project["project"]["dependencies"] == [f"opsdk>={opsdk.__version__}"]
    assert "*.c" in project["tool"]["setuptools"]["package-data"]["*"]


def test_answers_record_the_template_version_and_the_answers(tmp_path):
    answers = json.loads(files(plan_pack("demo_pk", tmp_path))[".opsdk-answers.json"])
    assert answers["template_version"] == template_version()
    assert answers["opsdk_version"] == opsdk.__version__
    assert answers["pack"] == {"name": "demo_pk", "package": "demo_pk", "distribution": "opsdk-demo-pk"}
    assert answers["ops"] == {}


def test_every_generated_python_file_compiles(tmp_path):
    for path, text in files(plan_pack("demo_pk", tmp_path)).items():
        if path.endswith(".py"):
            compile(text, path, "exec")


def test_readme_says_how_to_add_ops_test_and_publish(tmp_path):
    readme = files(plan_pack("demo_pk", tmp_path))["README.md"]
    for section in ("## Add an op", "## Test", "## Publish", "opsdk new-op", "pytest", "twine upload"):
        assert section in readme


def test_bad_name_is_refused_before_anything_is_rendered(tmp_path):
    with pytest.raises(InvalidNameError):
        plan_pack("demo-pk", tmp_path / "x")


def test_a_file_where_the_pack_directory_goes_is_refused(tmp_path):
    (tmp_path / "taken").write_text("")
    with pytest.raises(ScaffoldError, match="it is a file"):
        plan_pack("demo_pk", tmp_path / "taken")
