"""Changing a generated rows op's maths takes its documented places only (forward, backward and
their row statements; the reference is forward on Tensors): the generated tests and `opsdk check`
then follow the new maths, and a change made in Python alone fails them on the C backend."""
import pytest

from .maths_edits import only_c_failed, rewrite

pytestmark = pytest.mark.slow  # child pytest runs and C compiles of a generated pack (~1 min)

# RMSNorm as generated, made an L2 normalisation (sum instead of mean) in each place
PYTHON = {
    "rstd = 1 / m.sqrt(m.row_mean(x * x) + eps)": "rstd = 1 / m.sqrt(m.row_sum(x * x) + eps)",
    "return rstd * (g - xhat * m.row_mean(g * xhat)), m.col_sum(dy * xhat)":
        "return rstd * (g - xhat * m.row_sum(g * xhat)), m.col_sum(dy * xhat)",
}
STATEMENTS = {
    "rstd = 1 / sqrt(ss / K + eps)": "rstd = 1 / sqrt(ss + eps)",
    "T c = dot / K * rstd * rstd": "T c = dot * rstd * rstd",
}
ROWS = ["--kind", "rows", "--backend", "c"]


def test_new_maths_in_the_documented_places_passes_the_generated_tests_and_the_checks(generated_pack):
    pack = generated_pack("rowsch", {"l2norm": ROWS})
    rewrite(pack.root / "src" / "rowsch" / "ops" / "l2norm.py", {**PYTHON, **STATEMENTS})
    pack.install()
    tests = pack.pytest("tests/ops/test_l2norm.py", "tests/test_checks.py")
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    checked = pack.run("-m", "opsdk.cli", "check", "rowsch.l2norm")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_new_maths_in_python_alone_fails_the_c_backend(generated_pack):
    pack = generated_pack("rowspy", {"l2norm": ROWS})
    rewrite(pack.root / "src" / "rowspy" / "ops" / "l2norm.py", PYTHON)
    tests = pack.pytest("tests/ops/test_l2norm.py")
    assert tests.returncode == 1
    # the C kernels still compute RMSNorm: every C test fails, every python one passes
    assert only_c_failed(tests.stdout), tests.stdout[-4000:]
    assert "PASSED" in tests.stdout
