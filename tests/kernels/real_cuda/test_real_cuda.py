"""What a CUDA author wants from the simulator, on kernels ported from real projects (expected.py).

Slow (every entry is built and run on the simulator, in worker processes: about 40 s with a warm
kernel cache, 5 to 10 minutes on a cold one, on 2 busy cores) and,
today, failing on the bugs the simulator misses or reports without their faulting line: the
target of issue 22. Marked ``slow``; ``python tests/kernels/real_cuda/run_matrix.py`` prints the
same verdicts as a table.

Every correct kernel must build unmodified, agree with NumPy and raise no alarm under every
schedule; every reachable bug must be reported (a disagreement with NumPy is enough only for
the classes no sanitizer can name: a wrong warp width, an overflow), with the cause of its
class and the file:line of its faulting statement; the global-memory races under every
schedule, since no schedule makes their result wrong.
"""
import os
import subprocess
import sys

import pytest

from . import expected, run_matrix

pytestmark = pytest.mark.slow

OTHER_SCHEDULES = ("reverse", "shuffle:1")
REACHABLE = [b for b in expected.BUGS if b.reachable]
REPORTED = [b for b in REACHABLE if expected.CLASSES[b.cls][1] != "value"]
VALUE_ONLY = [b for b in REACHABLE if expected.CLASSES[b.cls][1] == "value"]
GLOBAL_RACES = [b for b in REACHABLE if b.cls == "global-race"]


@pytest.fixture(scope="module")
def matrix():
    """{schedule: {id: record}}: everything under the default schedule, the correct kernels and
    the global races under the other two as well. The default schedule runs in the simulator's
    strict mode (OPSDK_CUDA_SIM_STRICT=1): issue 22 wants a mask naming exited lanes reported
    there (it is undefined since Volta, though GPUs mostly survive it), and no correct kernel may
    raise an alarm in it either."""
    build = run_matrix.default_build_dir()
    everything = [e.id for e in expected.CORRECT] + [b.id for b in REACHABLE]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPSDK_CUDA_SIM_STRICT", "1")  # the workers inherit it
        results = {"forward": run_matrix.run_schedule("forward", everything, build, log=False)}
    again = [e.id for e in expected.CORRECT] + [b.id for b in GLOBAL_RACES]
    for schedule in OTHER_SCHEDULES:
        results[schedule] = run_matrix.run_schedule(schedule, again, build, log=False)
    return results


def _said(record):
    verdict = record["verdict"]
    return f"[{verdict['status']}] {verdict['message'][:400]}"


@pytest.mark.parametrize("entry", expected.CORRECT, ids=lambda e: e.id)
def test_correct_kernel_builds_unmodified_and_agrees_with_numpy(matrix, entry):
    for schedule, records in matrix.items():
        record = records[entry.id]
        assert not record.get("unmodified_error"), f"refused unmodified: {record['unmodified_error'][:300]}"
        assert record["verdict"].get("ok"), f"{schedule}: {_said(record)}"


@pytest.mark.parametrize("bug", REPORTED, ids=lambda b: b.id)
def test_bug_is_reported_with_its_cause(matrix, bug):
    record = matrix["forward"][bug.id]
    assert record["verdict"]["status"] == "error", f"not reported ({expected.CLASSES[bug.cls][0]}): {_said(record)}"
    assert record["verdict"]["cause_ok"], f"cause not named (wanted: {bug.cause}): {_said(record)}"


@pytest.mark.parametrize("bug", [b for b in REPORTED if b.fault], ids=lambda b: b.id)
def test_bug_report_names_the_faulting_line(matrix, bug):
    record = matrix["forward"][bug.id]
    named = record["verdict"].get("named", [])
    assert record["verdict"].get("fault_line_ok"), (
        f"wanted {os.path.basename(record.get('source', bug.cu))}:{bug.fault} ({bug.fault_text!r}); named: {named}")


@pytest.mark.parametrize("bug", VALUE_ONLY, ids=lambda b: b.id)
def test_wrong_value_bug_disagrees_with_numpy(matrix, bug):
    assert matrix["forward"][bug.id]["verdict"]["detected"], _said(matrix["forward"][bug.id])


@pytest.mark.parametrize("schedule", OTHER_SCHEDULES)
@pytest.mark.parametrize("bug", GLOBAL_RACES, ids=lambda b: b.id)
def test_global_race_is_reported_under_every_schedule(matrix, bug, schedule):
    record = matrix[schedule][bug.id]
    assert record["verdict"]["status"] == "error" and record["verdict"]["cause_ok"], _said(record)


def test_a_process_ended_by_a_kernel_error_prints_only_that_error():
    # the usual end of a simulator run that finds something: the error's traceback keeps the
    # device arrays alive until the interpreter shuts down, and their finalizers must stay quiet
    code = ("import opsdk, cupy\n"
            "x = cupy.arange(5, dtype=cupy.float32)\n"
            "cupy.RawModule(code='extern \"C\" __global__ void k(float *y) { y[0] = undefined_name; }')"
            ".get_function('k')\n")
    env = dict(os.environ, OPSDK_CUDA_SIM="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert "undefined_name" in done.stderr, done.stderr[-800:]
    assert "Exception ignored" not in done.stderr, done.stderr[-800:]
