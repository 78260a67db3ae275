"""The text report: a line per op with the passes folded, failures in full, the summary last."""
from opsdk.verification.check.render import render_report
from opsdk.verification.check.result import CheckResult


def _r(status, op="p.op", check="gradcheck", backend="python", dtype="float64", detail="", worst=None):
    return CheckResult(op, backend, dtype, check, status, worst=worst, detail=detail, seconds=0.5)


def test_passing_op_is_one_line_with_its_counts():
    report = render_report([_r("pass"), _r("pass", check="forward"), _r("n/a", check="hooks")])
    first, *_ = report.splitlines()
    assert first.split()[:2] == ["ok", "p.op"]
    assert "2 passed" in first and "1 n/a" in first and "(1.5 s)" in first


def test_skips_are_counted_with_their_reason_and_backend():
    report = render_report([_r("pass"), *(_r("skip", backend="cuda", check=c, detail="CuPy is not installed\nmore")
                                          for c in ("forward", "hooks"))])
    assert "2 skipped (cuda: CuPy is not installed)" in report.splitlines()[0]


def test_failure_is_shown_in_full_under_its_op_with_the_worst_error():
    report = render_report([_r("pass"), _r("fail", detail="worst at [0]\nreplay: opsdk check p.op", worst=0.5)])
    lines = report.splitlines()
    assert lines[0].startswith("FAIL  p.op  1 passed, 1 failed")
    assert lines[1] == "  FAIL p.op[python-float64-gradcheck]  (worst error 5.00e-01)"
    assert lines[2:4] == ["      worst at [0]", "      replay: opsdk check p.op"]


def test_summary_line_comes_last():
    report = render_report([_r("pass"), _r("fail", op="q.op")], seconds=2.0)
    assert report.splitlines()[-1] == "FAILED: 2 ops: 1 passed, 1 failed, 0 errors, 0 skipped, 0 n/a in 2.0 s"


def test_quiet_leaves_out_ops_that_passed():
    report = render_report([_r("pass"), _r("fail", op="q.op")], quiet=True)
    assert "p.op" not in report and "q.op" in report


def test_verbose_is_the_table_then_the_failures():
    report = render_report([_r("pass"), _r("fail", check="forward", detail="off by one")], verbose=True)
    lines = report.splitlines()
    assert lines[0].split()[:2] == ["op", "backend"]
    assert "FAIL p.op[python-float64-forward]" in report and "    off by one" in report


def test_a_pack_that_failed_to_load_is_shown_in_full():
    load = CheckResult("brokenpack", "-", "-", "load", "fail", detail="ImportError: no module")
    report = render_report([load])
    assert report.splitlines()[:2] == ["FAIL pack brokenpack failed to load", "    ImportError: no module"]


def test_loosened_checks_are_counted_when_the_runner_marks_them():
    loosened = _r("pass")
    loosened.loosened = True  # a field the runner may set; rendered whenever present
    assert "1 loosened" in render_report([loosened, _r("pass", check="forward")]).splitlines()[0]
