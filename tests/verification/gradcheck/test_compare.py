"""Block comparison: failures per (output, input) and kinks told apart from wrong gradients."""
import numpy as np

import opsdk
from opsdk.autograd import PyLayer
from opsdk.verification.gradcheck import check_gradients


def leaf(values):
    return opsdk.to_tensor(values, dtype="float64", stop_gradient=False)


class Relu(PyLayer):
    """ReLU whose backward uses ``at_zero`` as the slope at exactly 0."""

    at_zero = 0.0

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return opsdk.maximum(x, opsdk.zeros_like(x))

    @classmethod
    def backward(cls, ctx, dy):
        (x,) = ctx.saved_tensor()
        slope = np.where(x.numpy() > 0, 1.0, np.where(x.numpy() == 0, cls.at_zero, 0.0))
        return dy * opsdk.to_tensor(slope)


class ReluWrongAtZero(Relu):
    at_zero = 3.0


def test_subgradient_at_a_kink_is_not_a_failure():
    report = check_gradients(Relu.apply, (leaf([0.0, 1.0, -1.0]),), seed=0)
    assert report.ok and report.kinks_skipped == 1


def test_value_outside_the_one_sided_derivatives_at_a_kink_fails_and_shows_them():
    report = check_gradients(ReluWrongAtZero.apply, (leaf([0.0, 1.0, -1.0]),), seed=0)
    (failure,) = report.failures
    (worst,) = failure.worst
    assert worst.in_index == (0,)
    np.testing.assert_allclose(worst.kink, (0.0, 1.0), atol=1e-6)
    assert "left derivative 0, right 1" in worst.describe("y", "x")


def test_input_within_a_step_of_the_kink_counts_as_on_it():
    report = check_gradients(Relu.apply, (leaf([3e-7, 1.0]),), seed=0)
    assert report.ok and report.kinks_skipped == 1


def test_output_cut_from_the_graph_but_depending_on_the_input_fails():
    x = leaf([1.0, 2.0])
    report = check_gradients(lambda t: (t * 2, opsdk.to_tensor(t.numpy() * 3)), (x,), seed=0)
    (failure,) = report.failures
    assert (failure.output, failure.input) == (1, 0)
    assert "not connected to the graph" in failure.message


def test_nan_analytic_gradient_is_a_failure():
    class NanGrad(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return dy * float("nan")

    report = check_gradients(NanGrad.apply, (leaf([1.0]),), check_undefined_grad=False, seed=0)
    assert report.pairs() == {(0, 0)}


class Noisy(PyLayer):
    """x**2 whose forward adds a tiny random noise: left and right slopes differ by noise."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        noise = np.random.default_rng().standard_normal(x.shape) * 1e-9
        return x * x + opsdk.to_tensor(noise)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * 2 * x * 1.5


def test_noise_or_a_wrong_gradient_is_never_excused_as_a_kink():
    report = check_gradients(Noisy.apply, (leaf([0.5, 1.0, -1.0]),), seed=0)
    assert not report.ok and report.kinks_skipped == 0
    assert "non-differentiable" not in str(report)


def test_an_input_written_in_place_is_reported_as_that():
    class Doubles(PyLayer):
        @staticmethod
        def forward(ctx, x):
            x._data *= 2
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    report = check_gradients(Doubles.apply, (leaf([1.0, 2.0]),), seed=0)
    (failure,) = report.failures
    assert failure.kind == "inplace" and "wrote into its input inputs[0]" in failure.message


def test_a_backward_writing_into_its_incoming_gradient_is_reported_as_that():
    class Scales(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            dy._data *= 2
            return dy

    report = check_gradients(Scales.apply, (leaf([1.0, 2.0]),), seed=0)
    assert "grad_write" in [f.kind for f in report.failures]
