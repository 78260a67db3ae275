"""Progress of a run on stderr: a bar on a terminal, else one plain line per finished op."""
import sys
import time
from contextlib import contextmanager

import click

from .result import summarize


def _counts(results):
    counts = summarize(results)
    shown = [f"{n} {name}" for n, name in ((counts["pass"], "passed"), (counts["fail"], "failed"),
                                           (counts["error"], "errors"), (counts["blocked"], "blocked"),
                                           (counts["skip"], "skipped")) if n or name == "passed"]
    return ", ".join(shown)


# a long op says what it is doing at most this often (seconds)
HEARTBEAT = 10.0


def _doing(case, index, count):
    """``gradcheck (c, float32), sample 3 of 12``."""
    return f"{case.check} ({case.backend}, {case.dtype}), sample {index + 1} of {count}"


class _OpLines:
    """Writes ``[  12/418] pack.op: 10 passed, 2 skipped (0.4 s)`` when an op's last case is done,
    and ``[  12/418] pack.op: still checking gradcheck (c, float32), sample 3 of 12 (20 s)``
    every HEARTBEAT seconds while one takes long."""

    def __init__(self, total, stream):
        self.total, self.stream = total, stream
        self.done, self.op, self.results, self.started = 0, None, [], time.perf_counter()
        self.said = self.started

    def sample(self, case, index, count):
        now = time.perf_counter()
        if now - max(self.said, self.started) < HEARTBEAT:
            return
        if self.op is not None and case.op.qualname != self.op:
            self.flush()
        self.said = now
        width = len(str(self.total))
        self.stream.write(f"[{self.done:>{width}}/{self.total}] {case.op.qualname}: still "
                          f"checking {_doing(case, index, count)} ({now - self.started:.0f} s)\n")
        self.stream.flush()

    def __call__(self, result):
        if result is None:
            return
        if self.op is not None and result.op != self.op:
            self.flush()
        self.op = result.op
        self.results.append(result)
        self.done += 1

    def flush(self):
        if self.op is None:
            return
        width = len(str(self.total))
        # the op's own time (with -j its results arrive in order, not when they were done)
        took = sum(r.seconds for r in self.results)
        self.stream.write(f"[{self.done:>{width}}/{self.total}] {self.op}: {_counts(self.results)} "
                          f"({took:.1f} s)\n")
        self.stream.flush()
        self.op, self.results, self.started = None, [], time.perf_counter()


@contextmanager
def progress(total, enabled=None, stream=None):
    """Yield ``advance(result)`` to call after each case.

    Args:
        total: how many cases the run has.
        enabled: True draws a bar, False shows nothing; None (default) draws a bar when the
            stream is a terminal and writes a plain line per finished op otherwise (logs, CI).
        stream: where to write (default: stderr).

    Example::

        with progress(len(cases)) as advance:
            for case in cases:
                advance(run_case(case))
    """
    stream = sys.stderr if stream is None else stream
    if enabled is False or total == 0:
        yield lambda result: None
        return
    if enabled is None and not stream.isatty():
        lines = _OpLines(total, stream)
        try:
            yield lines
        finally:
            lines.flush()
        return
    with click.progressbar(length=total, label="checking", file=stream, show_pos=True, show_eta=True,
                           item_show_func=lambda r: r if isinstance(r, str) else
                           r.op if r is not None else "") as bar:
        def advance(result):
            bar.update(1, result)

        def sample(case, index, count):
            # the bar moves within a long case too: it names the check and the sample
            bar.current_item = f"{case.op.qualname} {_doing(case, index, count)}"
            bar.render_progress()

        advance.sample = sample
        yield advance
