"""Every row of docs/cli.md's table of bad inputs: its exit status and its message, no traceback.

Each test runs one row's input and hands the result to ``expect(row, ...)``, which reads the
expected exit status and message from the table itself; the last test checks that every row of
the table has its test here and every test its row.
"""
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy
import pytest

import opsdk
import opsdk.plugins
from helpers.fake_dist import install_pack
from opsdk.kernels import kernel as kernel_module

from .conftest import BAD_C, make_kernel

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _table():
    """{input cell: (exit cell, message)} of the table under the bad-inputs marker."""
    text = DOCS.read_text(encoding="utf-8").split("<!-- bad-inputs:", 1)[1]
    rows = {}
    for line in text.splitlines()[3:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0]] = (cells[1], cells[2].strip("`"))
    return rows


ROWS = _table()


def expect(row, exit_code, output):
    """Assert that a row's input gave the documented exit status and message, and no traceback."""
    documented_exit, message = ROWS[row]
    if documented_exit != "raises":
        assert exit_code == int(documented_exit), output
    assert message in output, output
    assert "Traceback (most recent call last)" not in output


def _run(invoke, row, *args):
    result = invoke(*args)
    expect(row, result.exit_code, result.output)
    return result


def test_new_pack_with_a_300_character_name(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _run(invoke, "`opsdk new-pack` with a 300-character name", "new-pack", "a" * 300)
    assert os.listdir(tmp_path) == []


def test_new_pack_with_a_non_ascii_name(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _run(invoke, "`opsdk new-pack é`", "new-pack", "é")


def test_new_pack_with_a_windows_reserved_name(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _run(invoke, "`opsdk new-pack CON`", "new-pack", "CON")


def test_new_pack_under_a_read_only_directory(invoke, tmp_path, read_only):
    folder = tmp_path / "ro"
    folder.mkdir()
    read_only(folder)
    _run(invoke, "`opsdk new-pack p --dir RO/p`, RO a read-only directory",
         "new-pack", "p", "--dir", folder / "p")
    assert os.listdir(folder) == []


def test_new_op_force_after_dropping_a_backend(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("new-pack", "forcepk").exit_code == 0
    monkeypatch.chdir(tmp_path / "forcepk")
    # a skeleton writes a .c file (every --kind writes its kernels from C given in the module)
    signature = "x: float[N] -> y: float[N]"
    assert invoke("new-op", "smooth", "--signature", signature, "--backend", "c").exit_code == 0
    result = _run(invoke, "`opsdk new-op smooth --force` in a pack whose `smooth` was made with `--backend c`",
                  "new-op", "smooth", "--signature", signature, "--force")
    assert "src/forcepk/ops/smooth.c" in result.output


def test_new_op_named_as_the_templates_own_names(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("new-pack", "oppk").exit_code == 0
    monkeypatch.chdir(tmp_path / "oppk")
    _run(invoke, "`opsdk new-op OP`: a name the templates use", "new-op", "OP")
    assert not (tmp_path / "oppk/src/oppk/ops/OP.py").exists()


def test_new_pack_named_as_an_installed_pack(invoke, installed, tmp_path, monkeypatch):
    installed("opsdk-example-fake", "example")
    monkeypatch.chdir(tmp_path)
    _run(invoke, "`opsdk new-pack example` while a pack named `example` is installed", "new-pack", "example")
    assert not (tmp_path / "example").exists()


def test_new_pack_with_an_empty_dir(invoke, tmp_path, monkeypatch):
    (tmp_path / "mine.txt").write_text("the user's")
    monkeypatch.chdir(tmp_path)
    _run(invoke, "`opsdk new-pack p --dir ''`", "new-pack", "p", "--dir", "")
    assert os.listdir(tmp_path) == ["mine.txt"]


def test_new_op_with_an_empty_pack(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("new-pack", "emptypk").exit_code == 0
    monkeypatch.chdir(tmp_path / "emptypk")
    before = sorted(p.name for p in (tmp_path / "emptypk/src/emptypk/ops").iterdir())
    _run(invoke, "`opsdk new-op smooth --pack ''`", "new-op", "smooth", "--pack", "")
    assert sorted(p.name for p in (tmp_path / "emptypk/src/emptypk/ops").iterdir()) == before


def test_new_pack_in_a_directory_with_a_300_character_name(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _run(invoke, "`opsdk new-pack p --dir DIR`, DIR a 300-character name", "new-pack", "p", "--dir", "d" * 300)
    assert os.listdir(tmp_path) == []


def test_new_pack_underscore_suggests_a_name_it_then_accepts(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _run(invoke, "`opsdk new-pack _`", "new-pack", "_")
    suggestion = result.output.split("e.g. '", 1)[1].split("'", 1)[0]
    assert invoke("new-pack", suggestion).exit_code == 0


@pytest.fixture
def formula_pack(invoke, tmp_path, monkeypatch):
    """A new pack as the working directory, for `new-op --formula`; its ops/ listing before."""
    monkeypatch.chdir(tmp_path)
    assert invoke("new-pack", "formpk").exit_code == 0
    monkeypatch.chdir(tmp_path / "formpk")
    ops = tmp_path / "formpk/src/formpk/ops"
    before = sorted(p.name for p in ops.iterdir())
    yield
    assert sorted(p.name for p in ops.iterdir()) == before  # a refusal writes nothing


def _formula_row(invoke, row, formula, *args, within=None):
    started = time.perf_counter()
    _run(invoke, row, "new-op", "f", "--formula", formula, *args)
    if within is not None:  # a refusal that comes at once, not after SymPy computed for minutes
        assert time.perf_counter() - started < within


def test_new_op_formula_dividing_by_an_attribute_that_is_zero(invoke, formula_pack):
    pytest.importorskip("sympy")
    _formula_row(invoke, "`opsdk new-op f --formula 'x/beta' --attr beta=0`", "x/beta", "--attr", "beta=0")


def test_new_op_signature_with_an_output_size_no_input_has(invoke, formula_pack):
    _run(invoke, "`opsdk new-op f --signature 'x: float[N] -> y: float[M]'`", "new-op", "f", "--signature",
         "x: float[N] -> y: float[M]")


def test_new_op_formula_with_a_number_beyond_float64(invoke, formula_pack):
    _formula_row(invoke, "`opsdk new-op f --formula 'x*1e400'`", "x*1e400", within=3)


def test_new_op_formula_whose_constants_multiply_beyond_float64(invoke, formula_pack):
    pytest.importorskip("sympy")
    _formula_row(invoke, "`opsdk new-op f --formula 'x*1e300*1e300'`", "x*1e300*1e300")


def test_new_op_formula_of_5000_terms(invoke, formula_pack):
    _formula_row(invoke, "`opsdk new-op f --formula` with a sum of 5000 terms", "+".join(["x"] * 5000), within=3)


def test_new_op_formula_with_a_power_tower(invoke, formula_pack):
    _formula_row(invoke, "`opsdk new-op f --formula 'x*9**9**9'`", "x*9**9**9", within=3)


def test_new_op_formula_nested_deeply(invoke, formula_pack):
    _formula_row(invoke, "`opsdk new-op f --formula` with `exp` nested 100 deep",
                 "exp(" * 100 + "x" + ")" * 100, within=3)


def test_new_op_formula_that_runs_past_its_time_budget(invoke, formula_pack, monkeypatch):
    pytest.importorskip("sympy")
    # any formula outlasts a budget shorter than starting Python: the child is stopped, not awaited
    monkeypatch.setenv("OPSDK_FORMULA_TIMEOUT", "0.01")
    row = "`opsdk new-op f --formula EXPR` that SymPy derives for longer than `OPSDK_FORMULA_TIMEOUT`"
    _formula_row(invoke, row, "x * tanh(log(1 + exp(x)))", within=10)


def test_new_op_in_a_pack_whose_answers_file_was_edited_to_inject_code(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("new-pack", "craftpk").exit_code == 0
    answers_file = tmp_path / "craftpk/.opsdk-answers.json"
    answers = json.loads(answers_file.read_text())
    answers["pack"]["name"] = 'craftpk"; import os; os.system("touch pwned") #'
    answers_file.write_text(json.dumps(answers))
    monkeypatch.chdir(tmp_path / "craftpk")
    _run(invoke, "`opsdk new-op` in a pack whose `.opsdk-answers.json` has a quote in `pack.name`",
         "new-op", "smooth")
    assert not (tmp_path / "craftpk/src/craftpk/ops/smooth.py").exists()


def test_registering_an_attr_that_is_nan():
    from opsdk.errors import RegistrationError
    from opsdk.packs.registry import TensorSpec, build_opinfo

    from .conftest import Twice

    with pytest.raises(RegistrationError) as caught:
        build_opinfo("nanpk", "1.0", None, Twice, {"name": "twice", "inputs": [TensorSpec(shape=(3,))],
                                                      "attrs": {"alpha": float("nan")}})
    expect("`register(..., attrs={'alpha': nan})`", None, str(caught.value))
    assert "op 'twice'" in str(caught.value)


def test_check_junit_xml_into_a_missing_directory_is_refused_before_running(invoke, monkeypatch):
    ran = []
    monkeypatch.setattr("opsdk.verification.check.run_checks", lambda *a, **k: ran.append(1) or [])
    _run(invoke, "`opsdk check --junit-xml missing/dir/x.xml`", "check", "--junit-xml", "missing/dir/x.xml")
    assert not ran


def test_check_html_into_a_missing_directory_is_refused_before_running(invoke):
    _run(invoke, "`opsdk check --html missing/dir/x.html`", "check", "--html", "missing/dir/x.html")


def test_check_with_a_negative_seed(invoke):
    _run(invoke, "`opsdk check --seed -1`", "check", "--seed", "-1")


def test_check_with_a_dtype_the_op_lacks(invoke):
    _run(invoke, "`opsdk check opsdk.erf --dtype float16`", "check", "opsdk.erf", "--dtype", "float16")


def test_check_of_an_op_whose_c_kernel_does_not_compile(invoke, in_test_pack):
    from opsdk.verification.check import clear_caches

    clear_caches()
    pack = in_test_pack(c_code=BAD_C, cuda=False)
    result = _run(invoke, "`opsdk check` of an op whose C kernel does not compile",
                  "check", "--pack", pack, "--no-progress")
    assert result.output.count("C compile failed") == 1  # the compiler's error, once


def test_doctor_under_an_unknown_opsdk_backend(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "bogus")
    _run(invoke, "`OPSDK_BACKEND=bogus opsdk doctor`", "doctor")


@pytest.mark.filterwarnings("ignore::opsdk.errors.OpsdkWarning")  # doctor reads it too: one warning
def test_doctor_under_an_unknown_cuda_simulator_setting(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_CUDA_SIM", "bogus")
    _run(invoke, "`OPSDK_CUDA_SIM=bogus opsdk doctor`", "doctor")


def test_import_under_an_unknown_cuda_simulator_setting():
    done = subprocess.run([sys.executable, "-c", "import opsdk"], capture_output=True, text=True,
                          env={**os.environ, "OPSDK_CUDA_SIM": "bogus"}, timeout=120)
    expect("`import opsdk` under `OPSDK_CUDA_SIM=bogus`", done.returncode, done.stderr)


def test_doctor_under_a_pool_size_that_is_not_a_number(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_POOL_MB", "abc")
    _run(invoke, "`OPSDK_POOL_MB=abc opsdk doctor`", "doctor")


def test_large_output_under_a_pool_size_that_is_not_a_number(monkeypatch):
    from opsdk import env
    from opsdk.kernels import outputs

    monkeypatch.setenv("OPSDK_POOL_MB", "abc")
    monkeypatch.setattr(env, "_warned", set())
    monkeypatch.setattr(env, "_parsed", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert outputs.empty((1 << 20,), numpy.float64).shape == (1 << 20,)
    expect("a large kernel output under `OPSDK_POOL_MB=abc`", 0, "\n".join(str(w.message) for w in caught))


def test_doctor_with_a_misspelt_variable(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_POOLMB", "64")
    _run(invoke, "`OPSDK_POOLMB=64 opsdk doctor` (a typo)", "doctor")


def test_op_call_under_an_unknown_opsdk_backend(monkeypatch):
    from opsdk.errors import BackendUnavailableError

    monkeypatch.setenv("OPSDK_BACKEND", "bogus")
    with pytest.raises(BackendUnavailableError) as caught:
        opsdk.erf(opsdk.to_tensor([0.5]))
    expect("an op called under `OPSDK_BACKEND=bogus`", None, str(caught.value))


_EMPTY_PACK = "from opsdk import hookimpl\n\n\n@hookimpl\ndef register_ops(register):\n    pass\n"


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """``installed(dist, pack)``: a fake installed distribution whose entry point registers ``pack``."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    made = []

    def install(dist, pack):
        made.append(f"opsdk_bad_inputs_{len(made)}")
        install_pack(site, dist, pack, made[-1], _EMPTY_PACK)

    yield install
    for module in made:
        sys.modules.pop(module, None)


def test_list_with_a_typo_in_opsdk_load_plugins(invoke, installed, monkeypatch):
    installed("opsdk-example-fake", "example")
    monkeypatch.setenv("OPSDK_LOAD_PLUGINS", "exampel")
    opsdk.plugins.reload()
    _run(invoke, "`OPSDK_LOAD_PLUGINS=exampel opsdk list`, pack `example` installed", "list")


def test_list_with_two_packs_of_one_name(invoke, installed, monkeypatch):
    installed("opsdk-dup-one", "dup")
    installed("opsdk-dup-two", "dup")
    monkeypatch.setenv("OPSDK_LOAD_PLUGINS", "dup")
    opsdk.plugins.reload()
    _run(invoke, "`opsdk list` with two installed packs named `dup`", "list")


@pytest.fixture
def cache_is_a_file(tmp_path, monkeypatch):
    path = tmp_path / "cache-file"
    path.write_text("not a directory")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(path))
    return path


def test_cache_info_of_a_cache_that_is_a_file(invoke, cache_is_a_file):
    _run(invoke, "`OPSDK_CACHE_DIR=FILE opsdk cache info`", "cache", "info")


def test_cache_clear_of_a_cache_that_is_a_file(invoke, cache_is_a_file):
    _run(invoke, "`OPSDK_CACHE_DIR=FILE opsdk cache clear`", "cache", "clear")


def test_build_with_a_cache_that_is_a_file(invoke, cache_is_a_file):
    _run(invoke, "`OPSDK_CACHE_DIR=FILE opsdk build`", "build")


def test_doctor_with_a_cache_that_is_a_file(invoke, cache_is_a_file):
    _run(invoke, "`OPSDK_CACHE_DIR=FILE opsdk doctor`", "doctor")


def test_op_call_with_a_cache_that_is_a_file(cache_is_a_file, monkeypatch):
    monkeypatch.setattr(kernel_module, "_cache_warnings", set())
    kernel = make_kernel("badinputs.cachefile", cuda=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        numpy.testing.assert_array_equal(kernel(numpy.ones(2)), [2.0, 2.0])
    expect("an op called with `OPSDK_CACHE_DIR=FILE`", 0, "\n".join(str(w.message) for w in caught))


def test_an_opsdk_error_no_command_catches_is_one_line(invoke, monkeypatch):
    from opsdk.errors import PackNotFoundError

    def broken():
        raise PackNotFoundError("no pack 'x'\n  expected: a loaded pack\n  got: 'x'")

    monkeypatch.setattr("opsdk.cli.list_cmd.collect", broken)
    result = _run(invoke, "an opsdk error no command catches", "list")
    assert result.stderr == "Error: no pack 'x'; expected: a loaded pack; got: 'x'\n"


def test_a_bug_in_opsdk_is_an_internal_error_that_says_how_to_report_it(invoke, monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr("opsdk.cli.list_cmd.collect", lambda: 1 / 0)
    result = _run(invoke, "a bug in opsdk", "list")
    assert "ZeroDivisionError" in result.stderr and "report it" in result.stderr
    (saved,) = tmp_path.glob("opsdk-crash-*.txt")
    assert "Traceback (most recent call last)" in saved.read_text()


def test_every_row_of_the_table_has_its_test():
    # a test names its row literally; expect() fails with KeyError for a row the table lacks
    source = Path(__file__).read_text(encoding="utf-8")
    untested = [row for row in ROWS if f'"{row}"' not in source]
    assert not untested
    assert len(ROWS) >= 20
