"""``opsdk --help`` and ``opsdk --version``."""
import opsdk

COMMANDS = ("new-op", "new-pack", "list", "check", "build", "doctor", "cache")


def test_help_lists_every_command(invoke):
    result = invoke("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert f"  {command}" in result.stdout


def test_version_prints_opsdk_version(invoke):
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"opsdk, version {opsdk.__version__}"


def test_every_command_has_its_own_help(invoke):
    for command in COMMANDS:
        result = invoke(command, "--help")
        assert result.exit_code == 0, result.output
        assert "Usage:" in result.stdout



def test_a_reader_that_closes_the_pipe_is_not_reported_as_a_bug():
    import subprocess
    import sys

    # a command whose reader went away (`opsdk list | head -1`, with more output than the pipe
    # holds): BrokenPipeError reaches the group; it must stop quietly, not claim a bug in opsdk
    script = """
import sys, click
from opsdk import cli

@click.command("talk")
def talk():
    raise BrokenPipeError(32, "Broken pipe")

cli.COMMANDS["talk"] = "__main__:talk"
sys.argv = ["opsdk", "talk"]
cli.main()
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 141
    assert done.stderr == ""
