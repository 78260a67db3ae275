from ..helpers import verdict
from ..ops import X, Square, Stateful


def test_gradients_accumulate_over_two_backward_calls(pack):
    assert verdict(pack, Square, "accumulate", inputs=X).status == "pass"


def test_backward_that_changes_between_calls_fails(pack):
    result = verdict(pack, Stateful, "accumulate", inputs=X)
    assert result.status == "fail"
    assert "not twice the first" in result.detail
