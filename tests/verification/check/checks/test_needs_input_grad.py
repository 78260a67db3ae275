from ..helpers import verdict
from ..ops import X, XY, Product, ProductMisreadsNeeds, Square


def test_backward_honouring_needs_input_grad_passes(pack):
    assert verdict(pack, Product, "needs_input_grad", inputs=XY).status == "pass"


def test_backward_misreading_needs_input_grad_fails(pack):
    result = verdict(pack, ProductMisreadsNeeds, "needs_input_grad", inputs=XY)
    assert result.status == "fail"
    assert "'y' (argument 1) alone" in result.detail


def test_single_input_op_is_not_applicable(pack):
    assert verdict(pack, Square, "needs_input_grad", inputs=X).status == "n/a"
