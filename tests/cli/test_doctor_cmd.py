"""``opsdk doctor``: each thing opsdk needs, what was found, and a fix for each problem."""
import json

CHECKS = ("Python", "opsdk", "NumPy", "cffi", "C compiler", "nvcc", "CuPy", "GPU", "cache", "packs")


def findings(invoke, *args):
    result = invoke("doctor", "--json", *args)
    return result, {f["name"]: f for f in json.loads(result.stdout)}


def test_reports_every_check(invoke):
    result, found = findings(invoke)
    assert set(CHECKS) <= set(found)
    assert found["Python"]["status"] == "ok"
    assert found["opsdk"]["status"] == "ok" and "templates v" in found["opsdk"]["detail"]


def test_text_report_ends_with_the_counts(invoke):
    result = invoke("doctor")
    assert result.exit_code == 0, result.output
    assert "error(s)" in result.stdout.splitlines()[-1]


def test_missing_compiler_is_a_warning_with_a_fix(invoke, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    result, found = findings(invoke)
    assert result.exit_code == 0
    assert found["C compiler"]["status"] == "warn"
    assert "install gcc or clang" in found["C compiler"]["fix"]


def test_missing_nvcc_is_a_warning_with_a_fix(invoke, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    _, found = findings(invoke)
    assert found["nvcc"]["status"] == "warn" and "CUDA toolkit" in found["nvcc"]["fix"]


def test_cache_shows_its_directory(invoke, tmp_path):
    _, found = findings(invoke)
    assert found["cache"]["detail"].startswith(str(tmp_path / "cache"))


def test_failed_pack_is_an_error_with_fix_and_exit_1(invoke, in_test_pack):
    pack = in_test_pack(fail=True)
    result, found = findings(invoke)
    assert result.exit_code == 1
    failure = found[f"pack {pack}"]
    assert failure["status"] == "error" and "failed at hook" in failure["detail"]
    assert "register_ops hook raised" in failure["fix"]


def test_verbose_shows_the_failed_pack_traceback(invoke, in_test_pack):
    in_test_pack(fail=True)
    result = invoke("doctor", "--verbose")
    assert "Traceback (most recent call last)" in result.stdout
    assert "RuntimeError: the pack's hook broke" in result.stdout


def test_environment_variables_that_change_behaviour_are_shown(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "python")
    _, found = findings(invoke)
    assert found["$OPSDK_BACKEND"]["detail"] == "'python'"


def test_a_cache_that_is_a_file_is_an_error_with_a_fix(invoke, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "file"))
    result, found = findings(invoke)
    assert result.exit_code == 1
    assert found["cache"]["status"] == "error" and "is not a directory" in found["cache"]["detail"]
    assert "OPSDK_CACHE_DIR" in found["cache"]["fix"]


def test_a_read_only_prebuilt_cache_is_an_error_that_says_its_builds_still_load(
        invoke, in_test_pack, tmp_path, read_only):
    invoke("build", "--pack", in_test_pack(cuda=False))
    read_only(tmp_path / "cache")
    result, found = findings(invoke)
    assert result.exit_code == 1
    assert "not writable" in found["cache"]["detail"]
    assert "1 prebuilt build(s) still load" in found["cache"]["detail"]


def test_an_unknown_opsdk_backend_is_an_error_naming_the_valid_values(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "bogus")
    result, found = findings(invoke)
    assert result.exit_code == 1
    finding = found["$OPSDK_BACKEND"]
    assert finding["status"] == "error" and "OPSDK_BACKEND='bogus' is not valid" in finding["detail"]
    assert "python, c, cuda, auto" in finding["detail"] and "unset OPSDK_BACKEND" in finding["fix"]


def test_a_variable_whose_value_is_ignored_is_a_warning_saying_what_it_expects(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_BUILD_TIMEOUT", "soon")
    result, found = findings(invoke)
    assert result.exit_code == 0
    finding = found["$OPSDK_BUILD_TIMEOUT"]
    assert finding["status"] == "warn" and "expected: a number of seconds > 0" in finding["detail"]
    assert "it is ignored (OPSDK_BUILD_TIMEOUT unset means 600 s)" in finding["detail"]


def test_a_misspelt_variable_is_a_warning_naming_the_real_one(invoke, monkeypatch):
    monkeypatch.setenv("OPSDK_CUDASIM", "1")
    _, found = findings(invoke)
    assert found["$OPSDK_CUDASIM"]["status"] == "warn"
    assert found["$OPSDK_CUDASIM"]["fix"] == "rename it OPSDK_CUDA_SIM"
