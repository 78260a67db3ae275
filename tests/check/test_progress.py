"""Progress on stderr: a bar on a terminal, a plain line per finished op otherwise, or nothing."""
import io

from opsdk.check.progress import progress
from opsdk.check.result import CheckResult


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
