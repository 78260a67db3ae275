"""Check mode covers the op's own Functions: a numpy.empty buffer half filled in forward is named."""
from opsdk import TensorSpec

from .helpers import verdict
from .ops import Square
from .stateful_ops import HalfFilledRelu

KINKED = [TensorSpec(shape=(3, 4), avoid=(0.0,), min_distance=0.05)]


def test_a_function_that_leaves_elements_of_its_empty_buffer_unset_is_named(pack):
    result = verdict(pack, HalfFilledRelu, "forward", dtype="float32", inputs=KINKED)
    assert result.status == "fail"
    assert "HalfFilledRelu.forward (the op's Function) left" in result.detail
    assert "relying on the memory being zero" in result.detail


def test_the_function_is_unwrapped_again_after_the_case(pack):
    raw = HalfFilledRelu.__dict__["forward"]
    verdict(pack, HalfFilledRelu, "forward", dtype="float32", inputs=KINKED)
    assert HalfFilledRelu.__dict__["forward"] is raw


def test_a_function_that_fills_its_outputs_passes(pack):
    assert verdict(pack, Square, "forward", dtype="float32", inputs=KINKED).status == "pass"
