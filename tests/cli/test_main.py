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
