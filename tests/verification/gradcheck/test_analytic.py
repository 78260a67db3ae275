"""The analytic side: VJPs through the op's backward, and checks on what comes back."""
import numpy as np
import pytest

import opsdk
from opsdk.verification.gradcheck import analytic as analytic_module
from opsdk.verification.gradcheck.analytic import Analytic, CheckAborted
from opsdk.verification.gradcheck.problem import Problem
from opsdk.tensor import _wrap

from verification.gradcheck.wrong_ops import RawCube


def leaf(values):
    return opsdk.to_tensor(values, dtype="float64", stop_gradient=False)


def test_jacobian_has_one_row_per_output_element():
    x = leaf([1.0, 2.0])
    jac = Analytic(Problem(lambda t: t * t, (x,))).jacobian()
    np.testing.assert_array_equal(jac, [[2.0, 0.0], [0.0, 4.0]])


def test_output_without_a_graph_has_zero_rows():
    x = leaf([1.0, 2.0])
    jac = Analytic(Problem(lambda t: (t * 3, t.detach()), (x,))).jacobian()
    np.testing.assert_array_equal(jac, [[3, 0], [0, 3], [0, 0], [0, 0]])


def test_seed_rounds_values_to_the_output_dtype():
    x = opsdk.to_tensor([1.0], dtype="float16", stop_gradient=False)
    seed = Analytic(Problem(lambda t: t * 2, (x,))).seed(0, [0.1])
    assert seed.dtype == np.float16 and seed[0] == np.float16(0.1)


def test_gradient_with_another_dtype_is_a_grad_dtype_failure(monkeypatch):
    x = leaf([1.0, 2.0])
    analytic = Analytic(Problem(lambda t: t * 2, (x,)))
    monkeypatch.setattr(analytic_module, "run_backward",
                        lambda *a, **k: [_wrap(np.ones(2, dtype=np.float32))])
    analytic.vjp_one(0, analytic.seed(0, [1.0, 0.0]))
    (failure,) = analytic.failures
    assert failure.kind == "grad_dtype" and failure.input == 0
    assert "expected: float64; got: float32" in failure.message


def test_gradient_with_another_shape_is_a_grad_shape_failure(monkeypatch):
    x = leaf([1.0, 2.0])
    analytic = Analytic(Problem(lambda t: t * 2, (x,)))
    monkeypatch.setattr(analytic_module, "run_backward",
                        lambda *a, **k: [_wrap(np.ones((1, 2)))])
    analytic.vjp_one(0, analytic.seed(0, [1.0, 0.0]))
    assert [f.kind for f in analytic.failures] == ["grad_shape"]


def test_grad_checks_can_be_turned_off(monkeypatch):
    x = leaf([1.0, 2.0])
    analytic = Analytic(Problem(lambda t: t * 2, (x,)), check_grad_dtypes=False)
    monkeypatch.setattr(analytic_module, "run_backward",
                        lambda *a, **k: [_wrap(np.ones(2, dtype=np.float32))])
    analytic.vjp_one(0, analytic.seed(0, [1.0, 0.0]))
    assert analytic.failures == []


def test_first_order_only_backward_aborts_with_a_failure_naming_the_output():
    x = leaf([1.0, 2.0])

    def first_order(t):
        (g,) = opsdk.grad(RawCube.apply(t).sum(), t, create_graph=True)
        return g

    analytic = Analytic(Problem(first_order, (x,)))
    with pytest.raises(CheckAborted):
        analytic.jacobian()
    (failure,) = analytic.failures
    assert failure.kind == "double_backward" and failure.output == 0
