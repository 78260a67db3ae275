"""The `opsdk` command line: one module per command, imported only when that command runs."""
import importlib

import click

from ..version import __version__

# command name -> "module:attribute" of its click.Command; loading lazily keeps `opsdk --help`
# fast and lets a broken optional part (a missing compiler, CuPy) break only its own command
COMMANDS = {
    "new-op": "opsdk.cli.new_op:new_op",
    "new-pack": "opsdk.cli.new_pack:new_pack",
    "list": "opsdk.cli.list_cmd:list_cmd",
    "check": "opsdk.cli.check_cmd:check_cmd",
    "build": "opsdk.cli.build_cmd:build_cmd",
    "doctor": "opsdk.cli.doctor_cmd:doctor_cmd",
    "cache": "opsdk.cli.cache_cmd:cache_cmd",
}


# commands that load packs: run as the `opsdk` command, they run in a worker process its parent
# watches, so a pack that hangs, exits or crashes is named instead of taking the command down
SUPERVISED = frozenset({"list", "check", "doctor", "build"})

# exit statuses: 1 a check or step failed, 2 a usage error (click's own), 70 a bug in opsdk (EX_SOFTWARE),
# 130 interrupted (128 + SIGINT, as a shell reports Ctrl-C),
# 141 the reader of stdout closed it (128 + SIGPIPE, as a shell reports a tool killed by it)
FAILED, INTERNAL_ERROR, INTERRUPTED, BROKEN_PIPE = 1, 70, 130, 141


def _one_line(error):
    """An error message on one line: its lines joined, the indentation dropped, control
    characters and lone surrogates (a pack's text may hold any) shown as escapes."""
    from ..printable import printable

    return printable("; ".join(line.strip() for line in str(error).strip().splitlines() if line.strip()))


def _exit_status(exit):
    """The number a SystemExit ends the process with."""
    code = exit.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _tolerant_streams():
    """stdout/stderr that print a lone surrogate as an escape rather than failing the command."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass


def _report_internal_error(error):
    """Save the traceback to a file and say, in a few lines, that it is a bug and how to report it."""
    import tempfile
    import traceback

    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    try:
        fd, path = tempfile.mkstemp(prefix="opsdk-crash-", suffix=".txt")
        with open(fd, "w", encoding="utf-8") as f:
            f.write(f"opsdk {__version__}\n{text}")
        where = f"the traceback is in {path}"
    except OSError:
        where = "the traceback could not be saved"
    click.echo(f"opsdk: internal error: {type(error).__name__}: {_one_line(error)}\n"
               f"  This is a bug in opsdk {__version__}, not in your input; {where}.\n"
               f"  Please report it to the opsdk maintainers with the command you ran, that file "
               f"and the output of `opsdk doctor`.", err=True)


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use, and which never shows a traceback:
    an OpsdkError is one line and exit 1, anything else an internal-error note and exit 70."""

    supervised = False

    def __call__(self, *args, **kwargs):
        """The `opsdk` command itself (console script, ``python -m opsdk.cli``); CliRunner calls
        ``main()`` instead and stays in one process."""
        import sys

        self.supervised = True
        _tolerant_streams()
        code = 1
        try:
            return super().__call__(*args, **kwargs)
        except SystemExit as exit:
            code = _exit_status(exit)
            raise
        finally:
            # a worker tells its supervisor it leaves through Python (not os._exit, not a crash);
            # a process that never loaded the channel is no worker
            channel = sys.modules.get("opsdk.packs.loading.channel")
            if channel is not None:
                channel.exiting(code)

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        if self.supervised and name in SUPERVISED:
            from ..packs.loading import supervisor

            supervisor.enable("handover")
        return name, command, rest

    def invoke(self, ctx):
        from ..errors import OpsdkError

        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            if self.supervised:  # the whole process ends now: a second Ctrl-C must not cut it short
                import signal

                signal.signal(signal.SIGINT, signal.SIG_IGN)
            click.echo("Interrupted.", err=True)
            ctx.exit(INTERRUPTED)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except BrokenPipeError:
            # the reader went away (`opsdk list | head`): not a bug; stop quietly, as a shell tool
            # killed by SIGPIPE would, and keep Python from complaining again when it flushes stdout
            import os
            import sys

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(BROKEN_PIPE)
        except OpsdkError as error:
            click.echo(f"Error: {_one_line(error)}", err=True)
            ctx.exit(FAILED)
        except Exception as error:  # noqa: BLE001 - the last line of defence: never a raw traceback
            _report_internal_error(error)
            ctx.exit(INTERNAL_ERROR)

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="opsdk")
def main():
    """opsdk: write, ship and verify custom differentiable operators."""
