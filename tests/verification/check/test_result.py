from opsdk.verification.check.result import CheckResult, summarize


def _result(status):
    return CheckResult("p.op", "c", "float32", "gradcheck", status)


def test_case_id_reads_pack_op_backend_dtype_check():
    assert _result("pass").case_id == "p.op[c-float32-gradcheck]"


def test_fail_error_and_blocked_count_as_failed_and_the_rest_not():
    assert [_result(s).failed for s in ("fail", "error", "blocked", "pass", "skip", "n/a")] == \
        [True, True, True, False, False, False]


def test_summarize_counts_every_status():
    counts = summarize([_result("pass"), _result("pass"), _result("fail")])
    assert counts == {"pass": 2, "fail": 1, "error": 0, "blocked": 0, "skip": 0, "n/a": 0}
