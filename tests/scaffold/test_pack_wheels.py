"""What new-pack writes to publish wheels with prebuilt kernels: the build commands (with their
fallback where opsdk is not importable at build time), the sdist's manifest and the CI workflow;
slow: a generated pack's wheel, built offline, shown and repaired by auditwheel, then run from an
install with no compiler."""
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

from opsdk.kernels.compiler import find_compiler
from opsdk.scaffold import plan_pack


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    plan = plan_pack("demo_pk", tmp_path_factory.mktemp("pack") / "demo")
    return {f.path: f.content.decode() for f in plan.files}


def test_pyproject_builds_with_the_packs_own_build_commands(generated):
    cmdclass = tomllib.loads(generated["pyproject.toml"])["tool"]["setuptools"]["cmdclass"]
    assert cmdclass == {"build_py": "pack_build.BuildPy", "bdist_wheel": "pack_build.BdistWheel"}
    # setuptools finds a cmdclass module under package_dir (src/), and the sdist must carry it
    assert "include src/pack_build.py" in generated["MANIFEST.in"].splitlines()


def _exec_pack_build(text, hide_opsdk):
    """The names pack_build.py binds, run with opsdk's build commands importable or not."""
    saved = sys.modules.get("opsdk.prebuild.hooks")
    if hide_opsdk:
        sys.modules["opsdk.prebuild.hooks"] = None  # import of it raises ImportError
    try:
        names = {}
        exec(compile(text, "pack_build.py", "exec"), names)
        return names
    finally:
        if hide_opsdk:
            if saved is None:
                del sys.modules["opsdk.prebuild.hooks"]
            else:
                sys.modules["opsdk.prebuild.hooks"] = saved


def test_pack_build_takes_opsdks_commands_where_opsdk_imports(generated):
    from opsdk.prebuild.hooks import BdistWheel, BuildPy

    names = _exec_pack_build(generated["src/pack_build.py"], hide_opsdk=False)
    assert (names["BuildPy"], names["BdistWheel"]) == (BuildPy, BdistWheel)


def test_pack_build_falls_back_to_setuptools_and_says_so(generated, capsys):
    from setuptools.command.bdist_wheel import bdist_wheel
    from setuptools.command.build_py import build_py

    names = _exec_pack_build(generated["src/pack_build.py"], hide_opsdk=True)
    assert (names["BuildPy"], names["BdistWheel"]) == (build_py, bdist_wheel)
    assert "the wheel ships C sources only" in capsys.readouterr().err


def test_workflow_builds_manylinux_wheels_repairs_them_and_rerecords_the_kernels(generated):
    workflow = generated[".github/workflows/wheels.yml"]
    assert "python -m cibuildwheel --output-dir wheelhouse" in workflow
    assert 'CIBW_BUILD: "cp310-manylinux_*"' in workflow  # one abi3 wheel per platform
    assert 'CIBW_BUILD_FRONTEND: "build; args: --no-isolation"' in workflow  # opsdk importable
    repair = re.search(r"CIBW_REPAIR_WHEEL_COMMAND_LINUX: >-\n((?: {12}.+\n)+)", workflow).group(1).split()
    assert " ".join(repair) == ("auditwheel repair -w {dest_dir} {wheel} && "
                                "python -m opsdk.prebuild.after_repair {dest_dir}/*.whl")
    assert "CIBW_TEST_COMMAND: opsdk list && opsdk check --pack demo_pk" in workflow
    assert "libgomp" in workflow and "OpenMP" in workflow  # why the repair matters, said there
    # GitHub's own expressions survive the Jinja rendering; nothing of Jinja's is left
    assert "runs-on: ${{ matrix.os }}" in workflow and "{%" not in workflow
    assert not re.search(r"(?<!\$)\{\{", workflow)


def test_readme_builds_a_wheel_and_shows_it_to_auditwheel(generated):
    readme = generated["README.md"]
    assert "pip wheel --no-deps --no-build-isolation -w dist ." in readme
    assert "auditwheel show dist/*.whl" in readme and ".github/workflows/wheels.yml" in readme


def _has_auditwheel_tools():
    return shutil.which("auditwheel") is not None and shutil.which("patchelf") is not None


@pytest.mark.slow
@pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler to build the wheel")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="auditwheel inspects Linux wheels")
@pytest.mark.skipif(not _has_auditwheel_tools(),
                    reason="needs auditwheel and patchelf (opsdk's `test` extra installs both on Linux)")
def test_generated_pack_wheel_is_repaired_and_runs_its_openmp_kernel_with_no_compiler(generated_pack, tmp_path):
    pack = generated_pack("wheeled", {"rowop": ("--backend=c", "--kind=rows")})  # an OpenMP kernel
    ours = [p for p in sys.path if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(ours), "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path / "dist"), str(pack.root)], check=True, env=env, timeout=300)
    (wheel,) = (tmp_path / "dist").iterdir()
    assert "-abi3-linux_" in wheel.name
    shown = subprocess.run(["auditwheel", "show", str(wheel)], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "libgomp" in shown.stdout  # the OpenMP runtime: why the wheel must be repaired
    subprocess.run(["auditwheel", "repair", "-w", str(tmp_path / "fixed"), str(wheel)], check=True,
                   capture_output=True, timeout=300)
    (fixed,) = (tmp_path / "fixed").iterdir()
    assert "manylinux" in fixed.name
    assert any(".libs/libgomp" in n for n in zipfile.ZipFile(fixed).namelist())
    rerecorded = subprocess.run([sys.executable, "-m", "opsdk.prebuild.after_repair", str(fixed)],
                                env=env, capture_output=True, text=True, timeout=120)
    assert "recorded 1 relinked kernel build(s)" in rerecorded.stdout, rerecorded.stderr
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target",
                    str(target), str(fixed)], check=True, timeout=300)
    empty = tmp_path / "no-compiler"
    empty.mkdir()
    run_env = {**env, "PYTHONPATH": os.pathsep.join([str(target), *ours]), "PATH": str(empty),
               "OPSDK_CACHE_DIR": str(tmp_path / "cache"), "OPSDK_LOAD_PLUGINS": "wheeled"}
    run_env.pop("CC", None)
    listed = subprocess.run([sys.executable, "-m", "opsdk.cli", "list", "--json"], env=run_env,
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    origins = [kernel["from"] for op in json.loads(listed.stdout)["ops"] if op["pack"] == "wheeled"
               for kernel in op["c_kernels"].values()]
    assert origins and set(origins) == {"prebuilt"}, listed.stdout  # forward and backward, one source
    checked = subprocess.run([sys.executable, "-m", "opsdk.cli", "check", "--pack", "wheeled"],
                             env=run_env, capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no compiler" not in checked.stdout + checked.stderr
    assert not (tmp_path / "cache" / "c").exists()  # nothing compiled, nothing cached
