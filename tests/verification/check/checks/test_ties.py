"""ties: a compiled backend gives python's integer outputs, outputs and gradients at exact ties
(the tie rule), unless the op declares ties='any'; python's gradient at a tie goes to the element
its index output names."""

from ..helpers import one_case


def _result(op, dtype="float32"):
    return one_case(f"reg.{op}", "c", dtype, "ties")


def test_a_kernel_taking_the_last_of_equal_values_is_reported_by_the_tie_rule(regimes):
    result = _result("rowmax_last_c")
    assert result.status == "fail"
    assert "ties: values repeated along the last axis" in result.detail
    assert "at exact ties (the tie rule: every backend resolves a tie as python does" in result.detail
    assert "output 1: 3 of 3 elements differ" in result.detail


def test_a_backward_routing_a_tie_elsewhere_is_reported_by_its_gradient(regimes):
    result = _result("rowmax_bwd_c", "float64")
    assert result.status == "fail" and "gradient of 'x' (argument 0)" in result.detail


def test_the_same_tie_rule_on_both_backends_passes_and_a_declared_any_compares_values(regimes):
    assert _result("rowmax").status == "pass"
    tolerant = _result("rowmax_any")
    assert tolerant.status == "pass" and "ties='any' declared" in tolerant.detail


def test_python_sending_the_gradient_to_every_tied_element_is_reported(regimes):
    result = one_case("reg.rowmax_grad_ties", "python", "float64", "ties")
    assert result.status == "fail"
    assert "with the tie broken in favour of the element the op picked" in result.detail


def test_python_routing_the_gradient_to_its_pick_passes(regimes):
    # rowmax's python backward uses its index output; rowmax_any declared the policy
    assert one_case("reg.rowmax", "python", "float64", "ties").status == "pass"
    assert one_case("reg.rowmax_any", "python", "float64", "ties").status == "n/a"
