from opsdk.verification.check.render import check_times, render_table, summary_line, times_line
from opsdk.verification.check.result import CheckResult


def _r(status, check="gradcheck", backend="python", dtype="float64", detail="", worst=None):
    return CheckResult("p.op", backend, dtype, check, status, worst=worst, detail=detail)


def test_table_has_the_seven_columns_and_a_row_per_result():
    lines = render_table([_r("pass", worst=1.5e-7), _r("fail", check="forward", backend="c")]).splitlines()
    assert lines[0].split() == ["op", "backend", "dtype", "check", "result", "worst", "error", "time"]
    assert lines[2].split() == ["p.op", "python", "float64", "gradcheck", "pass", "1.50e-07", "0.00",
                                "s"]
    assert lines[3].split() == ["p.op", "c", "float64", "forward", "FAIL", "-", "0.00", "s"]


def test_time_per_check_sums_each_kind_over_ops_backends_and_dtypes():
    rows = [_r("pass"), _r("pass", backend="c"), _r("pass", check="sizes")]
    for row, seconds in zip(rows, (1.0, 2.0, 1.0)):
        row.seconds = seconds
    assert check_times(rows)[0][:3] == ("gradcheck", 3.0, 2)
    assert times_line(rows) == "time per check: gradcheck 3.0 s (75 %), sizes 1.0 s (25 %)"


def test_not_applicable_rows_are_left_out_of_the_table():
    assert "n/a" not in render_table([_r("pass"), _r("n/a", check="hooks")])


def test_backend_skipped_whole_is_one_row_with_the_reason():
    rows = [_r("skip", backend="cuda", check=c, detail="CuPy is not installed") for c in ("forward", "hooks")]
    lines = render_table(rows).splitlines()
    assert len(lines) == 3 and "skip (CuPy is not installed)" in lines[2] and " * " in lines[2]


def test_summary_line_counts_and_verdict():
    line = summary_line([_r("pass"), _r("fail"), _r("skip")], seconds=1.25)
    assert line == "FAILED: 1 op: 1 passed, 1 failed, 0 errors, 1 skipped, 0 n/a in 1.2 s"


def test_quiet_table_leaves_out_passing_rows():
    lines = render_table([_r("pass"), _r("fail", check="forward", backend="c")], quiet=True).splitlines()
    assert len(lines) == 3 and "FAIL" in lines[2]
