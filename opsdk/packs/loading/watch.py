"""Watching one worker process through its pipe: what it said (channel.py), when a pack it
loads overran its time, how it ended, and what the supervisor makes of that.
"""
import os
import signal
import sys
import time
import warnings

from ...errors import PluginCrashError, PluginTimeoutError
from . import channel
from .failures import PluginFailure

ENV_TIMEOUT = "OPSDK_PLUGIN_TIMEOUT"

# after the deadline, time for the worker's traceback dump (where it hangs) before SIGKILL
_GRACE = 1.0


def _grace(timeout):
    return min(_GRACE, timeout / 2)


# a pack loading longer than this gets a line on stderr, so a long wait is never silent
_NOTICE_AFTER = 5.0

_SIGNAL_MEANING = {"SIGSEGV": "a crash in native code", "SIGBUS": "a crash in native code",
                   "SIGILL": "a crash in native code", "SIGFPE": "a crash in native code",
                   "SIGABRT": "abort(), e.g. a failed assertion in native code",
                   "SIGKILL": "killed from outside, e.g. by the out-of-memory killer"}


def die_with_parent(parent):
    """Linux: the worker is killed with its supervisor, so a killed ``opsdk`` leaves no orphan."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)


class Worker:
    """The parent's view of one worker: the messages it sent, how and when it ended."""

    def __init__(self, pid, fd, timeout):
        self.pid, self.fd, self.timeout = pid, fd, timeout
        self.loading, self.loading_since, self.noticed = None, None, False
        self.activity, self.exit_code, self.status = None, None, None
        self.summary, self.timed_out, self.signals = False, False, []
        self.expect_summary = channel.expects_summary()
        self.dump, self._partial, self._sigint_at = [], b"", None

    @classmethod
    def start(cls, timeout):
        """Fork. The parent gets a Worker; the child gets None and reports on the pipe from now on."""
        read_end, write_end = os.pipe()
        for stream in (sys.stdout, sys.stderr):  # else both processes write what is buffered
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        parent = os.getpid()
        with warnings.catch_warnings():
            # Python 3.12+ warns of fork with threads running (BLAS pools, pytest's watchdog):
            # the child only imports packs and runs the command, nothing that waits on those
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:
            os.close(read_end)
            die_with_parent(parent)
            channel.attach(write_end, timeout)
            return None
        os.close(write_end)
        return cls(pid, read_end, timeout)

    # -- reading the pipe --------------------------------------------------------------------
    def _take(self, data):
        import json

        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            message = None
            if line.startswith(b'{"kind"'):
                try:
                    message = json.loads(line)
                except ValueError:
                    pass
            if message is None:
                self.dump.append(line.decode("utf-8", "backslashreplace"))
            else:
                self._handle(message)

    def _handle(self, message):
        kind = message.pop("kind")
        if kind == "begin":
            self.loading = {**message, "stage": "import"}
            self.loading_since, self.noticed, self.dump = time.monotonic(), False, []
        elif kind == "stage" and self.loading is not None:
            self.loading["stage"] = message["stage"]
        elif kind == "end":
            self.loading = None
        elif kind == "activity":
            self.activity = message["text"]
        elif kind == "expect_summary":
            self.expect_summary = True
        elif kind == "summary":
            self.summary = True
        elif kind == "exit":
            self.exit_code = message["code"]

    def _drain(self):
        import select

        while select.select([self.fd], [], [], 0)[0]:
            data = os.read(self.fd, 65536)
            if not data:
                break
            self._take(data)
        if self._partial:
            self._take(b"\n")

    # -- watching ----------------------------------------------------------------------------
    def watch(self, forward_signals):
        """Wait for the worker to end (stopping it when a pack overruns its time); self."""
        import select

        previous = self._trap_signals() if forward_signals else {}
        pidfd = _pidfd(self.pid)
        wakeup = _Wakeup() if forward_signals else None
        try:
            while self.status is None:
                wait = self._deadline_wait()
                if wait is not None and wait <= 0:
                    self.timed_out = True
                    os.kill(self.pid, signal.SIGKILL)
                    self.status = os.waitpid(self.pid, 0)[1]
                    break
                if pidfd is None or self._sigint_at is not None:
                    wait = 0.25 if wait is None else min(wait, 0.25)
                watched = [self.fd] + [fd for fd in (pidfd, wakeup and wakeup.fd) if fd is not None]
                ready = select.select(watched, [], [], wait)[0]
                if wakeup is not None and wakeup.fd in ready:
                    wakeup.clear()
                if self.fd in ready:
                    data = os.read(self.fd, 65536)
                    if data:
                        self._take(data)
                    else:  # the worker closed its end: it has exited, or is about to
                        self.status = os.waitpid(self.pid, 0)[1]
                        break
                self._forward_sigint()
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.status = status
            self._drain()
        finally:
            if self.status is None:  # interrupted here (pytest's Ctrl-C): no worker outlives us
                os.kill(self.pid, signal.SIGKILL)
                self.status = os.waitpid(self.pid, 0)[1]
            for number, handler in previous.items():
                signal.signal(number, handler)
            if wakeup is not None:
                wakeup.close()
            os.close(self.fd)
            if pidfd is not None:
                os.close(pidfd)
        return self

    def _deadline_wait(self):
        """Seconds until the loading pack's deadline (None: none); says so on stderr after a while."""
        if self.loading is None or self.timeout is None:
            return None
        elapsed = time.monotonic() - self.loading_since
        if not self.noticed and self.timeout > _NOTICE_AFTER:
            if elapsed >= _NOTICE_AFTER:
                self.noticed = True
                sys.stderr.write(f"opsdk: pack '{self.loading['pack']}' is still loading after "
                                 f"{_NOTICE_AFTER:g} s; it is stopped after {self.timeout:g} s "
                                 f"({ENV_TIMEOUT})\n")
                sys.stderr.flush()
            else:
                return min(_NOTICE_AFTER - elapsed, self.timeout + _grace(self.timeout) - elapsed)
        return self.timeout + _grace(self.timeout) - elapsed

    def _trap_signals(self):
        """Ctrl-C reaches the worker from the terminal; SIGTERM/SIGHUP sent to us are passed on.
        A SIGINT sent to us alone reaches it after 2 s; a second one kills it."""
        def forward(number, frame):
            self.signals.append(number)
            if number == signal.SIGINT:
                if self._sigint_at is not None:
                    os.kill(self.pid, signal.SIGKILL)
                self._sigint_at = time.monotonic()
            else:
                os.kill(self.pid, number)

        previous = {}
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            previous[number] = signal.signal(number, forward)
        return previous

    def _forward_sigint(self):
        if self._sigint_at is not None and time.monotonic() - self._sigint_at > 2.0:
            self._sigint_at = None
            os.kill(self.pid, signal.SIGINT)

    # -- the verdict -------------------------------------------------------------------------
    def how_it_ended(self):
        """'killed by signal SIGSEGV (a crash in native code)' or 'exit status 0'."""
        return how_status_ended(self.status, exits=False)

    def pack_failure(self):
        """The PluginFailure of the pack that hung or ended the worker while loading, else None."""
        if self.loading is None or self.signals or (self.exit_code is not None and not self.timed_out):
            return None  # no pack loading, we were asked to stop, or it left through Python (Ctrl-C)
        loading = self.loading
        where = f"pack '{loading['pack']}'"
        if self.timed_out:
            error = PluginTimeoutError(
                f"{where} did not finish loading (at {loading['stage']}) within {self.timeout:g} s "
                f"({ENV_TIMEOUT}); it was stopped and left out; expected: an import that does not "
                "wait for the network, a lock or input", self.timeout)
        else:
            code = os.waitstatus_to_exitcode(self.status)
            how = self.how_it_ended()
            if code >= 0:
                how += " (os._exit(), or native code calling exit())"
            error = PluginCrashError(f"{where} ended the process while loading (at "
                                     f"{loading['stage']}): {how}; it was left out", code)
        dump = trimmed_dump(self.dump, below=os.path.join("opsdk", "plugins", "loader.py"))
        return PluginFailure(loading["pack"], loading["distribution"], loading["version"],
                             loading["stage"], error, dump or "(the process ended before Python "
                                                              "could say where)")

    def exit_code_for_caller(self):
        """The status the supervisor exits with, and the line it writes on stderr (or None)."""
        code = os.waitstatus_to_exitcode(self.status)
        doing = f" while {self.activity}" if self.activity else ""
        if self.exit_code is not None:  # it left through Python's exit: that status stands
            if self.exit_code == 0 and self.expect_summary and not self.summary:
                return 1, (f"Error: the command exited with status 0 before printing its summary"
                           f"{doing} (code it ran called sys.exit()?); the run counts as failed")
            if code != self.exit_code and not self.signals:
                # some libraries crash in their exit handlers; the command had finished by then
                how = ("was " if code < 0 else "ended with ") + self.how_it_ended()
                return self.exit_code, (f"opsdk: note: the command had finished (status "
                                        f"{self.exit_code}) when its process {how}, while "
                                        "shutting down")
            return self.exit_code if code == self.exit_code else 128 + _stop(self, code), None
        if code < 0 and (-code == signal.SIGINT or self.signals):
            return 128 + _stop(self, code), None  # stopped on request: the shell's convention
        where = trimmed_dump(self.dump, below=os.path.join("opsdk", "cli", ""))
        return 1, (f"Error: the command ended abnormally: {self.how_it_ended()}"
                   + (" (os._exit(), or native code calling exit())" if code >= 0 else "")
                   + f"{doing}; " + ("no summary was printed; " if self.expect_summary else "")
                   + "the run counts as failed" + (f"\nwhere it ended:\n{where}" if where else ""))


def how_status_ended(status, exits=True):
    """How a process with wait status ``status`` ended: 'killed by signal SIGSEGV (a crash in
    native code)', or 'exit status 0' (``exits``: with what ends a process that way)."""
    code = os.waitstatus_to_exitcode(status)
    if code >= 0:
        return f"exit status {code}" + (" (os._exit(), or native code calling exit())"
                                        if exits else "")
    name = signal.Signals(-code).name
    meaning = _SIGNAL_MEANING.get(name)
    return f"killed by signal {name}" + (f" ({meaning})" if meaning else "")


def _stop(worker, code):
    """The signal a stopped worker stands for: SIGINT after a Ctrl-C (a second one kills it)."""
    if signal.SIGINT in worker.signals or code == -signal.SIGINT:
        return signal.SIGINT
    return -code if code < 0 else worker.signals[-1]


def trimmed_dump(lines, below=None):
    """faulthandler's dump without the noise: importlib's frames, the list of extension modules,
    and (``below``: a path) the frames from there down (opsdk's loader, its command line)."""
    kept = []
    for line in lines:
        if below is not None and below in line:
            break
        if "<frozen importlib." in line or line.startswith("Extension modules:"):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


class _Wakeup:
    """A pipe Python writes to when a signal arrives, so the wait sees a Ctrl-C at once (a
    handler alone would run while select goes on waiting)."""

    def __init__(self):
        self.fd, self._write = os.pipe()
        for fd in (self.fd, self._write):
            os.set_blocking(fd, False)
        self._previous = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)

    def clear(self):
        try:
            while os.read(self.fd, 512):
                pass
        except BlockingIOError:
            pass

    def close(self):
        signal.set_wakeup_fd(self._previous)
        os.close(self.fd)
        os.close(self._write)


def _pidfd(pid):
    """An fd readable when ``pid`` exits (Linux 5.3+), so the end is seen at once; else None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None
