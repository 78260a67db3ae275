"""``opsdk check`` (opsdk/cli/check_cmd.py), run in-process with click's CliRunner."""
import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from fixtures.packs import registered
from opsdk.cli import main


@pytest.fixture(scope="module")
def packs():
    with registered("good_pack", "goodpack"), registered("bad_pack", "badpack"), \
            registered("broken_pack", "brokenpack"):
        yield


def _run(*args):
    return CliRunner().invoke(main, ["check", *args], catch_exceptions=False)


def test_passing_ops_exit_0_with_one_line_per_op_and_the_summary_last(packs):
    result = _run("goodpack.mul", "--dtype", "float64", "--no-progress")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert lines[0].split()[:2] == ["ok", "goodpack.mul"] and " passed" in lines[0]
    assert lines[-1].startswith("OK: 1 op:") and len(lines) == 3  # the op, a blank line, the summary


def test_verbose_shows_a_table_row_per_check_with_its_time_and_each_check_kind_s_time(packs):
    result = _run("goodpack.mul", "--dtype", "float64", "-v", "--no-progress")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split() == ["op", "backend", "dtype", "check", "result",
                                                     "worst", "error", "time"]
    assert ["goodpack.mul", "python", "float64", "gradcheck", "pass", "-"] in \
        [line.split()[:6] for line in result.stdout.splitlines()]
    times = next(line for line in result.stdout.splitlines() if line.startswith("time per check: "))
    assert "gradcheck " in times and " s (" in times
    assert result.stdout.strip().splitlines()[-1].startswith("OK: 1 op:")


def test_max_memory_is_refused_before_running_when_it_means_nothing(packs):
    result = CliRunner().invoke(main, ["check", "goodpack.mul", "--max-memory", "lots"])
    assert result.exit_code == 2
    assert "Invalid value for '--max-memory': expected: a size such as 4G" in result.output


def test_max_memory_holds_for_the_run_only(packs):
    from opsdk.verification.check import memory

    before = memory.budget()
    result = _run("goodpack.mul", "--dtype", "float32", "--check", "forward", "--max-memory",
                  "1G", "--no-progress")
    assert result.exit_code == 0 and memory.budget() == before


def test_failing_check_exits_1_with_its_report(packs):
    result = _run("badpack.cube_f32_drift", "--check", "forward")
    assert result.exit_code == 1
    assert "FAIL badpack.cube_f32_drift[c-float32-forward]" in result.output
    assert "replay: opsdk check badpack.cube_f32_drift --backend c --dtype float32" in result.output
    assert result.output.strip().splitlines()[-1].startswith("FAILED:")


def test_pack_that_failed_to_load_fails_the_run(packs):
    result = _run("--pack", "brokenpack")
    assert result.exit_code == 1
    assert "FAIL pack brokenpack failed to load" in result.output


def test_json_report_has_every_result(packs):
    result = _run("goodpack.cube", "--backend", "python", "--json")
    document = json.loads(result.output)
    assert document["ok"] is True and result.exit_code == 0
    assert {r["check"] for r in document["results"]} >= {"gradcheck", "protocol", "hooks"}
    assert document["summary"]["fail"] == 0


def test_junit_xml_has_a_testcase_per_check(packs, tmp_path):
    path = tmp_path / "check.xml"
    result = _run("badpack.cube_f32_drift", "--dtype", "float32", "--backend", "c",
                  "--junit-xml", str(path))
    root = ET.parse(path).getroot()
    names = {case.get("name"): case for case in root.iter("testcase")}
    assert result.exit_code == 1
    assert names["c-float32-forward"].find("failure") is not None
    assert names["c-float32-gradcheck"].find("failure") is None


def test_default_is_full_mode_with_every_broadcast_sample_and_fast_keeps_a_few(packs):
    result = _run("goodpack.mul", "--dtype", "float64", "--check", "gradcheck", "--json")
    (row,) = json.loads(result.output)["results"]
    # its own, 8 broadcast and 6 regime samples (all but x10: its domain is declared)
    assert (row["mode"], row["samples"]) == ("full", 15)
    fast = _run("goodpack.mul", "--dtype", "float64", "--check", "gradcheck", "--fast", "--json")
    (row,) = json.loads(fast.output)["results"]
    assert (row["mode"], row["samples"]) == ("fast", 4)  # and the x0.1 regime


def test_unknown_op_is_a_usage_error(packs):
    result = CliRunner().invoke(main, ["check", "goodpack.cubee"])
    assert result.exit_code == 2 and "goodpack.cube" in result.output


def test_a_plain_progress_line_per_op_when_stderr_is_not_a_terminal(packs):
    result = _run("goodpack.cube", "goodpack.mul", "--backend", "python", "--dtype", "float64")
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and "goodpack.cube: " in lines[0] and "goodpack.mul: " in lines[1]
    assert lines[1].startswith("[") and " passed" in lines[1]


def test_no_progress_lines_mix_into_json(packs):
    result = _run("goodpack.cube", "--backend", "python", "--json")
    assert result.stderr == ""
