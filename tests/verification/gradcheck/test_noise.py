"""The measured rounding noise of float32 backwards: cancellations in correct code pass, smooth
errors below float64 (a float16 intermediate, a constant off) still fail."""
import numpy as np

import opsdk
from opsdk.autograd import PyLayer
from opsdk.verification.gradcheck import check_gradients


def leaf(values, dtype="float32"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def _tanh(intermediate=None, recompute=False):
    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = opsdk.to_tensor(np.tanh(x.numpy()))
            ctx.save_for_backward(x if recompute else y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (saved,) = ctx.saved_tensor()
            y = np.tanh(saved.numpy()) if recompute else saved.numpy()
            if intermediate is not None:
                y = y.astype(intermediate)
            return opsdk.to_tensor((dy.numpy() * (1 - y * y)).astype(dy.numpy().dtype))
    return Tanh


SATURATED = np.linspace(3.0, 6.0, 12).reshape(3, 4)


def _check(function, values, dtype="float32"):
    return check_gradients(function.apply, (leaf(values, dtype),), atol=0, rtol=0, derived=True,
                           seed=0)


def test_a_saturated_tanh_whose_backward_cancels_in_float32_passes():
    assert _check(_tanh(), SATURATED).ok


def test_so_does_one_that_recomputes_tanh_from_x_in_backward():
    assert _check(_tanh(recompute=True), SATURATED).ok


def test_a_float16_intermediate_in_backward_still_fails():
    report = _check(_tanh(np.float16), np.linspace(-2.0, 2.0, 12).reshape(3, 4))
    assert not report.ok and "Jacobian elements exceed the tolerance" in str(report)


def test_a_constant_wrong_in_its_fifth_digit_still_fails_in_float32():
    class Scaled(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return opsdk.to_tensor(np.tanh(x.numpy()))

        @staticmethod
        def backward(ctx, dy):
            return dy * 1.0001
    x = np.linspace(-1e-3, 1e-3, 12).reshape(3, 4)  # tanh' = 1 to 1e-6 here
    assert not _check(Scaled, x).ok


def test_float64_backwards_get_no_measured_allowance():
    from opsdk.verification.gradcheck.noise import RoundingNoise
    from opsdk.verification.gradcheck.problem import Problem

    problem = Problem(_tanh().apply, (leaf(SATURATED, "float64"),))
    noise = RoundingNoise(problem, np.eye(12), np.tanh(SATURATED).ravel(), np.random.default_rng(0))
    assert not noise.applies(0, 0)
