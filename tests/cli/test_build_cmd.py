"""``opsdk build``: C kernels compiled into the cache, CUDA sources compile-checked, failures exit 1."""
from opsdk.kernels import find_nvcc

from .conftest import BAD_C, BAD_CU


def rows(result, pack):
    """{(kernel, backend): (result, detail)} from build's table."""
    found = {}
    for line in result.stdout.splitlines():
        if line.startswith(f"{pack}."):
            kernel, backend, outcome, *detail = line.split()
            found[(kernel, backend)] = (outcome, " ".join(detail))
    return found


def test_compiles_c_kernels_into_the_cache(invoke, in_test_pack):
    pack = in_test_pack(cuda=False)
    result = invoke("build", "--pack", pack)
    assert result.exit_code == 0, result.output
    outcome, detail = rows(result, pack)[(f"{pack}.twice", "c")]
    assert outcome == "ok" and detail.startswith("compiled")


def test_a_source_built_before_loads_from_the_cache(invoke, in_test_pack):
    first = in_test_pack(cuda=False)
    invoke("build", "--pack", first)
    second = in_test_pack(cuda=False)  # same C source, new Kernel object: nothing memoised in-process
    outcome, detail = rows(invoke("build", "--pack", second), second)[(f"{second}.twice", "c")]
    assert outcome == "ok" and detail.startswith("cached")


def test_c_compile_error_exits_1_with_file_and_line(invoke, in_test_pack):
    pack = in_test_pack(c_code=BAD_C, cuda=False)
    result = invoke("build", "--pack", pack)
    assert result.exit_code == 1
    outcome, detail = rows(result, pack)[(f"{pack}.twice", "c")]
    assert outcome == "FAILED"
    assert ":2:" in result.stdout and "error" in result.stdout
    assert "1 failed" in result.stdout


def test_cuda_sources_are_compile_checked_where_nvcc_exists(invoke, in_test_pack):
    pack = in_test_pack()
    outcome, detail = rows(invoke("build", "--pack", pack), pack)[(f"{pack}.twice", "cuda")]
    if find_nvcc() is None:
        assert (outcome, detail.split(" (")[0]) == ("skipped", "nvcc not found")
    else:
        assert outcome == "ok" and detail.startswith("nvcc --ptx")


def test_cuda_compile_error_exits_1_with_file_and_line_where_nvcc_exists(invoke, in_test_pack):
    pack = in_test_pack(cu_code=BAD_CU)
    result = invoke("build", "--pack", pack)
    outcome, detail = rows(result, pack)[(f"{pack}.twice", "cuda")]
    if find_nvcc() is None:
        assert (result.exit_code, outcome) == (0, "skipped")
    else:
        assert (result.exit_code, outcome) == (1, "FAILED")
        assert ':3: error: expected a ";"' in result.stdout


def test_cuda_check_is_skipped_with_the_reason_without_nvcc(invoke, in_test_pack, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    pack = in_test_pack()
    result = invoke("build", "--pack", pack)
    assert result.exit_code == 0, result.output
    outcome, detail = rows(result, pack)[(f"{pack}.twice", "cuda")]
    assert outcome == "skipped" and "nvcc not found" in detail


def test_unknown_pack_exits_2_listing_the_loaded_ones(invoke):
    result = invoke("build", "--pack", "nosuchpack")
    assert result.exit_code == 2
    assert "no op pack named 'nosuchpack'" in result.stderr and "opsdk" in result.stderr


def test_failed_pack_exits_1_saying_it_did_not_load(invoke, in_test_pack):
    pack = in_test_pack(fail=True)
    result = invoke("build", "--pack", pack)
    assert result.exit_code == 1
    assert f"pack '{pack}' failed to load" in result.stderr


def test_an_unusable_cache_is_one_line_and_exit_1(invoke, in_test_pack, tmp_path, monkeypatch):
    pack = in_test_pack(cuda=False)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "file"))
    result = invoke("build", "--pack", pack)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1, result.output
    assert "cannot build: the kernel cache" in result.stderr and "OPSDK_CACHE_DIR" in result.stderr
