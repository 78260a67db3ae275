"""Every row of docs/cli.md's table of `opsdk check` report files, a pack's text and interrupts:
its exit status and its message, no traceback.

Each test runs one row's input and hands the result to ``expect(row, ...)``, which reads the
expected exit status and message from the table itself; the last test checks that every row of
the table has its test here and every test its row.
"""
import ast
import errno
import os
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import opsdk.plugins
from fixtures.hostile_packs import source
from opsdk import hookimpl

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
MARKER = "<!-- check-bad-inputs:"
QUICK = ("--check", "gradcheck", "--backend", "python", "--dtype", "float64", "--no-progress")


def _table():
    """{input cell: (exit cell, message)} of the table under MARKER."""
    lines = DOCS.read_text(encoding="utf-8").split(MARKER, 1)[1].splitlines()[3:]
    rows = {}
    for line in lines:
        if not line.startswith("|"):
            break
        row, status, message = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows[row] = (int(status), message.strip("`"))
    return rows


ROWS = _table()


def expect(row, result):
    """Assert that a row's input gave the documented exit status and message, and no traceback."""
    status, message = ROWS[row]
    output = result.output
    assert result.exit_code == status, output
    assert message in output, output
    assert "Traceback (most recent call last)" not in output


def _module(name, text):
    module = types.ModuleType(name)
    exec(compile(text, f"<{name}>", "exec"), module.__dict__)
    return module


@pytest.fixture
def noisy():
    """The pack whose texts hold ESC, BEL, NUL, CR and a lone surrogate, registered as 'noisy'."""
    opsdk.plugins.register_pack(_module("noisy_text", source("noisy_text")), name="noisy")
    yield "noisy"
    opsdk.plugins.unregister_pack("noisy")


def test_junit_xml_to_dev_full_is_refused_before_running(invoke):
    expect("`opsdk check --junit-xml /dev/full`", invoke("check", "--junit-xml", "/dev/full"))


def test_junit_xml_with_an_empty_name(invoke):
    expect("`opsdk check --junit-xml ''`", invoke("check", "--junit-xml", ""))


def test_html_with_an_empty_name(invoke):
    expect("`opsdk check --html ''`", invoke("check", "--html", ""))


def test_one_file_for_both_reports(invoke, tmp_path):
    report = tmp_path / "report"
    expect("`opsdk check --junit-xml F --html F`",
           invoke("check", "--junit-xml", report, "--html", report))
    assert not report.exists()


def test_junit_xml_into_a_read_only_directory(invoke, tmp_path, read_only):
    folder = tmp_path / "ro"
    folder.mkdir()
    read_only(folder)
    expect("`opsdk check --junit-xml RO/x.xml`, RO a read-only directory",
           invoke("check", "--junit-xml", folder / "x.xml"))


def test_junit_xml_on_a_full_disk(invoke, tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)  # what the probe's write meets on a full filesystem
    expect("`opsdk check --junit-xml x.xml` on a full disk",
           invoke("check", "--junit-xml", tmp_path / "x.xml"))
    assert list(tmp_path.iterdir()) == []  # the probe cleaned up after itself


def test_a_lone_surrogate_in_an_op_message_is_written_to_the_junit_report(invoke, noisy, tmp_path):
    report = tmp_path / "check.xml"
    result = invoke("check", "--pack", noisy, *QUICK, "--junit-xml", report)
    expect("`opsdk check` of an op whose error message holds a lone surrogate, with `--junit-xml`",
           result)
    (error,) = ET.parse(report).getroot().iter("error")  # the op raised: an error, not a failure
    assert "cannot read /data/caf\\udce9.bin\\x0dok" in error.text


def test_a_lone_surrogate_in_an_op_message_is_written_to_the_html_report(invoke, noisy, tmp_path):
    pytest.importorskip("matplotlib", reason="--html needs matplotlib (pip install 'opsdk[report]')")
    report = tmp_path / "check.html"
    result = invoke("check", "--pack", noisy, *QUICK, "--html", report)
    expect("`opsdk check` of an op whose error message holds a lone surrogate, with `--html`", result)
    assert "cannot read /data/caf\\udce9.bin" in report.read_text(encoding="utf-8")


def test_a_carriage_return_in_an_op_message_cannot_overwrite_the_verdict(invoke, noisy):
    result = invoke("check", "--pack", noisy, *QUICK)
    expect("`opsdk check` of an op whose error message holds a carriage return", result)
    assert "\r" not in result.output


def test_list_escapes_a_summary_with_esc_bel_and_nul(invoke, noisy):
    result = invoke("list")
    expect("`opsdk list` with an op whose summary holds ESC, BEL and NUL", result)
    assert not {"\x1b", "\x07", "\x00"} & set(result.output)


def test_doctor_escapes_a_failed_packs_message(invoke):
    module = types.ModuleType("retitles")

    @hookimpl
    def register_ops(register):
        raise RuntimeError("\x1b]0;owned\x07 the terminal's title")

    module.register_ops = register_ops
    with pytest.raises(opsdk.errors.PluginLoadError):
        opsdk.plugins.register_pack(module, name="retitles")
    try:
        result = invoke("doctor")
    finally:
        opsdk.plugins.unregister_pack("retitles")
    expect("`opsdk doctor` with a pack whose error message holds ESC and BEL", result)
    assert "\x1b" not in result.output


def test_an_error_naming_what_the_user_typed_is_escaped(invoke):
    result = invoke("check", "nois\x1by")
    expect("`opsdk check 'nois\\x1by'` (a name no pack registers)", result)
    assert "\x1b" not in result.output


def test_ctrl_c_during_check(invoke, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("opsdk.verification.check.run_checks", interrupted)
    result = invoke("check", "--no-progress")
    expect("Ctrl-C during `opsdk check`", result)
    assert "Aborted!" not in result.output


def test_ctrl_c_during_build(invoke, monkeypatch, in_test_pack):
    from opsdk.kernels import Kernel

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(Kernel, "build_c", interrupted)
    result = invoke("build", "--pack", in_test_pack(cuda=False))
    expect("Ctrl-C during `opsdk build`", result)
    assert "Aborted!" not in result.output


def test_every_row_of_the_table_has_its_test():
    # a test names its row literally (as a string constant of this module)
    constants = {node.value for node in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert [row for row in ROWS if row not in constants] == []
    assert len(ROWS) >= 13
