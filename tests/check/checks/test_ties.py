"""ties: a compiled backend gives python's integer outputs, outputs and gradients at exact ties
(the tie rule), unless the op declares ties='any'."""
from opsdk.check import plan_cases, select_ops

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


def test_python_is_the_reference_of_the_rule_so_it_has_no_ties_check(regimes):
    ops, _ = select_ops(["reg.rowmax"])
    assert not plan_cases(ops, backends=["python"], checks=["ties"])
