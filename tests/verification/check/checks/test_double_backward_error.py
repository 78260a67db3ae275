from ..helpers import verdict
from ..ops import X, Square, SquareRaw, SquareWrongSecond


def test_first_order_only_op_refusing_with_the_clear_error_passes(pack):
    result = verdict(pack, SquareRaw, "double_backward_error", inputs=X)
    assert result.status == "pass"
    assert "DoubleBackwardError" in result.detail


def test_unclaimed_but_right_second_derivative_passes_with_a_hint_to_claim_it(pack):
    result = verdict(pack, Square, "double_backward_error", inputs=X)
    assert result.status == "pass"
    assert "double_backward=True" in result.detail


def test_unclaimed_silently_wrong_second_derivative_fails(pack):
    result = verdict(pack, SquareWrongSecond, "double_backward_error", inputs=X)
    assert result.status == "fail"
    assert "wrong result instead of an error" in result.detail
