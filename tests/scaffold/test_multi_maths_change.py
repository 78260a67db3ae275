"""Changing a generated multi op's maths takes its documented places only (forward, backward and
their per-element statements; the reference is forward on Tensors): the generated tests and
`opsdk check` (CUDA on the simulator) then follow the new maths, and a change made in Python
alone fails them on the C backend."""
import pytest

from .maths_edits import only_c_failed, rewrite

pytestmark = pytest.mark.slow  # child pytest runs, C compiles and simulated CUDA of a generated pack (~1 min)

# LLTM's cell as generated, its candidate cell made linear (gate_c instead of tanh(gate_c)) in each place
PYTHON = {
    "new_cell = old_cell + m.sigmoid(gate_i) * m.tanh(gate_c)": "new_cell = old_cell + m.sigmoid(gate_i) * gate_c",
    "m.tanh(gate_c), m.tanh(new_cell)": "gate_c, m.tanh(new_cell)",
    "d * i * (1 - c * c), d\n": "d * i, d\n",
}
STATEMENTS = {
    "new_cell = old_cell + sigmoid(gate_i) * tanh(gate_c)\n": "new_cell = old_cell + sigmoid(gate_i) * gate_c\n",
    "T c = tanh(gate_c)": "T c = gate_c",
    "dgate_c = d * i * (1 - c * c)": "dgate_c = d * i",
}
MULTI = ["--kind", "multi", "--backend", "c", "--backend", "cuda"]


def test_new_maths_in_the_documented_places_passes_the_generated_tests_and_the_checks(generated_pack):
    pack = generated_pack("multich", {"cell": MULTI})
    rewrite(pack.root / "src" / "multich" / "ops" / "cell.py", {**PYTHON, **STATEMENTS})
    pack.install()
    tests = pack.pytest("tests/ops/test_cell.py", "tests/test_checks.py")
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert "test_outputs_match_the_reference[c-float64] PASSED" in tests.stdout
    checked = pack.run("-m", "opsdk.cli", "check", "multich.cell", "--simulate", timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert " 0 failed, 0 errors, 0 skipped" in checked.stdout, checked.stdout


def test_new_maths_in_python_alone_fails_the_c_backend(generated_pack):
    pack = generated_pack("multipy", {"cell": MULTI[:-2]})  # C only: CUDA's tests would fail as well
    rewrite(pack.root / "src" / "multipy" / "ops" / "cell.py", PYTHON)
    tests = pack.pytest("tests/ops/test_cell.py")
    assert tests.returncode == 1
    # the C kernels still compute LLTM's cell: every C test fails, every python one passes
    assert only_c_failed(tests.stdout), tests.stdout[-4000:]
    assert "test_outputs_match_the_reference[python-float64] PASSED" in tests.stdout
