"""The worker's side of supervision: what it tells the process watching it (see supervisor.py).

In a supervised worker every message is one JSON line written to a pipe: which pack is loading
(so a hang or a crash is blamed on it), what the command is doing, that ``opsdk check`` printed
its summary, and that the command is exiting through Python. Outside a worker every function
here does nothing, in well under a microsecond.
"""
import contextlib
import os

_state = {"fd": None, "timeout": None, "expect_summary": False, "handover": False}


def attach(fd, timeout):
    """Become a worker that reports to the pipe ``fd``, whose supervisor stops a pack that loads
    for longer than ``timeout`` seconds (None: no limit); crashes dump their traceback there too."""
    import faulthandler

    _state["fd"], _state["timeout"] = fd, timeout
    # a segfault in a pack's native code then names the Python line that called it. Disabled
    # first: enable() on an enabled faulthandler only changes its file and leaves the signal
    # handlers a library installed since (Paddle's, PyTorch's) in front of it, which print nothing
    faulthandler.disable()
    faulthandler.enable(file=fd, all_threads=False)


def set_handover(on):
    """The supervisor's word that this process forks its worker at the first pack load (the
    worker then inherits what was promised before, such as a summary)."""
    _state["handover"] = bool(on)


def detach():
    """Stop reporting (a process forked from the worker: its parent speaks for it)."""
    _state["fd"] = None


def is_worker():
    return _state["fd"] is not None


def send(kind, **fields):
    """Write one message; a supervisor that went away is not the worker's problem."""
    fd = _state["fd"]
    if fd is None:
        return
    import json

    line = json.dumps({"kind": kind, **fields}, ensure_ascii=True) + "\n"
    try:
        os.write(fd, line.encode("ascii"))
    except OSError:
        pass


@contextlib.contextmanager
def loading(source):
    """Around a pack's import and hooks: the supervisor starts its clock; a hang dumps the
    traceback (where the pack waits) just before the supervisor stops the worker."""
    fd = _state["fd"]
    if fd is None:
        yield
        return
    import faulthandler

    timeout = _state["timeout"]
    send("begin", pack=source.name, distribution=source.distribution, version=source.version,
         module=source.module)
    if timeout:
        faulthandler.dump_traceback_later(timeout, file=fd)
    try:
        yield
    finally:
        if timeout:
            faulthandler.cancel_dump_traceback_later()
        send("end")


def stage(name):
    """The pack being loaded moved on to ``name`` (import, hook)."""
    send("stage", stage=name)


def activity(text):
    """What the worker does now, for the message if it dies (``checking op nn.gelu``)."""
    send("activity", text=text)


def expect_summary():
    """This command promises a summary: ending with status 0 without one is a failure."""
    if _state["handover"]:  # the supervisor forks later: it reads this then
        _state["expect_summary"] = True
    send("expect_summary")


def expects_summary():
    return _state["expect_summary"]


def summary_printed():
    send("summary")


def exiting(code):
    """The command ends through Python with ``code`` (anything else is a crash or os._exit)."""
    send("exit", code=code)
