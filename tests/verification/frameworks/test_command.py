"""``opsdk check --framework``: the CLI face of the framework checks."""
import pytest
from click.testing import CliRunner

from opsdk.cli import main


@pytest.mark.torch
def test_check_framework_torch_passes_for_example_swish():
    pytest.importorskip("torch", reason="torch is not installed")
    result = CliRunner().invoke(main, ["check", "--framework", "torch", "example.swish"])
    assert result.exit_code == 0, result.output
    assert "opcheck:test_aot_dispatch_dynamic" in result.output and "0 failed" in result.output


def test_check_framework_without_the_framework_names_the_extra(monkeypatch):
    from opsdk.interop import _require

    monkeypatch.setitem(_require.EXTRAS, "jax", "opsdk_no_such_framework")
    result = CliRunner().invoke(main, ["check", "--framework", "jax", "example.swish"])
    assert result.exit_code == 2 and "pip install opsdk[jax]" in result.output
