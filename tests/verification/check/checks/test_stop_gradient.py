from ..helpers import verdict
from ..ops import X, XY, HiddenParameter, Product, Square


def test_stopped_input_gets_no_gradient(pack):
    assert verdict(pack, Product, "stop_gradient", inputs=XY).status == "pass"


def test_op_with_its_only_input_stopped_records_no_graph(pack):
    assert verdict(pack, Square, "stop_gradient", inputs=X).status == "pass"


def test_output_needing_grad_although_the_input_is_stopped_fails(pack):
    result = verdict(pack, HiddenParameter, "stop_gradient", inputs=X)
    assert result.status == "fail"
    assert "still need a gradient" in result.detail
