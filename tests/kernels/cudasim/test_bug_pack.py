"""The planted CUDA bugs (tests/fixtures/packs/cuda_bugs.cu): `opsdk check --backend cuda --simulate`
flags every one, naming its cause, and flags none of their fixed twins."""
import json

import pytest
from click.testing import CliRunner

from fixtures.packs import load, registered
from opsdk.cli import main

CAUSES = load("cuda_bug_ops").CAUSES
# the checks that run CUDA kernels on the samples and at the derived sizes: the others flag the
# same bugs again, at four times the suite time
CUDA_CHECKS = ("forward", "backward_agreement", "gradgradcheck", "cuda_sizes")


def _check(pack, *args):
    result = CliRunner().invoke(main, ["check", "--pack", pack, "--json", *args])
    return result.exit_code, json.loads(result.output)["results"]


@pytest.fixture(scope="module")
def buggy():
    """{backend: (exit code, results)} of the bug pack checked on cuda (simulated) and python."""
    with registered("cuda_bugs", "cudabugs"):
        yield {"cuda": _check("cudabugs", "--backend", "cuda", "--simulate", *(f"--check={c}" for c in CUDA_CHECKS)),
               "python": _check("cudabugs", "--backend", "python")}


@pytest.mark.parametrize("op", sorted(CAUSES))
def test_every_planted_bug_is_flagged_with_its_cause(buggy, op):
    code, results = buggy["cuda"]
    assert code == 1
    flagged = [r for r in results if r["op"] == f"cudabugs.{op}" and r["status"] in ("fail", "error")]
    assert flagged, f"cudabugs.{op}: no cuda check failed"
    assert any(cause in r["detail"] for r in flagged for cause in CAUSES[op]), (
        f"cudabugs.{op}: no failure names the cause {CAUSES[op]!r}:\n" + "\n".join(r["detail"][:300] for r in flagged))


def test_the_python_kernels_of_the_bug_pack_are_right(buggy):
    code, results = buggy["python"]
    assert code == 0, [r["case_id"] for r in results if r["status"] not in ("pass", "n/a")]


@pytest.mark.slow
def test_the_fixed_twins_pass_every_cuda_check():
    with registered("cuda_fixed", "cudafixed"):
        code, results = _check("cudafixed", "--backend", "cuda", "--simulate")
    bad = [f"{r['case_id']}: {r['detail'][:300]}" for r in results if r["status"] not in ("pass", "n/a")]
    assert code == 0 and not bad, "\n".join(bad)
    assert {r["check"] for r in results if r["status"] == "pass"} >= {"forward", "gradgradcheck", "cuda_sizes"}
