"""Changing a generated elementwise op's maths takes its documented places only (value, grad,
grad2, their C bodies, the reference they give): the generated tests and `opsdk check` then
follow the new maths, and a change made in Python alone fails them, naming the C backend."""
import pytest

from .maths_edits import only_c_failed, rewrite

pytestmark = pytest.mark.slow  # child pytest runs and C compiles of a generated pack (~1 min)

SOFTPLUS = {  # the places new-op's example maths sits, as generated
    "def value(m, x, *, beta):\n    return m.softplus(beta * x) / beta":
        "def value(m, x, *, beta):\n    return x * m.sigmoid(beta * x)",
    "def grad(m, x, *, beta):\n    return (m.sigmoid(beta * x),)":
        "def grad(m, x, *, beta):\n    s = m.sigmoid(beta * x)\n    return (s * (1 + beta * x * (1 - s)),)",
    "    s = m.sigmoid(beta * x)\n    return (s,), ((beta * s * m.sigmoid(-beta * x),),)":
        "    s = m.sigmoid(beta * x)\n    ds = beta * s * (1 - s)\n"
        "    return (s + x * ds,), ((ds * (2 + beta * x * (1 - 2 * s)),),)",
}
C_BODIES = {
    'value="softplus(beta * x) / beta"': 'value="x * sigmoid(beta * x)"',
    'grad="sigmoid(beta * x)"': 'grad="T s = sigmoid(beta * x); return s * (1 + beta * x * (1 - s));"',
    'grad2="beta * sigmoid(beta * x) * sigmoid(-beta * x)"':
        'grad2="T s = sigmoid(beta * x); return beta * s * (1 - s) * (2 + beta * x * (1 - 2 * s));"',
}


def test_new_maths_in_the_documented_places_passes_the_generated_tests_and_the_checks(generated_pack):
    pack = generated_pack("mathsch", {"swishy": ("c",)})
    rewrite(pack.root / "src" / "mathsch" / "ops" / "swishy.py", {**SOFTPLUS, **C_BODIES})
    pack.install()
    tests = pack.pytest("tests/ops/test_swishy.py", "tests/test_checks.py")
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    checked = pack.run("-m", "opsdk.cli", "check", "mathsch.swishy")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_new_maths_in_python_alone_fails_the_c_backend(generated_pack):
    pack = generated_pack("mathspy", {"swishy": ("c",)})
    rewrite(pack.root / "src" / "mathspy" / "ops" / "swishy.py", SOFTPLUS)
    tests = pack.pytest("tests/ops/test_swishy.py")
    assert tests.returncode == 1
    # the C kernels still compute softplus: every C test fails, every python one passes
    assert only_c_failed(tests.stdout), tests.stdout[-4000:]
    assert "python" in tests.stdout and "PASSED" in tests.stdout
