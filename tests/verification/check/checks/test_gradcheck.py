from ..helpers import verdict
from ..ops import X, IndexOnly, Square, SquareTwiceWrong
from opsdk import TensorSpec


def test_right_backward_passes(pack):
    assert verdict(pack, Square, "gradcheck", inputs=X).status == "pass"


def test_wrong_backward_fails_with_the_report_naming_the_argument(pack):
    result = verdict(pack, SquareTwiceWrong, "gradcheck", inputs=X)
    assert result.status == "fail"
    assert "d x[" in result.detail  # the report names the forward argument, not inputs[0]
    assert result.worst > 0.1


def test_float32_wrong_backward_fails_too(pack):
    assert verdict(pack, SquareTwiceWrong, "gradcheck", dtype="float32", inputs=X).status == "fail"


def test_sample_without_differentiable_input_is_not_applicable(pack):
    result = verdict(pack, IndexOnly, "gradcheck", inputs=[TensorSpec(shape=(3,), integer=True, high=5)])
    assert result.status == "n/a"
