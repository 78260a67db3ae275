"""Report files of ``opsdk check`` (``--junit-xml``, ``--html``): refused before anything runs when
they could not be written, and written so that no op's text can fail the write."""
import os
import stat

import click

# the options that name report files, by click parameter name
REPORT_OPTIONS = {"junit_xml": "--junit-xml", "html": "--html"}


def _kind(mode):
    for test, name in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _write_problem(path):
    """Why a report could not be written to ``path`` (a regular file or a new one), or None.

    Asked of the OS by writing: a byte to a temporary file beside it (a full disk, a read-only
    mount, a directory we may not write), and opening the file itself for appending (which
    changes nothing in it).
    """
    import tempfile

    from .. import writable

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"directory {folder} does not exist; expected: a file in an existing directory"
    if not writable.can_create_in(folder):
        return f"directory {folder} is not writable"
    try:
        fd, probe = tempfile.mkstemp(prefix=".opsdk-probe-", dir=folder)
        try:
            os.write(fd, b"\0")
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(probe)
        if os.path.exists(path):
            with open(path, "ab"):
                pass
    except OSError as error:
        return f"cannot write {path}: {error.strerror or error}"
    return None


def _same_file(a, b):
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


def report_file(ctx, param, value):
    """click callback: the report path ``value``, or a usage error (exit 2) saying why not."""
    if value is None:
        return value
    if not value.strip():
        raise click.BadParameter("an empty file name; expected: the path of the report file")
    try:
        mode = os.stat(value).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise click.BadParameter(f"{value} is {_kind(mode)}, which cannot hold a report; "
                                 "expected: the path of a regular file")
    problem = _write_problem(value)
    if problem:
        raise click.BadParameter(f"{problem}; got: {value}")
    for name, option in REPORT_OPTIONS.items():
        other = ctx.params.get(name)
        if name != param.name and other and _same_file(value, other):
            raise click.BadParameter(f"{value} is also the {option} file; expected: a different "
                                     "file for each report")
    return value


def write_report(path, text, what):
    """Write ``text`` to ``path``; a lone surrogate in an op's message is written as an escape.

    Returns:
        None, or a one-line error saying why the report could not be written.
    """
    try:
        with open(path, "w", encoding="utf-8", errors="backslashreplace") as f:
            f.write(text)
    except OSError as error:
        return f"could not write the {what} report to {path}: {error.strerror or error}"
    return None
