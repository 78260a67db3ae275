from ..helpers import verdict
from ..ops import X, Square


def test_second_backward_through_freed_graph_raises_the_retain_graph_error(pack):
    assert verdict(pack, Square, "retain_graph", inputs=X).status == "pass"
