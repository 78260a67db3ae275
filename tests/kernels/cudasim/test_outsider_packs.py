"""The outsider's packs (tests/fixtures/packs/outsider): `opsdk check --backend cuda --simulate` flags
each of 33 realistic CUDA bugs, naming its cause, and no correct kernel of a 24-op zoo that uses
2-D/3-D grids, dynamic shared memory, shuffles of every kind and width, votes, atomics and
atomicCAS loops, cooperative groups, half precision, views and __constant__ memory."""
import json

import pytest
from click.testing import CliRunner

from fixtures.packs import load, registered
from opsdk.cli import main

EXPECTED = load("outsider.expected")
# the checks that run CUDA kernels on the samples and at the derived sizes
CUDA_CHECKS = ("forward", "backward_agreement", "gradgradcheck", "cuda_sizes")


def _check(pack, *args):
    result = CliRunner().invoke(main, ["check", "--pack", pack, "--json", "--no-progress", *args])
    return result.exit_code, json.loads(result.output)["results"]


def _cuda(pack, *ops):
    return _check(pack, *ops, "--backend", "cuda", "--simulate", *(f"--check={c}" for c in CUDA_CHECKS))


def _flagged(results, op):
    return [r for r in results if r["op"] == op and r["status"] in ("fail", "error")]


# the default suite checks three bugs of three classes alone (seconds); the whole bug pack and the
# zoo (a minute of simulated CUDA) run in the full verification
SAMPLE = ("bounds_le", "no_step_barrier", "divergent_barrier")


@pytest.fixture(scope="module")
def sample():
    with registered("cuda_bugs2", "cudabugs2"):
        yield _cuda("cudabugs2", *(f"cudabugs2.{op}" for op in SAMPLE))


@pytest.fixture(scope="module")
def bugs():
    with registered("cuda_bugs2", "cudabugs2"):
        yield {"cuda": _cuda("cudabugs2"),
               "python": _check("cudabugs2", "--backend", "python", "--check=forward", "--check=gradcheck",
                                "--check=gradgradcheck")}


@pytest.fixture(scope="module")
def zoo():
    with registered("cuda_zoo", "cudazoo"):
        yield _cuda("cudazoo")


@pytest.mark.parametrize("op", SAMPLE)
def test_a_planted_bug_checked_alone_is_flagged_naming_its_cause(sample, op):
    code, results = sample
    assert code == 1
    assert {r["op"] for r in results} == {f"cudabugs2.{o}" for o in SAMPLE}
    _assert_flagged(results, op)


def _assert_flagged(results, op):
    flagged = _flagged(results, f"cudabugs2.{op}")
    assert flagged, f"cudabugs2.{op}: no cuda check failed"
    causes = EXPECTED.BUG_CAUSES[op]
    assert any(cause in r["detail"] for r in flagged for cause in causes), (
        f"cudabugs2.{op}: no failure names {causes!r}:\n" + "\n".join(r["detail"][:400] for r in flagged))


@pytest.mark.slow
def test_the_bug_pack_registers_every_planted_bug(bugs):
    _, results = bugs["cuda"]
    assert {r["op"] for r in results} == {f"cudabugs2.{op}" for op in EXPECTED.BUG_CAUSES}


@pytest.mark.slow
@pytest.mark.parametrize("op", sorted(EXPECTED.BUG_CAUSES))
def test_every_planted_bug_is_flagged_naming_its_cause(bugs, op):
    code, results = bugs["cuda"]
    assert code == 1
    _assert_flagged(results, op)


@pytest.mark.slow
def test_the_python_kernels_of_the_bug_pack_are_right(bugs):
    code, results = bugs["python"]
    assert code == 0, [f"{r['op']}[{r['backend']}-{r['dtype']}-{r['check']}]: {r['detail'][:200]}" for r in results if r["status"] not in ("pass", "n/a")]


@pytest.mark.slow
def test_no_correct_kernel_of_the_zoo_is_flagged(zoo):
    _, results = zoo
    assert len({r["op"] for r in results}) == 24
    wrong = [f"{r['op']}[{r['backend']}-{r['dtype']}-{r['check']}]: {r['detail'][:400]}" for r in results if r["status"] not in ("pass", "n/a")
             and r["op"].split(".", 1)[1] not in EXPECTED.ZOO_FLAGGED]
    assert not wrong, "\n".join(wrong)
    assert {r["check"] for r in results if r["status"] == "pass"} >= set(CUDA_CHECKS)


@pytest.mark.slow
@pytest.mark.parametrize("op", sorted(EXPECTED.ZOO_FLAGGED))
def test_what_the_simulator_cannot_reproduce_it_names(zoo, op):
    # passing is right too: a compiler that saturates conversions as the GPU does (clang)
    _, results = zoo
    for r in _flagged(results, f"cudazoo.{op}"):
        assert any(cause in r["detail"] for cause in EXPECTED.ZOO_FLAGGED[op]), r["detail"][:400]
