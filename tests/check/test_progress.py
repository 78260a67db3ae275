import io

from opsdk.check.progress import progress


def test_disabled_progress_is_a_silent_callback(capsys):
    with progress(10, enabled=False) as advance:
        advance(None)
    assert capsys.readouterr().err == ""


def test_progress_stays_off_when_stderr_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr("sys.stderr", io.StringIO())
    with progress(10) as advance:
        advance(None)
    import sys

    assert sys.stderr.getvalue() == ""
