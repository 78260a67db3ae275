"""The numeric side: func re-run on float64 copies, a fallback for float32-only kernels."""
import numpy as np

import opsdk
from opsdk.autograd import PyLayer
from opsdk.errors import DTypeError
from opsdk.verification.gradcheck import check_gradients
from opsdk.verification.gradcheck.evaluate import Evaluator
from opsdk.verification.gradcheck.problem import Problem


def f32(values):
    return opsdk.to_tensor(values, dtype="float32", stop_gradient=False)


class Float32Only(PyLayer):
    """A 'C kernel' that rejects anything but float32; right or wrong backward by factor."""

    factor = 1.0

    @staticmethod
    def forward(ctx, x):
        if x.dtype != opsdk.float32:
            raise DTypeError(f"float32_only: expected: float32; got: {x.dtype}")
        ctx.save_for_backward(x)
        return opsdk.sin(x) * x

    @classmethod
    def backward(cls, ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * (opsdk.cos(x) * x + opsdk.sin(x)) * cls.factor


class WrongFloat32Only(Float32Only):
    factor = 1.05


def test_numeric_side_runs_in_float64_for_float32_inputs():
    seen = []
    x = f32([1.0, 2.0])
    Evaluator(Problem(lambda t: seen.append(t.dtype) or t * 2, (x,)), 1e-6)
    assert seen[-1] == np.float64


def test_numeric_precision_is_float64_when_func_keeps_the_dtype():
    ev = Evaluator(Problem(lambda t: t * 2, (f32([1.0]),)), 1e-6)
    assert ev.precision == np.float64 and ev.eps == 1e-6 and ev.note is None


def test_float32_only_kernel_falls_back_to_float32_with_a_larger_step():
    ev = Evaluator(Problem(Float32Only.apply, (f32([0.5, 1.0]),)), 1e-6)
    assert ev.precision == np.float32
    assert ev.eps > 1e-3
    assert "func failed on float64 copies" in ev.note and "DTypeError" in ev.note


def test_fallback_passes_a_right_op_and_says_so_in_the_report():
    report = check_gradients(Float32Only.apply, (f32([0.5, 1.0, -0.7]),), seed=0)
    assert report.ok
    assert any("inputs' own dtypes" in n for n in report.notes)


def test_fallback_still_catches_a_wrong_op():
    report = check_gradients(WrongFloat32Only.apply, (f32([0.5, 1.0, -0.7]),), seed=0)
    assert report.pairs() == {(0, 0)}


def test_func_that_casts_down_gets_float32_precision_and_a_note():
    ev = Evaluator(Problem(lambda t: (t * 2).astype("float32"), (f32([1.0]),)), 1e-6)
    assert ev.precision == np.float32 and "returned float32 on float64 inputs" in ev.note


def test_column_gives_the_central_difference_and_the_slope_jump():
    x = opsdk.to_tensor([0.0, 2.0], dtype="float64", stop_gradient=False)
    ev = Evaluator(Problem(opsdk.abs, (x,)), 1e-6)
    central, jump = ev.column(0)
    np.testing.assert_allclose(central, [0.0, 0.0], atol=1e-9)
    np.testing.assert_allclose(jump, [2.0, 0.0], atol=1e-6)


def test_directional_derivative_matches_the_jacobian_times_u():
    x = opsdk.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    ev = Evaluator(Problem(lambda t: t * t, (x,)), 1e-6)
    np.testing.assert_allclose(ev.directional({0: np.array([1.0, -1.0])}), [2.0, -4.0],
                               rtol=1e-8)


def test_perturbations_are_undone_after_each_call():
    x = opsdk.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    ev = Evaluator(Problem(lambda t: t * t, (x,)), 1e-6)
    ev.column(1)
    ev.directional({0: np.array([1.0, 1.0])})
    np.testing.assert_array_equal(ev.evaluate(), ev.base)


def test_func_that_differentiates_internally_gets_a_graph():
    def grad_norm(t):
        (g,) = opsdk.grad((t * t * t).sum(), t, create_graph=True)
        return g * g

    x = opsdk.to_tensor([1.0, -2.0], dtype="float64", stop_gradient=False)
    ev = Evaluator(Problem(grad_norm, (x,)), 1e-6)
    np.testing.assert_allclose(ev.evaluate(), [9.0, 144.0])
    assert ev.with_graph


def test_float64_inputs_reuse_the_recorded_outputs_as_the_base_point():
    calls = []
    x = opsdk.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    ev = Evaluator(Problem(lambda t: calls.append(1) or t * 3, (x,)), 1e-6)
    assert len(calls) == 1
    np.testing.assert_array_equal(ev.base, [3.0, 6.0])
