from ..helpers import verdict
from ..ops import X, GraphUnderNoGrad, Square


def test_op_under_no_grad_records_no_graph(pack):
    assert verdict(pack, Square, "no_grad", inputs=X).status == "pass"


def test_forward_building_a_graph_under_no_grad_fails(pack):
    result = verdict(pack, GraphUnderNoGrad, "no_grad", inputs=X)
    assert result.status == "fail"
    assert "still record a graph" in result.detail
