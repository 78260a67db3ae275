"""Derived tolerances (what `opsdk check` uses): as tight as the numerics allow."""
import numpy as np

import opsdk
from opsdk.autograd import PyLayer
from opsdk.verification.gradcheck import check_gradients, check_second_order


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def _cube(factor):
    from verification.check.stateful_ops import cube

    return cube(backward_scale=factor)


X = np.linspace(-2, 2, 12).reshape(3, 4) + 0.05


def test_a_fourth_digit_error_passes_the_classic_tolerance_and_fails_the_derived_one():
    wrong = _cube(1.0001).apply
    assert check_gradients(wrong, (leaf(X),), seed=0).ok
    report = check_gradients(wrong, (leaf(X),), atol=0, rtol=0, derived=True, seed=0)
    assert not report.ok and "tolerances derived from the numerics" in str(report)


def test_a_right_gradient_passes_derived_tolerances_in_both_dtypes_with_margin():
    for dtype in ("float32", "float64"):
        report = check_gradients(_cube(1.0).apply, (leaf(X, dtype),), atol=0, rtol=0,
                                 derived=True, seed=0)
        assert report.ok and report.ratio < 0.2, (dtype, report.ratio)


def test_a_declared_tolerance_loosens_the_derived_one_and_the_report_says_so():
    report = check_gradients(_cube(1.0001).apply, (leaf(X),), atol=0, rtol=1e-3, derived=True,
                             seed=0)
    assert report.ok and report.loosened


def test_fast_mode_uses_derived_tolerances_too():
    report = check_gradients(_cube(1.0001).apply, (leaf(X),), atol=0, rtol=0, derived=True,
                             fast_mode=True, seed=0)
    assert not report.ok


def test_gradgradcheck_names_the_arguments_as_gradcheck_does():
    class Swish(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * opsdk.sigmoid(x)

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            s = opsdk.sigmoid(x.detach())  # cuts part of the second derivative
            return dy * (s + x * s * (1 - s))

    report = check_second_order(Swish.apply, (leaf(X),), input_names=["x"], output_names=["y"],
                                atol=0, rtol=0, derived=True, seed=0)
    text = str(report)
    assert "grad_x (shape [3, 4], float64) w.r.t. x" in text and "inputs[0]" not in text
