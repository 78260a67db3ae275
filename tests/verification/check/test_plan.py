import pytest

from fixtures.packs import registered
from opsdk.verification.check import plan_cases, select_ops
from opsdk.errors import OpArgumentError


@pytest.fixture(scope="module")
def ops():
    with registered("good_pack", "goodpack"):
        yield {op.name: op for op in select_ops(packs=["goodpack"])[0]}


def _checks(cases, backend="python", dtype="float64"):
    return [c.check for c in cases if c.backend == backend and c.dtype == dtype]


def test_python_in_float64_is_the_reference_and_gets_no_agreement_checks(ops):
    checks = _checks(plan_cases([ops["cube"]]))
    assert "forward" not in checks and "backward_agreement" not in checks


def test_python_in_float32_is_compared_with_python_in_float64(ops):
    checks = _checks(plan_cases([ops["cube"]]), dtype="float32")
    assert "forward" in checks and "backward_agreement" in checks


def test_c_backend_gets_the_agreement_checks(ops):
    checks = _checks(plan_cases([ops["cube"]]), backend="c")
    assert checks[:2] == ["forward", "gradcheck"] and "backward_agreement" in checks


def test_claimed_double_backward_gets_gradgradcheck_else_the_refusal_check(ops):
    assert "gradgradcheck" in _checks(plan_cases([ops["mul"]]))
    assert "double_backward_error" not in _checks(plan_cases([ops["mul"]]))
    assert "double_backward_error" in _checks(plan_cases([ops["cube"]]))


def test_filters_limit_backends_dtypes_and_checks(ops):
    cases = plan_cases([ops["cube"]], backends=["c"], dtypes=["float32"], checks=["forward"])
    assert [c.case_id for c in cases] == ["goodpack.cube[c-float32-forward]"]


def test_unknown_check_name_is_an_error(ops):
    with pytest.raises(OpArgumentError, match="gradchek"):
        plan_cases([ops["cube"]], checks=["gradchek"])
