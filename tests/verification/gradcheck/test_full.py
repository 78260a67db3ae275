"""Full mode: the cheaper side computed in full, the other probed in groups."""
import numpy as np
import pytest

from opsdk.verification.gradcheck import check_gradients, full

from verification.gradcheck.wrong_ops import CORRECT, WRONG_FIRST_ORDER, counting, tensors


@pytest.fixture(params=["analytic in full", "numeric in full"])
def side(request, monkeypatch):
    analytic_first = request.param == "analytic in full"
    monkeypatch.setattr(full, "_analytic_is_cheaper", lambda *a: analytic_first)
    return request.param


@pytest.mark.parametrize("case", ["swapped inputs", "missing transpose", "wrong second output"])
def test_either_side_in_full_blames_the_same_pairs(side, case):
    func, shapes, pairs = WRONG_FIRST_ORDER[case]
    report = check_gradients(func, tensors(np.random.default_rng(0), "float64", *shapes), seed=0)
    assert {(f.output, f.input) for f in report.failures if f.kind == "jacobian"} == pairs


@pytest.mark.parametrize("case", ["softmax", "matmul", "broadcast divide"])
def test_either_side_in_full_passes_a_right_op(side, case):
    func, shapes = CORRECT[case]
    assert check_gradients(func, tensors(np.random.default_rng(0), "float64", *shapes),
                           seed=0).ok


def test_elementwise_op_needs_one_grouped_numeric_probe(monkeypatch):
    monkeypatch.setattr(full, "_analytic_is_cheaper", lambda *a: True)
    func, calls = counting(lambda x: x * x)
    assert check_gradients(func, tensors(np.random.default_rng(0), "float64", (50,)), seed=0,
                           check_undefined_grad=False).ok
    # the graph (float64: also the base point), one central difference for the whole group
    assert len(calls) == 3


def test_numeric_side_in_full_calls_func_twice_per_input_element(monkeypatch):
    monkeypatch.setattr(full, "_analytic_is_cheaper", lambda *a: False)
    func, calls = counting(lambda x: x * x)
    assert check_gradients(func, tensors(np.random.default_rng(0), "float64", (7,)), seed=0).ok
    assert len(calls) == 1 + 2 * 7


def test_the_side_computed_in_full_is_counted_not_timed(monkeypatch):
    # a timing made the side, and with a call budget the verdict, depend on the machine's load
    monkeypatch.setattr("time.perf_counter", lambda: pytest.fail("full mode must not time calls"))
    func, calls = counting(lambda x: x.sum(axis=-1))
    assert check_gradients(func, tensors(np.random.default_rng(0), "float64", (3, 5)), seed=0,
                           check_undefined_grad=False).ok
    # analytic in full (3 outputs against 15 inputs), then numeric probes of the columns grouped
    # by the rows they share: the 5 positions of a row, two calls each, after the graph's call
    assert len(calls) == 1 + 2 * 5
