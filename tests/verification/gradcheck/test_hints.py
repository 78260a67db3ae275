"""Hints: the pattern of a disagreement names its likely cause."""
import numpy as np
import pytest

import opsdk
from opsdk.autograd import PyLayer
from opsdk.errors import GradcheckError
from opsdk.verification.gradcheck import check_gradients, gradgradcheck

from verification.gradcheck.wrong_ops import (WRONG_FIRST_ORDER, DetachedCube, IgnoresGrad, OneSideOfZero,
                                 tensors)


def hints_of(func, *shapes, order=1, seed=0):
    args = tensors(np.random.default_rng(seed), "float64", *shapes)
    if order == 2:
        with pytest.raises(GradcheckError) as info:
            gradgradcheck(func, args, seed=seed)
        report = info.value.report
    else:
        report = check_gradients(func, args, seed=seed)
    return " | ".join(h for f in report.failures for h in f.hints)


@pytest.mark.parametrize("case, expected", [
    ("sign flip", "sign flip"),
    ("constant factor", "constant factor: analytic ≈ 2 × numeric"),
    ("missing transpose", "transposed"),
    ("mean instead of sum", "mean instead of sum over broadcast dims"),
    ("swapped inputs", "swapped: this is the numeric gradient of inputs[1]"),
    ("wrong second output", "sign flip"),
])
def test_structural_pattern_is_named(case, expected):
    func, shapes, _ = WRONG_FIRST_ORDER[case]
    assert expected in hints_of(func, *shapes)


def test_ignored_incoming_grad_is_named():
    assert "gradient ignores the incoming grad: every output element" in hints_of(
        IgnoresGrad.apply, (3, 4))


def test_error_on_one_side_of_zero_is_named():
    assert "wrong on one side of zero: every mismatch is at a negative element" in hints_of(
        OneSideOfZero.apply, (3, 4))


def test_one_wrong_element_gets_no_side_of_zero_hint():
    func, shapes, _ = WRONG_FIRST_ORDER["one element off by 1%"]
    assert "side of zero" not in hints_of(func, *shapes)


def test_broadcast_dims_not_reduced_is_named():
    class FirstRowOnly(PyLayer):
        @staticmethod
        def forward(ctx, x, bias):
            return x + bias

        @staticmethod
        def backward(ctx, dy):
            return dy, dy[0]

    assert "broadcast dims not reduced" in hints_of(FirstRowOnly.apply, (3, 4), (4,))


def test_zero_where_non_zero_is_named():
    class MissingTerm(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, dz):
            return dz * 0, dz * 0

    assert "zero where non-zero" in hints_of(MissingTerm.apply, (3,), (3,))


def test_second_order_zero_hint_names_a_backward_cut_from_the_graph():
    assert "tensors computed in forward" in hints_of(DetachedCube.apply, (4,), order=2)


def test_kink_outside_the_subgradient_range_is_named():
    class BadAbs(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return opsdk.abs(x)

        @staticmethod
        def backward(ctx, dy):
            return dy * 5.0

    x = opsdk.to_tensor([0.0, 2.0], dtype="float64", stop_gradient=False)
    report = check_gradients(BadAbs.apply, (x,), seed=0)
    assert any("non-differentiable point" in h for h in report.failures[0].hints)
