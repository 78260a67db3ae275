import opsdk
from opsdk import TensorSpec

from ..helpers import verdict
from ..stateful_ops import Cube, CubeWrongConstant

X = [TensorSpec(shape=(3, 4))]


def test_an_op_agreeing_with_its_reference_passes_to_second_order(pack):
    result = verdict(pack, Cube, "reference", inputs=X, reference=lambda x: x * x * x,
                     double_backward=True)
    assert result.status == "pass"


def test_a_consistent_wrong_constant_passes_gradcheck(pack):
    result = verdict(pack, CubeWrongConstant, "gradcheck", inputs=X, reference=lambda x: x * x * x)
    assert result.status == "pass"


def test_a_consistent_wrong_constant_only_the_reference_sees(pack):
    result = verdict(pack, CubeWrongConstant, "reference", dtype="float32", inputs=X,
                     reference=lambda x: x * x * x)
    assert result.status == "fail" and "disagrees with its reference" in result.detail


def test_no_reference_no_check(pack):
    from opsdk.verification.check import plan_cases, select_ops

    pack("unitpack", lambda register: register(Cube, name="c", inputs=X))
    ops, _ = select_ops(["unitpack.c"])
    assert "reference" not in {c.check for c in plan_cases(ops)}
    assert opsdk  # the reference functions above are written with core opsdk ops
