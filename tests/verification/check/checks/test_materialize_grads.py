from opsdk import TensorSpec

from ..helpers import verdict
from ..ops import X, SinCosNoneUnsafe, Square

V = [TensorSpec(shape=(4,))]


def test_backward_handling_missing_output_grads_passes(good_results):
    (result,) = [r for r in good_results if r.case_id == "goodpack.sincos[python-float64-materialize_grads]"]
    assert result.status == "pass"


def test_backward_assuming_every_output_grad_fails(pack):
    result = verdict(pack, SinCosNoneUnsafe, "materialize_grads", inputs=V)
    assert result.status == "fail"
    assert "set_materialize_grads(False)" in result.detail


def test_single_output_op_is_not_applicable(pack):
    assert verdict(pack, Square, "materialize_grads", inputs=X).status == "n/a"
