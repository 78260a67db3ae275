from opsdk import TensorSpec

from ..helpers import verdict
from ..ops import Square
from ..stateful_ops import ReshapeWrites

X = [TensorSpec(shape=(3, 4))]


def test_an_op_indifferent_to_layout_passes(pack):
    result = verdict(pack, Square, "layout", inputs=X)
    assert result.status == "pass" and result.samples == 3  # transposed, strided, negative


def test_a_write_through_reshape_is_caught_on_a_transposed_input(pack):
    result = verdict(pack, ReshapeWrites, "layout", inputs=X)
    assert result.status == "fail"
    assert "-- sample 0, transposed" in result.detail
    assert "gives other results for transposed inputs than for contiguous ones" in result.detail
