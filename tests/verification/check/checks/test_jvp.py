"""The jvp check: an op's own jvp (or the one derived from its double backward) verified, and the
adversarial pack's three planted jvp bugs caught with their cause named."""
import pytest

from verification.check.adversarial.expected import BUGS
from verification.check.adversarial.pack import module, registered

from ..helpers import one_case, verdict
from ..ops import X, Square


def test_a_derived_jvp_passes_on_a_correct_double_backward_op(pack):
    assert verdict(pack, Square, "jvp", inputs=X, double_backward=True).status == "pass"


def test_an_op_with_neither_jvp_nor_double_backward_gets_no_jvp_check(pack):
    from opsdk.verification.check import plan_cases, select_ops

    pack("unitpack", lambda register: register(Square, name="first_order", inputs=X))
    ops, _ = select_ops(["unitpack.first_order"])
    assert plan_cases(ops, backends=["python"], dtypes=["float64"], checks=["jvp"]) == []


@pytest.mark.parametrize("name", ["jvp_missing_term", "jvp_default_attr", "jvp_drops_input"])
def test_each_planted_jvp_bug_is_caught_with_its_cause(name):
    _, check, words = BUGS[name]
    module("bugs_forward")
    with registered():
        ops = _failures(f"adv.{name}", check)
    assert any(words in r.detail for r in ops), "\n".join(r.detail for r in ops)


def test_a_correct_own_jvp_with_second_order_passes():
    module("bugs_forward")
    with registered():
        assert _failures("adv.jvp_correct", "jvp") == []


def _failures(name, check):
    from opsdk.verification.check import plan_cases, run_case, select_ops

    ops, _ = select_ops([name])
    cases = plan_cases(ops, backends=["python"], dtypes=["float64"], checks=[check])
    return [r for r in (run_case(c) for c in cases) if r.status != "pass"
            and r.status != "n/a" and r.status != "skip"]
