"""Full mode: the cheaper side computed in full, the other probed in groups."""
import numpy as np
import pytest

from opsdk.gradcheck import check_gradients, full

from gradcheck.wrong_ops import CORRECT, WRONG_FIRST_ORDER, counting, tensors


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
