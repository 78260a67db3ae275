"""Packs load where they cannot take the host down: in a watched worker process, or probed first.

A pack's import is arbitrary code: it can hang, call ``os._exit(0)`` or crash in native code, and
none of that can be caught by the process it happens in. So, on Linux (where ``fork`` is cheap
and safe before any pack is imported):

- ``enable("handover")`` (the ``opsdk`` command): at the first pack load the process forks; the
  child, the *worker*, loads the packs and runs the command; the parent only watches it through a
  pipe (channel.py). A pack that hangs (``OPSDK_PLUGIN_TIMEOUT``), exits or crashes while loading
  is recorded as a failure, and a new worker starts from the same point without it, so the other
  packs are still listed and checked. A worker that dies later is reported with what it was
  doing, and a command that promised a summary (``opsdk check``) never exits 0 without one.
- ``enable("probe")`` (the pytest plugin): packs not imported yet are first loaded in a forked
  child; those that hang or end it are recorded as failures and never imported in this process.

Elsewhere (a library's own process, other platforms) packs load in-process, as before.
"""
import os
import sys

from . import channel
from .watch import ENV_TIMEOUT, Worker

_mode = {"name": None, "forked": False}
# packs that hung or ended a worker: (pack, distribution, module) -> PluginFailure
_known = {}


def enable(mode):
    """Supervise the packs this process loads from now on: ``"handover"`` or ``"probe"``."""
    _mode["name"] = mode
    channel.set_handover(mode == "handover")


def handing_over():
    """True in the `opsdk` command's process, which becomes a worker at its first pack load."""
    return _mode["name"] == "handover"


def plugin_timeout():
    """Seconds a pack may take to load (``OPSDK_PLUGIN_TIMEOUT``, default 30); None: no limit."""
    from ...env import setting

    return setting(ENV_TIMEOUT)


def key(source):
    """What identifies a pack across workers and reloads."""
    return (source.name, source.distribution, source.module)


def _can_fork():
    import threading

    # macOS and Windows: fork is unsafe or missing there; the packs load in-process
    return sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread()


def isolate(sources, load):
    """The packs among ``sources`` that must not load here: ``{key: PluginFailure}``.

    Args:
        sources: the installed packs about to load (PackSource).
        load: ``load(source)`` loads one pack (the probe runs it in a child).

    In handover mode the first call forks: the calling process becomes the supervisor and never
    returns from here; the worker returns. Every process then loads only the sources not listed.
    """
    mode = _mode["name"]
    if mode == "handover" and not _mode["forked"] and _can_fork():
        _mode["forked"] = True
        _handover()
    elif mode == "probe" and not channel.is_worker() and _can_fork():
        pending = [s for s in sources if key(s) not in _known and s.module not in sys.modules]
        if pending:
            _probe(pending, load)
    wanted = {key(s) for s in sources}
    return {k: failure for k, failure in _known.items() if k in wanted}


def _handover():
    timeout = plugin_timeout()
    while True:
        worker = Worker.start(timeout)
        if worker is None:
            return  # the worker: go on loading and running the command
        outcome = worker.watch(forward_signals=True)
        failure = outcome.pack_failure()
        if failure is None:
            _exit_like(outcome)
        _known[_key_of(outcome.loading)] = failure


def _probe(pending, load):
    timeout = plugin_timeout()
    while pending:
        worker = Worker.start(timeout)
        if worker is None:  # the child: load each pack, say how it ended, never return to the caller
            code = 1
            try:
                for source in pending:
                    load(source)
                code = 0
            finally:
                channel.exiting(code)
                os._exit(code)
        outcome = worker.watch(forward_signals=False)
        failure = outcome.pack_failure()
        if failure is None:
            return
        done = _key_of(outcome.loading)
        _known[done] = failure
        pending = pending[[key(s) for s in pending].index(done) + 1:]


def _key_of(loading):
    return (loading["pack"], loading["distribution"], loading["module"])


def _exit_like(worker):
    """End the supervisor as its worker ended (never returns)."""
    code, message = worker.exit_code_for_caller()
    if message:
        from ...printable import printable

        sys.stderr.write(f"{printable(message)}\n")
    try:
        sys.stderr.flush()
    finally:
        os._exit(code)
