from opsdk import TensorSpec

from ..adversarial.pack import module
from ..helpers import verdict

NanAtZero = module("bugs_points").TanhXNan0
Sqrt = module("correct").Sqrt
Exp32Overflow = module("bugs_points").SoftplusOverflow


def test_a_nan_gradient_where_the_derivative_exists_fails(pack):
    result = verdict(pack, NanAtZero, "special_points", inputs=[TensorSpec(shape=(2, 3))])
    assert result.status == "fail" and "the gradient of 'x' is nan at" in result.detail
    assert "(float64 central differences: 0)" in result.detail


def test_an_infinite_derivative_at_the_domain_end_is_no_failure(pack):
    spec = [TensorSpec(shape=(2, 3), domain=(0.0, 4.0), avoid=(0.0,), min_distance=0.05)]
    assert verdict(pack, Sqrt, "special_points", inputs=spec).status == "pass"


def test_a_float32_overflow_at_the_domain_end_is_found_on_every_seed(pack):
    spec = [TensorSpec(shape=(2, 3), domain=(-5.0, 100.0))]
    result = verdict(pack, Exp32Overflow, "special_points", dtype="float32", inputs=spec)
    assert result.status == "fail"
    assert "is inf in float32 where python in float64 gives 100" in result.detail


def test_a_nan_at_the_edge_of_the_domain_with_a_finite_one_sided_limit_fails(pack):
    from ..adversarial_outsider.pack import module as outsider

    spec = [TensorSpec(shape=(3, 4), domain=(0.0, 3.0))]
    result = verdict(pack, outsider("edge_bugs").XLogXNan, "special_points", inputs=spec)
    assert result.status == "fail" and "at the edge of the domain" in result.detail


def test_the_same_op_with_the_point_handled_passes(pack):
    from ..adversarial_outsider.pack import module as outsider

    spec = [TensorSpec(shape=(3, 4), domain=(0.0, 3.0))]
    assert verdict(pack, outsider("good").XLogX, "special_points", inputs=spec).status == "pass"
