"""`opsdk new-op --formula` and `--kind` on the command line: what is written, what is refused."""
import sys

import pytest

from ..conftest import _invoke_in

pytest.importorskip("sympy")


def test_a_formula_op_is_written_with_its_note_and_answers(pack_dir):
    result = _invoke_in(pack_dir, ["new-op", "scaled", "--formula", "beta * x * x"])
    assert result.exit_code == 0, result.output
    assert "note: 'beta' is an attribute with default 1.0" in result.output
    assert (pack_dir / "src/packdemo/ops/scaled.py").is_file()
    answers = (pack_dir / ".opsdk-answers.json").read_text()
    assert '"text": "beta * x * x"' in answers and '"kind": "elementwise"' in answers


def test_a_domain_is_given_as_low_comma_high(pack_dir):
    result = _invoke_in(pack_dir, ["new-op", "root", "--formula", "sqrt(x)", "--domain=0.5,4"])
    assert result.exit_code == 0, result.output
    assert "domain=(0.5, 4.0)" in (pack_dir / "src/packdemo/ops/root.py").read_text()


@pytest.mark.parametrize("args, message", [
    (["--formula", "x * foo(x)"], "unsupported function 'foo'"),
    (["--formula", "x +"], "cannot parse formula"),
    (["--input", "y"], "--input, --attr and --domain describe a --formula"),
    (["--formula", "x", "--attr", "beta"], "--attr 'beta' is not NAME=VALUE"),
    (["--formula", "x", "--domain", "1"], "--domain '1' is not LOW,HIGH"),
    (["--formula", "x", "--domain=3,1"], "is not an interval"),
    (["--formula", "log(x)", "--domain=-1,1"], "not finite somewhere on --domain"),
    (["--formula", "x", "--kind", "rows"], "--formula writes an elementwise op"),
])
def test_bad_formula_options_are_refused_and_nothing_is_written(pack_dir, args, message):
    before = sorted(p.name for p in (pack_dir / "src/packdemo/ops").iterdir())
    result = _invoke_in(pack_dir, ["new-op", "bad", *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert sorted(p.name for p in (pack_dir / "src/packdemo/ops").iterdir()) == before


def test_without_sympy_the_error_names_the_extra(pack_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "sympy", None)  # import sympy now raises ImportError
    result = _invoke_in(pack_dir, ["new-op", "soft", "--formula", "log(1 + exp(x))"])
    assert result.exit_code == 2 and "pip install 'opsdk[formula]'" in result.output


@pytest.mark.parametrize("kind, files", [
    ("multi", {"cell.py"}), ("rows", {"cell.py"}),
    ("elementwise", {"cell.py"})])  # every kind's kernels come from the C its module gives
def test_each_kind_writes_its_op(pack_dir, kind, files):
    result = _invoke_in(pack_dir, ["new-op", "cell", "--kind", kind, "--backend", "c"])
    assert result.exit_code == 0, result.output
    written = {p.name for p in (pack_dir / "src/packdemo/ops").iterdir() if p.stem == "cell"}
    assert written == files
    assert f"({kind}; python, c)" in result.output
