"""Progress on stderr: a bar on a terminal, a plain line per finished op otherwise, or nothing."""
import io

from opsdk.verification.check.progress import progress
from opsdk.verification.check.result import CheckResult


def _r(op, status="pass"):
    return CheckResult(op, "python", "float64", "gradcheck", status)


def test_disabled_progress_is_a_silent_callback(capsys):
    with progress(10, enabled=False) as advance:
        advance(None)
    assert capsys.readouterr().err == ""


def test_not_a_terminal_gets_one_plain_line_per_finished_op():
    stream = io.StringIO()
    with progress(3, stream=stream) as advance:
        advance(_r("p.a"))
        advance(_r("p.a", "skip"))
        advance(_r("p.b", "fail"))
    lines = stream.getvalue().splitlines()
    assert [line.split(" (")[0] for line in lines] == ["[2/3] p.a: 1 passed, 1 skipped",
                                                       "[3/3] p.b: 0 passed, 1 failed"]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_a_bar_and_no_op_lines():
    stream = _Terminal()
    with progress(2, stream=stream) as advance:
        advance(_r("p.a"))
        advance(_r("p.b"))
    assert "checking" in stream.getvalue() and "2/2" in stream.getvalue()
    assert "passed" not in stream.getvalue()


def _case(op="p.a"):
    from types import SimpleNamespace

    return SimpleNamespace(op=SimpleNamespace(qualname=op), check="gradcheck", backend="c",
                           dtype="float32")


def test_a_long_op_says_what_it_is_checking_while_it_runs(monkeypatch):
    from opsdk.verification.check import progress as module

    monkeypatch.setattr(module, "HEARTBEAT", 0.0)
    stream = io.StringIO()
    with progress(2, stream=stream) as advance:
        advance.sample(_case(), 2, 12)
        advance(_r("p.a"))
    first = stream.getvalue().splitlines()[0]
    assert first.startswith("[0/2] p.a: still checking gradcheck (c, float32), sample 3 of 12 (")


def test_a_quick_op_gets_no_heartbeat_lines():
    stream = io.StringIO()
    with progress(1, stream=stream) as advance:
        advance.sample(_case(), 0, 3)
        advance(_r("p.a"))
    assert "still checking" not in stream.getvalue()


def test_the_bar_moves_within_a_case_naming_the_check_and_the_sample():
    stream = _Terminal()
    with progress(1, stream=stream) as advance:
        advance.sample(_case(), 4, 9)
    assert "p.a gradcheck (c, float32), sample 5 of 9" in stream.getvalue()


def test_the_runner_reports_each_sample_to_the_progress():
    from opsdk.verification.check.runner import run_checks

    seen = []

    def advance(result):
        pass

    advance.sample = lambda case, index, count: seen.append((case.check, index, count))
    from fixtures.packs import registered
    from opsdk.verification.check import plan_cases, select_ops

    with registered("good_pack", "goodpack"):
        ops, _ = select_ops(["goodpack.cube"])
        run_checks(plan_cases(ops, backends=["python"], dtypes=["float64"], checks=["forward",
                                                                                   "layout"]),
                   progress=advance)
    assert seen and all(check == "layout" for check, _, _ in seen)
    assert [index for _, index, _ in seen] == list(range(seen[0][2]))
