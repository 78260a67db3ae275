"""``opsdk list``: ops with pack, version and the backends that run here; failed packs with their error."""
import json


def test_lists_each_op_with_version_and_backends(invoke, in_test_pack):
    pack = in_test_pack()
    result = invoke("list")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith(f"{pack}.twice"))
    assert row.split()[:5] == [f"{pack}.twice", "1.2", "python", "c", "cuda"]


def test_lists_every_loaded_pack_with_its_op_count(invoke, in_test_pack):
    pack = in_test_pack()
    result = invoke("list")
    assert f"  {pack} " in result.stdout and "1 op(s)" in result.stdout
    assert "  opsdk " in result.stdout


def test_backend_without_compiler_is_not_in_runs_here_and_says_why(invoke, in_test_pack, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    pack = in_test_pack()
    data = json.loads(invoke("list", "--json").stdout)
    (op,) = [o for o in data["ops"] if o["qualname"] == f"{pack}.twice"]
    assert "c" not in op["available"]
    assert "no C compiler" in op["unavailable"]["c"]
    assert "c: no C compiler" in invoke("list").stdout


def test_failed_pack_is_listed_with_stage_error_and_fix(invoke, in_test_pack):
    pack = in_test_pack(fail=True)
    result = invoke("list")
    assert result.exit_code == 0
    assert f"{pack} (in-process) failed at hook: RuntimeError: the pack's hook broke" in result.stdout
    assert "fix: its register_ops hook raised" in result.stdout


def test_json_has_ops_packs_and_failures(invoke, in_test_pack):
    good, bad = in_test_pack(), in_test_pack(fail=True)
    data = json.loads(invoke("list", "--json").stdout)
    assert {o["qualname"] for o in data["ops"]} >= {f"{good}.twice"}
    assert {p["name"] for p in data["packs"]} >= {"opsdk", good}
    (failure,) = data["failures"]
    assert failure["pack"] == bad and failure["stage"] == "hook" and "Traceback" in failure["traceback"]
