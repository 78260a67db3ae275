"""Every --kind and --formula end to end: a fresh pack with the op passes its tests and opsdk check.

The packs are installed the way `pip install -e` leaves them (an entry point and src/ on the
path); the slow tests run `pip install -e .` itself, in a virtual environment, as a user would.
"""
import importlib.util
import subprocess

import pytest

from opsdk.kernels import compiler_info, find_nvcc

from .conftest import plugin_args

MISH = ["--formula", "x * tanh(log(1 + exp(x)))", "--backend", "c", "--backend", "cuda"]
GAUSS = ["--input", "x", "--input", "y", "--attr", "alpha=0.5", "--formula", "x * exp(-alpha * y * y)",
         "--backend", "c", "--backend", "cuda"]
CASES = {
    "multi": ["--kind", "multi", "--backend", "c", "--backend", "cuda"],
    "rows": ["--kind", "rows", "--backend", "c", "--backend", "cuda"],
    "softplus": ["--kind", "elementwise", "--backend", "c", "--backend", "cuda"],
    "mish": MISH,
    "gauss": GAUSS,
}


FORMULAS = {"mish", "gauss"}
NEEDS_SYMPY = pytest.mark.skipif(importlib.util.find_spec("sympy") is None,
                                 reason="--formula needs SymPy: pip install 'opsdk[formula]'")


# the default suite generates, tests and checks one kind end to end (10-25 s each); the full
# verification does every kind
DEFAULT_CASE = "softplus"


def cases(names):
    """The cases as pytest params; the formula ones skipped, with the reason, where SymPy is absent;
    all but DEFAULT_CASE marked slow."""
    return [pytest.param(name, marks=([NEEDS_SYMPY] if name in FORMULAS else [])
                         + ([] if name == DEFAULT_CASE else [pytest.mark.slow])) for name in names]


def passed(stdout, test):
    return f"{test} PASSED" in stdout


def assert_checks_pass(pack, op):
    tests = pack.pytest()
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert " FAILED" not in tests.stdout and " ERROR" not in tests.stdout
    backends = ["python"] + (["c"] if compiler_info().available else [])
    for backend in backends:
        assert passed(tests.stdout, f"{op}[{backend}-float64-gradcheck]")
        assert passed(tests.stdout, f"{op}[{backend}-float64-gradgradcheck]")  # every kind has a second order
    nvcc = f"tests/ops/test_{op}.py::test_cuda_source_compiles_with_nvcc"
    assert f"{nvcc} {'PASSED' if find_nvcc() else 'SKIPPED'}" in tests.stdout
    checked = pack.run("-m", "opsdk.cli", "check", "--pack", pack.name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return tests


@pytest.mark.parametrize("case", cases(sorted(CASES)))
def test_each_kind_and_formula_passes_its_tests_and_opsdk_check_as_generated(generated_pack, case):
    pack = generated_pack(f"k_{case}", {case: CASES[case]})
    pack.install()
    tests = assert_checks_pass(pack, case)
    if case == "multi":  # its CUDA kernels, written by the SDK from its statements, run on the simulator
        checked = pack.run("-m", "opsdk.cli", "check", "--pack", pack.name, "--backend", "cuda", "--simulate",
                           timeout=600)
        assert checked.returncode == 0 and " 0 failed, 0 errors, 0 skipped" in checked.stdout, \
            checked.stdout + checked.stderr
    if case in ("mish", "gauss"):
        assert passed(tests.stdout, f"tests/ops/test_{case}.py::test_third_derivative_matches_sympy[0]")


@pytest.mark.parametrize("case", [pytest.param("mish", marks=NEEDS_SYMPY),
                                  pytest.param("gauss", marks=[NEEDS_SYMPY, pytest.mark.slow]), "multi"])
def test_a_formula_or_multi_op_is_at_most_60_non_blank_lines_in_all_its_files(generated_pack, case):
    # issue 24's measure: every file of the op a pack author owns (its kernels are written by
    # the SDK from the module's C bodies or statements, so the module is all of it), tests excluded
    pack = generated_pack(f"lines_{case}", {case: CASES[case]})
    ops = pack.root / "src" / pack.name / "ops"
    files = [p for p in ops.iterdir() if p.stem == case]
    assert [p.name for p in files] == [f"{case}.py"]
    assert sum(1 for line in files[0].read_text().splitlines() if line.strip()) <= 60


def test_the_hand_written_example_is_at_most_half_the_old_one(generated_pack):
    pack = generated_pack("lines_example", {"smooth": ("c", "cuda")})
    module = pack.root / "src" / pack.name / "ops" / "smooth.py"
    assert len(module.read_text().splitlines()) <= 170 // 2  # the example before opsdk.kernels.elementwise


@NEEDS_SYMPY
@pytest.mark.slow
def test_two_input_formula_ops_broadcast(generated_pack):
    pack = generated_pack("k_broadcast", {"gauss": GAUSS})
    pack.install()
    tests = pack.pytest("-k", "broadcast")
    assert passed(tests.stdout, "tests/ops/test_gauss.py::test_inputs_broadcast"), tests.stdout


def pip_cases():
    """Every case, installed with pip (the full verification: a venv and a pip install each)."""
    return [pytest.param(name, marks=[NEEDS_SYMPY] if name in FORMULAS else []) for name in sorted(CASES)]


@pytest.mark.slow
@pytest.mark.parametrize("case", pip_cases())
def test_pip_install_e_then_pytest_and_opsdk_check(generated_pack, tmp_path, case):
    """The acceptance commands: new-pack, new-op, `pip install -e .`, `pytest`, `opsdk check`."""
    pack = generated_pack(f"pip_{case}", {case: CASES[case]})
    python, env = pack.pip_install_editable(tmp_path / "venv")
    tests = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin_args()],
                           cwd=pack.root, env=env, capture_output=True, text=True, timeout=600)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    checked = subprocess.run([python, "-m", "opsdk.cli", "check"], cwd=pack.root, env=env,
                             capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"pip_{case}.{case}" in checked.stdout
