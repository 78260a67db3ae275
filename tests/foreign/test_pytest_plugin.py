"""Foreign ops in a pack's test suite: ``op_checks(foreign_op, ...)`` gives one test per case,
with the same verdicts as ``opsdk check``."""
import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
# a child pytest that imports torch: seconds
pytestmark = [pytest.mark.torch, pytest.mark.slow]

# the child pytest of the plugin's own tests (the plugin loaded whether opsdk is installed or not)
from testing.test_pytest_plugin import _pytest  # noqa: E402

TEST_MODULE = '''
import torch
import opsdk
import opsdk.testing



class DoubleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.mul_(2)

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


SPEC = opsdk.TensorSpec(shape=(2, 3))
good = opsdk.foreign_op(torch.tanh, framework="torch", name="plug.tanh", inputs=[SPEC])
bad = opsdk.foreign_op(DoubleInPlace.apply, framework="torch", name="plug.double_in_place",
                       inputs=[SPEC])

test_foreign = opsdk.testing.op_checks(good, bad, dtype="float64",
                                       check=["gradcheck", "isolation"])
'''


def test_a_declaration_of_foreign_ops_gives_one_test_per_case(tmp_path):
    (tmp_path / "test_foreign_checks.py").write_text(TEST_MODULE)
    proc = _pytest(tmp_path, "-v", "test_foreign_checks.py")
    out = proc.stdout
    assert "tanh[python-float64-gradcheck] PASSED" in out, out
    assert "tanh[python-float64-isolation] PASSED" in out, out
    assert "double_in_place[python-float64-isolation] FAILED" in out, out
    assert "forward wrote into its input 'x' in place" in out
    assert proc.returncode == 1
