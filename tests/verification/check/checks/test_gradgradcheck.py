from ..helpers import verdict
from ..ops import X, Square, SquareWrongSecond


def test_right_second_derivative_passes(pack):
    assert verdict(pack, Square, "gradgradcheck", inputs=X, double_backward=True).status == "pass"


def test_wrong_second_derivative_fails(pack):
    result = verdict(pack, SquareWrongSecond, "gradgradcheck", inputs=X, double_backward=True)
    assert result.status == "fail"
    assert "gradgradcheck failed" in result.detail
