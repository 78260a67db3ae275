"""How many processes a check run uses, and when it must not fork (the runs themselves, forked
by the real command, are in tests/cli/test_check_jobs.py)."""
import sys
import types

import pytest

from opsdk.verification.check import parallel


class _Case:
    def __init__(self, op):
        self.op = op


def _cases(*ops):
    return [_Case(op) for op in ops]


@pytest.fixture
def forkable(monkeypatch):
    """A process where forking is allowed (the test process may have torch or OpenMP loaded)."""
    monkeypatch.setattr(parallel, "fork_refusal", lambda: None)


def test_an_ops_cases_stay_in_one_group_in_the_planned_order():
    a, b = object(), object()
    assert parallel._groups(_cases(a, a, b, a, b)) == [[0, 1, 3], [2, 4]]


def test_no_more_processes_than_ops(forkable):
    a, b = object(), object()
    assert parallel.jobs_for(_cases(a, b, a), 8) == 2
    assert parallel.jobs_for(_cases(a, a), 8) == 1


def test_auto_takes_the_environment_then_the_cpus(forkable, monkeypatch):
    ops = _cases(*(object() for _ in range(10)))
    monkeypatch.setenv("OPSDK_CHECK_JOBS", "3")
    assert parallel.jobs_for(ops, "auto") == 3
    monkeypatch.delenv("OPSDK_CHECK_JOBS")
    monkeypatch.setattr(parallel, "auto_jobs", lambda: 2)
    assert parallel.jobs_for(ops, "auto") == 2 and parallel.jobs_for(ops, None) == 2


def test_auto_never_exceeds_four_processes(monkeypatch):
    # each process may use the per-sample memory budget, a quarter of the machine by default
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert parallel.auto_jobs() == 4


@pytest.mark.parametrize("name", ["torch", "jax", "paddle", "tensorflow"])
def test_a_framework_with_threads_of_its_own_means_one_process(monkeypatch, name):
    monkeypatch.setattr(parallel.sys, "platform", "linux")
    monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    assert name in parallel.fork_refusal()
    a, b = object(), object()
    assert parallel.jobs_for(_cases(a, b), 2) == 1


def test_a_real_cupy_means_one_process_and_the_simulator_does_not(monkeypatch):
    monkeypatch.setattr(parallel.sys, "platform", "linux")
    for name in ("torch", "jax", "paddle", "tensorflow"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr("opsdk.verification.check.threads.loaded_runtimes", lambda: [])
    monkeypatch.setitem(sys.modules, "cupy", types.ModuleType("cupy"))
    assert "CuPy" in parallel.fork_refusal()
    simulated = types.ModuleType("cupy")
    simulated.__opsdk_simulator__ = True
    monkeypatch.setitem(sys.modules, "cupy", simulated)
    assert parallel.fork_refusal() is None


def test_a_loaded_openmp_runtime_means_one_process(monkeypatch):
    # libgomp's thread pool does not survive fork: a child's next parallel region would hang
    monkeypatch.setattr(parallel.sys, "platform", "linux")
    for name in ("cupy", "torch", "jax", "paddle", "tensorflow"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr("opsdk.verification.check.threads.loaded_runtimes", lambda: ["libgomp"])
    assert "OpenMP" in parallel.fork_refusal()


def test_another_python_thread_means_one_process(monkeypatch):
    import threading

    monkeypatch.setattr(parallel.sys, "platform", "linux")
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert "threads" in parallel.fork_refusal()
    finally:
        release.set()
        other.join()


def test_off_linux_means_one_process(monkeypatch):
    monkeypatch.setattr(parallel.sys, "platform", "darwin")
    assert parallel.fork_refusal() == "fork is only used on Linux"


def test_a_child_dying_between_checks_blocks_only_what_it_had_not_answered():
    # results already received stay as they are; nothing is blamed as the crashed case
    op = types.SimpleNamespace(qualname="p.op")
    cases = [types.SimpleNamespace(op=op, backend="python", dtype="float64", check=c,
                                   case_id=f"p.op[{c}]") for c in ("a", "b", "c")]
    child = parallel._Child(0, None, None, "/nonexistent")
    child.group, child.unanswered, child.running = [0, 1, 2], [2], None
    results = parallel._death_results(child, cases, "killed by signal SIGKILL")
    assert list(results) == [2] and results[2].status == "blocked"
    assert "ended in between two checks: killed by signal SIGKILL" in results[2].detail
