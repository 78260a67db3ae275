"""The `opsdk` command line: one module per command, imported only when that command runs."""
import importlib

import click

from .. import __version__

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


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

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
