"""Finding the templates: in the source tree, through $OPSDK_TEMPLATES_DIR, and inside an installed wheel."""
import shutil
import subprocess
import sys
import zipfile

import pytest

from opsdk.errors import TemplateError
from opsdk.scaffold import template_version, templates_dir

from .conftest import REPO

# what pyproject.toml needs so the wheel carries the templates (opsdk/_templates links to templates/)
PACKAGE_DATA = '\n[tool.setuptools.package-data]\nopsdk = ["_templates/**/*", "_templates/**/.*"]\n'


def test_source_tree_templates_are_the_top_level_directory():
    assert templates_dir().resolve() == (REPO / "templates").resolve()
    assert (templates_dir() / "pack").is_dir() and (templates_dir() / "op").is_dir()


def test_package_link_points_at_the_top_level_templates():
    assert (REPO / "opsdk" / "_templates").resolve() == (REPO / "templates").resolve()


def test_template_version_is_the_version_file():
    assert template_version() == (REPO / "templates" / "VERSION").read_text().strip()


def test_environment_variable_overrides_the_location(tmp_path, monkeypatch):
    (tmp_path / "VERSION").write_text("7\n")
    monkeypatch.setenv("OPSDK_TEMPLATES_DIR", str(tmp_path))
    assert templates_dir() == tmp_path
    assert template_version() == "7"


def test_missing_templates_are_an_error_saying_to_reinstall(tmp_path, monkeypatch):
    monkeypatch.setenv("OPSDK_TEMPLATES_DIR", str(tmp_path / "gone"))
    with pytest.raises(TemplateError, match="cannot find opsdk's templates.*reinstall opsdk"):
        templates_dir()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """opsdk built as a wheel from a copy of this checkout (with the package-data the wheel needs)."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    shutil.copytree(REPO / "opsdk", src / "opsdk", symlinks=True, ignore=ignore)
    shutil.copytree(REPO / "templates", src / "templates", ignore=ignore)
    for name in ("README.md", "pyproject.toml"):
        shutil.copy(REPO / name, src / name)
    pyproject = (src / "pyproject.toml").read_text()
    if "_templates/**" not in pyproject:
        (src / "pyproject.toml").write_text(pyproject + PACKAGE_DATA)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
                            "--no-build-isolation", "--wheel-dir", str(work / "dist"), str(src)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = (work / "dist").glob("opsdk-*.whl")
    return path


@pytest.mark.slow
def test_wheel_carries_every_template_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (REPO / "templates").rglob("*"):
        if path.is_file():
            relative = path.relative_to(REPO / "templates").as_posix()
            assert f"opsdk/_templates/{relative}" in names


@pytest.mark.slow
def test_installed_wheel_finds_its_templates_and_renders_a_pack(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # run from a directory where neither the checkout nor its templates can be imported
    script = ("from opsdk.scaffold import templates_dir, plan_pack, write_plan; "
              "print(templates_dir()); write_plan(plan_pack('wheelpack', 'out'))")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(site / "opsdk" / "_templates")
    assert (tmp_path / "out" / "src" / "wheelpack" / "ops" / "__init__.py").is_file()
    assert (tmp_path / "out" / ".gitignore").is_file()
