"""A progress bar for long runs: on stderr, only when stderr is a terminal."""
import sys
from contextlib import contextmanager

import click


@contextmanager
def progress(total, enabled=None):
    """Yield ``advance(result)`` to call after each case; draws a bar on a TTY stderr.

    Args:
        total: how many cases the run has.
        enabled: force the bar on or off (default: on when stderr is a terminal).
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled or total == 0:
        yield lambda result: None
        return
    with click.progressbar(length=total, label="checking", file=sys.stderr, show_pos=True,
                           item_show_func=lambda r: r.case_id if r is not None else "") as bar:
        yield lambda result: bar.update(1, result)
