"""Side checks: backward run twice agrees; zero grad_outputs give zero gradients."""
import numpy as np

from opsdk.autograd import PyLayer
from opsdk.verification.gradcheck import check_gradients, fast

from verification.gradcheck.wrong_ops import NonDeterministic, tensors


def args(seed=0, *shapes):
    return tensors(np.random.default_rng(seed), "float64", *(shapes or [(3, 4)]))


class SumOfSquares(PyLayer):
    """Backward returns the gradient for grad_output 1, whatever it gets: on a scalar output
    the Jacobian (seeded with 1) cannot see it, the zero-grad check can."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x * x).sum()

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 2 * x


def test_nondeterminism_within_nondet_tol_passes():
    assert check_gradients(NonDeterministic.apply, args(), nondet_tol=1e-6, seed=0).ok


def test_nondeterminism_names_the_output_and_input_and_the_difference():
    (failure,) = [f for f in check_gradients(NonDeterministic.apply, args(), seed=0).failures
                  if f.kind == "reentrant"]
    assert (failure.output, failure.input) == (0, 0)
    assert "differ by up to" in failure.message and "nondet_tol=0" in failure.message


def test_ignored_grad_on_a_scalar_output_is_caught_by_the_zero_grad_check():
    report = check_gradients(SumOfSquares.apply, args(), seed=0)
    assert [f.kind for f in report.failures] == ["zero_grad"]
    assert report.failures[0].input == 0


def test_zero_grad_check_can_be_turned_off():
    assert check_gradients(SumOfSquares.apply, args(), check_undefined_grad=False, seed=0).ok


def test_doubled_seed_giving_twice_the_gradient_settles_both_checks_in_one_backward():
    calls = []

    class Counted(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            calls.append(1)
            return dy * 2

    assert check_gradients(Counted.apply, args(), fast_mode=True, seed=0).ok
    assert len(calls) == fast.N_WEIGHTS + 1


def test_multi_output_op_sees_undefined_grads_for_the_other_outputs():
    seen = []

    class Two(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, da, db):
            seen.append((da is None, db is None))
            return (0 if da is None else da * 2) + (0 if db is None else db * 3)

    assert check_gradients(Two.apply, args(), seed=0).ok
    assert (False, True) in seen and (True, False) in seen


def test_a_nan_in_one_run_is_said_so_never_a_difference_of_zero():
    calls = []

    class NanSecondTime(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            calls.append(1)
            return dy * (2 if len(calls) == 1 else float("nan"))

    failures = [f for f in check_gradients(NanSecondTime.apply, args(), seed=0).failures
                if f.kind == "reentrant"]
    assert failures and "NaN in one run and not in the other" in failures[0].message
    assert "differ by up to 0" not in failures[0].message
