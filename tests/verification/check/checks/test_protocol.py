from ..helpers import verdict
from ..ops import X, Square, TooManyGrads


def test_well_formed_backward_passes(pack):
    assert verdict(pack, Square, "protocol", inputs=X).status == "pass"


def test_wrong_gradient_count_fails_naming_both_counts(pack):
    result = verdict(pack, TooManyGrads, "protocol", inputs=X)
    assert result.status == "fail"
    assert "returned 2 gradient(s); expected: 1" in result.detail


def test_wrong_dtype_fails_naming_the_argument(bad_results):
    (result,) = [r for r in bad_results if r.case_id == "badpack.wrong_dtype[python-float32-protocol]"]
    assert result.status == "fail"
    assert "gradient of 'x' (argument 0): wrong dtype; expected: float32; got: float64" in result.detail
