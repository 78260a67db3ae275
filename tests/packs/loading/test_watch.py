"""The verdict on a watched worker follows how it ended: through Python (its status stands, but
status 0 without a promised summary), os._exit, a signal, or a crash while shutting down."""
import os
import signal
import sys

import pytest

from opsdk.packs.loading import channel
from opsdk.packs.loading.watch import Worker

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="workers are forked on Linux only")


def _worker(body, timeout=None):
    """A watched child running ``body()`` and then, unless body ended it, leaving 'through Python'."""
    worker = Worker.start(timeout)
    if worker is None:
        try:
            body()
            channel.exiting(0)
        finally:
            os._exit(0)
    return worker.watch(forward_signals=False)


def test_a_worker_that_exits_through_python_keeps_its_status():
    assert _worker(lambda: None).exit_code_for_caller() == (0, None)


def test_a_crash_while_shutting_down_after_the_command_finished_keeps_its_status():
    def body():
        channel.exiting(0)
        os.kill(os.getpid(), signal.SIGSEGV)  # as a library's exit handler may

    code, message = _worker(body).exit_code_for_caller()
    assert code == 0
    assert message == ("opsdk: note: the command had finished (status 0) when its process was "
                       "killed by signal SIGSEGV (a crash in native code), while shutting down")


def test_status_0_without_the_promised_summary_is_a_failure():
    def body():
        channel.expect_summary()
        channel.activity("checking op p.op")

    code, message = _worker(body).exit_code_for_caller()
    assert code == 1
    assert message.startswith("Error: the command exited with status 0 before printing its summary "
                              "while checking op p.op")


def test_status_0_with_the_summary_is_a_success():
    def body():
        channel.expect_summary()
        channel.summary_printed()

    assert _worker(body).exit_code_for_caller() == (0, None)


def test_os_exit_0_is_a_failure_that_says_what_it_was_doing():
    def body():
        channel.activity("checking op p.op")
        os._exit(0)

    code, message = _worker(body).exit_code_for_caller()
    assert code == 1 and "exit status 0 (os._exit(), or native code calling exit()) while " \
                         "checking op p.op" in message


def test_a_crash_after_loading_is_a_failure_with_the_python_line():
    def body():
        import ctypes

        ctypes.string_at(0)

    code, message = _worker(body).exit_code_for_caller()
    assert code == 1 and "killed by signal SIGSEGV" in message
    assert "where it ended:" in message and "test_watch.py" in message
