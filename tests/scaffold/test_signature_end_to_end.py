"""`new-op --signature` end to end: fresh packs pass their generated tests and `opsdk check` (CUDA
on the simulator) as generated, and changing the maths in the kernels and the reference only is
all a change of maths takes."""
import pytest

from .test_kinds_end_to_end import passed

pytestmark = pytest.mark.slow  # child pytest runs, C compiles and simulated CUDA (~1-2 min each)

SHAPES = {  # the shapes issue 24 met: a per-channel axis, integer outputs, a size attribute, ...
    "chan": "x: float[N, C, L], bias: float[C] -> y: float[N, C, L], index: int64[N]; alpha: float = 0.5",
    "nearest": "x: float[N, D], centers: float[K, D] -> dist: float[N], index: int64[N]",
    "scatter": "dy: float[R, W], index: int64[R] -> table: float[K, W]; K: int = 5",
    "loss": "x: float[N, 3] -> loss: float[]",
    "perm": "x: float[C, N] -> y: float[N, C, 2], pos: int64[N], sign: int64[C, N]",
}


@pytest.mark.parametrize("op", sorted(SHAPES))
def test_a_skeleton_passes_its_tests_and_opsdk_check_as_generated(generated_pack, op):
    pack = generated_pack(f"sig_{op}", {op: ["--signature", SHAPES[op], "--backend", "c", "--backend", "cuda"]})
    pack.install()
    tests = pack.pytest()
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]
    assert passed(tests.stdout, f"tests/ops/test_{op}.py::test_outputs_match_the_reference[c-float64]")
    assert passed(tests.stdout, f"{op}[c-float64-gradcheck]")
    checked = pack.run("-m", "opsdk.cli", "check", "--pack", pack.name, "--simulate", timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert " 0 failed, 0 errors, 0 skipped" in checked.stdout, checked.stdout


# the placeholder of "chan" as generated (python only), and new maths: y = alpha * (sin(x) + sin(bias)),
# index = argmin of x over C, L
NEW_MATHS = {
    "t_x, t_bias = xp.tanh(x), xp.tanh(bias)\n    y =": "t_x, t_bias = xp.sin(x), xp.sin(bias)\n    y =",
    "index = x.reshape(N, C * L).argmax(axis=1)": "index = x.reshape(N, C * L).argmin(axis=1)",
    "d_x = alpha * (1 - t_x * t_x) * d_y": "d_x = alpha * xp.cos(x) * d_y",
    "d_bias = alpha * (1 - t_bias * t_bias) * d_y.sum(axis=(0, 2))": "d_bias = alpha * xp.cos(bias) * d_y.sum(axis=(0, 2))",
    "t_x, t_bias = opsdk.tanh(x), opsdk.tanh(bias)": "t_x, t_bias = opsdk.sin(x), opsdk.sin(bias)",
    'index = x.reshape([N, C * L]).argmax(axis=1)': 'index = x.reshape([N, C * L]).argmin(axis=1)',
}


def _rewrite(path, replacements):
    text = path.read_text()
    for old, new in replacements.items():
        assert text.count(old) == 1, f"the generated op no longer has {old!r} once: update this test"
        text = text.replace(old, new)
    path.write_text(text)


def test_new_maths_in_the_kernels_and_the_reference_passes_the_tests_and_the_checks(generated_pack):
    pack = generated_pack("sigmaths", {"chan": ["--signature", SHAPES["chan"]]})
    # the backward python kernel also has "xp.tanh(x), xp.tanh(bias)": rewritten with its gradients
    path = pack.root / "src" / "sigmaths" / "ops" / "chan.py"
    path.write_text(path.read_text().replace("    t_x, t_bias = xp.tanh(x), xp.tanh(bias)\n    d_x", "    d_x"))
    _rewrite(path, NEW_MATHS)
    pack.install()
    tests = pack.pytest()
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]
    checked = pack.run("-m", "opsdk.cli", "check", "sigmaths.chan")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_new_maths_in_the_kernels_alone_fails_against_the_reference(generated_pack):
    pack = generated_pack("sighalf", {"chan": ["--signature", SHAPES["chan"]]})
    kernels_only = {k: v for k, v in NEW_MATHS.items() if "opsdk." not in k and "[N, C * L]" not in k}
    _rewrite(pack.root / "src" / "sighalf" / "ops" / "chan.py", kernels_only)
    pack.install()
    tests = pack.pytest("tests/ops/test_chan.py")
    assert tests.returncode == 1
    assert "FAILED tests/ops/test_chan.py::test_outputs_match_the_reference[python-float64]" in tests.stdout
