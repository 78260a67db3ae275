"""accumulation: a compiled float32 kernel summing a long row in float is reported; one summing
in double, or declaring accumulation='dtype', is not."""
from opsdk.verification.check import plan_cases, select_ops

from ..helpers import one_case


def _result(op):
    return one_case(f"reg.{op}", "c", "float32", "accumulation")


def test_a_float_accumulator_is_reported_with_its_growth_and_numpy_s_error(regimes):
    result = _result("rowsum_acc_c")
    assert result.status == "fail"
    assert "on c (float32) accumulates in float32: output 0 errs by" in result.detail
    assert "at a row of 65539 (NumPy's float32 computation of the same maths:" in result.detail
    assert "at a row of 4099 it errs by" in result.detail


def test_a_double_accumulator_passes_and_a_declared_float_one_is_noted(regimes):
    assert _result("rowsum").status == "pass"
    declared = _result("rowsum_f32")
    assert declared.status == "pass"
    assert "declared accumulation='dtype': reg.rowsum_f32 on c (float32) accumulates" in \
        " ".join(declared.detail.split())


def test_only_float32_and_float16_runs_have_it(regimes):
    ops, _ = select_ops(["reg.rowsum"])
    assert [c.dtype for c in plan_cases(ops, backends=["c"], checks=["accumulation"])] == \
        ["float32"]
