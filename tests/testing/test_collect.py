import pytest

from opsdk.verification.check.result import CheckResult
from opsdk.testing.collect import CheckFailed, _failure_text, _verdict


def _result(status, detail="why"):
    return CheckResult("p.op", "c", "float32", "gradcheck", status, detail=detail)


def test_pass_is_a_passing_test():
    _verdict(_result("pass"))


@pytest.mark.parametrize("status", ["fail", "error", "blocked"])
def test_failing_statuses_fail_the_test_with_the_report(status):
    with pytest.raises(CheckFailed) as info:
        _verdict(_result(status, "worst at [0]"))
    assert _failure_text(info.value.result) == f"{status.upper()} p.op[c-float32-gradcheck]\nworst at [0]"


def test_skip_and_not_applicable_skip_with_the_reason():
    with pytest.raises(pytest.skip.Exception, match="^no GPU$"):
        _verdict(_result("skip", "no GPU"))
    with pytest.raises(pytest.skip.Exception, match="not applicable: one output"):
        _verdict(_result("n/a", "one output"))
    with pytest.raises(pytest.skip.Exception, match="^gradcheck skipped on the c backend in float32 "):
        _verdict(_result("skip", ""))


def test_command_line_options_win_over_the_declaration():
    from opsdk.testing import op_checks
    from opsdk.testing.collect import settings

    declared = op_checks(pack="p", mode="fast", seed=5)
    assert settings(lambda name, default=None: default, declared) == ("fast", 5)
    assert settings(lambda name, default=None: default, op_checks(pack="p")) == ("full", 0)
    options = {"opsdk_full": True, "opsdk_seed": 9}
    assert settings(lambda name, default=None: options.get(name, default), declared) == ("full", 9)
    fast = {"opsdk_fast": True}
    assert settings(lambda name, default=None: fast.get(name, default),
                    op_checks(pack="p")) == ("fast", 0)
