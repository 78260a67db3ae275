"""The templates end to end: a pack made by new-pack and new-op, installed, passes its tests and opsdk check.

One pack per backend choice and one with all three; C kernels compile where there is a compiler
(always, on CI), CUDA sources are compile-checked where nvcc exists and run where there is a GPU.
"""
import subprocess

import pytest

from opsdk.kernels import compiler_info, cuda_status, find_nvcc

from .conftest import plugin_args

CASES = {
    "python": ("python",),
    "c": ("c",),
    "cuda": ("cuda",),
    "all": ("python", "c", "cuda"),
}


def expected_backends(backends):
    """The backends whose checks must pass here (the others are skipped, with the reason)."""
    runs = {"python"}
    if "c" in backends and compiler_info().available:
        runs.add("c")
    if "cuda" in backends and cuda_status()[0]:
        runs.add("cuda")
    return runs


# python by default (5 s); each pack with a compiled backend (6-17 s) in the full verification,
# where test_kinds_end_to_end's default case already builds C and CUDA from the templates
@pytest.mark.parametrize("case", [pytest.param(c, marks=[] if c == "python" else [pytest.mark.slow])
                                  for c in sorted(CASES)])
def test_generated_pack_passes_its_tests_and_opsdk_check(generated_pack, case):
    backends = CASES[case]
    pack = generated_pack(f"e2e_{case}", {"smooth": backends})
    pack.install()
    tests = pack.pytest()
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert " FAILED" not in tests.stdout and " ERROR" not in tests.stdout
    assert "tests/test_pack.py::test_pack_loads_without_errors PASSED" in tests.stdout
    for backend in expected_backends(backends):
        for check in ("gradcheck", "gradgradcheck", "backward_agreement"):
            case_id = f"smooth[{backend}-float64-{check}]"
            # python is the reference: its agreement with itself is not collected
            reference_only = (backend, check) == ("python", "backward_agreement") \
                and case_id not in tests.stdout
            assert f"{case_id} PASSED" in tests.stdout or reference_only
        if backend == "cuda":
            assert "test_cuda_kernels_match_python_on_gpu[float32] PASSED" in tests.stdout
        else:
            assert f"test_forward_matches_the_reference[{backend}-float32] PASSED" in tests.stdout
    if "cuda" in backends:
        nvcc_test = "tests/ops/test_smooth.py::test_cuda_source_compiles_with_nvcc"
        assert f"{nvcc_test} {'PASSED' if find_nvcc() else 'SKIPPED'}" in tests.stdout
    checked = pack.run("-m", "opsdk.cli", "check", "--pack", pack.name)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_new_pack_alone_passes_its_tests(generated_pack):
    pack = generated_pack("e2e_empty", {})
    pack.install()
    tests = pack.pytest()
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout


def test_generated_pack_is_listed_with_its_ops(generated_pack):
    pack = generated_pack("e2e_listed", {"smooth": ("c",)})
    pack.install()
    listed = pack.run("-m", "opsdk.cli", "list")
    assert listed.returncode == 0, listed.stderr
    assert "e2e_listed.smooth" in listed.stdout
    assert "opsdk-e2e-listed" in listed.stdout


@pytest.mark.slow
def test_pip_installed_pack_is_listed_and_passes_its_tests(generated_pack, tmp_path):
    pack = generated_pack("e2e_pip", {"smooth": ("python", "c")})
    python, env = pack.pip_install_editable(tmp_path / "venv")
    listed = subprocess.run([python, "-m", "opsdk.cli", "list"], cwd=pack.root, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "e2e_pip.smooth" in listed.stdout, listed.stdout + listed.stderr
    tests = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin_args()],
                           cwd=pack.root, env=env, capture_output=True, text=True, timeout=300)
    assert tests.returncode == 0, tests.stdout + tests.stderr
