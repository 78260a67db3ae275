"""gradcheck / gradgradcheck: verdicts, raising, the seed, where they are reachable from."""

import numpy as np
import pytest

import opsdk
from opsdk.errors import GradcheckError, OpArgumentError, OpsdkWarning
from opsdk.verification.gradcheck import check_gradients, gradcheck, gradgradcheck

from verification.gradcheck.wrong_ops import DetachedCube, SignFlip, Swish, tensors


def inputs(dtype="float64", *shapes, seed=0):
    return tensors(np.random.default_rng(seed), dtype, *(shapes or [(3, 4)]))


def test_correct_op_passes():
    assert gradcheck(lambda x: Swish.apply(x, 1.5), inputs()) is True


def test_wrong_op_raises_gradcheck_error_carrying_the_report():
    with pytest.raises(GradcheckError) as info:
        gradcheck(SignFlip.apply, inputs(), seed=3)
    report = info.value.report
    assert not report.ok and report.seed == 3
    assert str(report) == str(info.value)


def test_wrong_op_returns_false_without_raise_exception():
    assert gradcheck(SignFlip.apply, inputs(), raise_exception=False) is False


def test_same_seed_gives_the_same_report():
    first = check_gradients(SignFlip.apply, inputs(), fast_mode=True, seed=11)
    again = check_gradients(SignFlip.apply, inputs(), fast_mode=True, seed=11)
    assert str(first) == str(again)


def test_seed_is_drawn_when_not_given_and_shown_for_replay():
    report = check_gradients(SignFlip.apply, inputs())
    assert isinstance(report.seed, int)
    assert f"seed={report.seed}" in str(report)


def test_gradcheck_does_not_touch_the_global_random_state():
    opsdk.seed(5)
    np.random.seed(5)
    expected = (opsdk.rand([3]).numpy(), np.random.rand(3))
    opsdk.seed(5)
    np.random.seed(5)
    gradcheck(lambda x: Swish.apply(x), inputs(), fast_mode=True)
    gradgradcheck(lambda x: Swish.apply(x), inputs())
    np.testing.assert_array_equal(opsdk.rand([3]).numpy(), expected[0])
    np.testing.assert_array_equal(np.random.rand(3), expected[1])


def test_inputs_are_left_untouched():
    (x,) = inputs()
    before = x.numpy().copy()
    gradcheck(lambda t: Swish.apply(t), (x,))
    np.testing.assert_array_equal(x.numpy(), before)
    assert x.grad is None


def test_a_single_tensor_is_accepted_as_inputs():
    (x,) = inputs()
    assert gradcheck(lambda t: Swish.apply(t), x)


def test_non_tensor_and_stop_gradient_inputs_are_passed_through():
    (x,) = inputs()
    w = opsdk.to_tensor(np.ones((3, 4)))
    assert gradcheck(lambda t, k, c: Swish.apply(t, k) * c, (x, 2.0, w))


def test_nothing_to_differentiate_is_an_error():
    with pytest.raises(OpArgumentError, match="stop_gradient=False"):
        gradcheck(opsdk.tanh, (opsdk.to_tensor([1.0]),))


def test_float32_op_passes_where_float32_central_differences_would_not():
    # |x| ~ 30: a float32 step of 1e-6 vanishes; the numeric side runs in float64
    x = opsdk.to_tensor(np.linspace(20, 40, 12).reshape(3, 4), dtype="float32",
                        stop_gradient=False)
    assert gradcheck(lambda t: opsdk.sin(t) * t, (x,))


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:Input #0 requires gradient")
def test_torch_gradcheck_fails_the_same_float32_op():
    torch = pytest.importorskip("torch")
    x = torch.linspace(20, 40, 12, dtype=torch.float32).reshape(3, 4).requires_grad_()
    assert not torch.autograd.gradcheck(lambda t: torch.sin(t) * t, (x,),
                                        raise_exception=False)


def test_float16_op_passes():
    (x,) = inputs("float16")
    assert gradcheck(lambda t: opsdk.tanh(t) * t, (x,))


def test_kink_with_a_valid_subgradient_passes_with_a_warning():
    x = opsdk.to_tensor([0.0, 1.0, -2.0], dtype="float64", stop_gradient=False)
    with pytest.warns(OpsdkWarning, match="non-differentiable point"):
        # clip's gradient at its bound is 1 (a valid subgradient; the central difference is 0.5)
        assert gradcheck(lambda t: opsdk.clip(t, min=0.0), (x,))


def test_gradgradcheck_passes_for_a_twice_differentiable_op():
    assert gradgradcheck(lambda x: Swish.apply(x, 1.5), inputs())


def test_gradgradcheck_fails_for_a_wrong_second_derivative():
    with pytest.raises(GradcheckError, match="gradgradcheck failed"):
        gradgradcheck(DetachedCube.apply, inputs())


def test_gradgradcheck_takes_grad_outputs():
    (x,) = inputs()
    v = opsdk.to_tensor(np.ones((3, 4)), stop_gradient=False)
    assert gradgradcheck(lambda t: Swish.apply(t), (x,), grad_outputs=[v])


def test_gradgradcheck_wrong_number_of_grad_outputs_is_an_error():
    (x,) = inputs()
    with pytest.raises(OpArgumentError, match="one grad_output per differentiable output"):
        gradgradcheck(lambda t: Swish.apply(t), (x,), grad_outputs=[x, x])


def test_gradcheck_is_reachable_as_opsdk_autograd_gradcheck():
    assert opsdk.autograd.gradcheck(lambda x: Swish.apply(x), inputs()) is True
    assert opsdk.autograd.gradgradcheck(lambda x: Swish.apply(x), inputs()) is True
