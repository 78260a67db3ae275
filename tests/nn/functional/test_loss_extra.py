"""The extra losses: values and gradients against PyTorch, second order against numeric."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from opsdk.errors import OpArgumentError, ShapeError
from helpers.frameworks import assert_raises_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed

P = np.array([0.2, 0.7, 0.9, 0.4])
T = np.array([0.0, 1.0, 1.0, 0.3])


def _both(ours_fn, torch_fn, *arrays, leaves=None):
    """Values and gradients agree with torch (for the first `leaves` inputs; all by default)."""
    torch = pytest.importorskip("torch")
    n = len(arrays) if leaves is None else leaves
    xs = [paddle.to_tensor(a, dtype="float64", stop_gradient=i >= n)
          for i, a in enumerate(arrays)]
    ours = ours_fn(*xs)
    ours.backward()
    ts = [torch.tensor(a, requires_grad=i < n) for i, a in enumerate(arrays)]
    theirs = torch_fn(torch, *ts)
    theirs.backward()
    np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=1e-10)
    for x, t in zip(xs[:n], ts[:n]):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_l1_and_smooth_l1_match_torch(reduction):
    _both(lambda a, b: F.l1_loss(a, b, reduction), lambda t, a, b: t.nn.functional.l1_loss(
        a, b, reduction=reduction), P * 3, T)
    _both(lambda a, b: F.smooth_l1_loss(a, b, reduction),
          lambda t, a, b: t.nn.functional.smooth_l1_loss(a, b, reduction=reduction), P * 3, T)


def test_binary_cross_entropy_and_with_logits_match_torch():
    _both(F.binary_cross_entropy, lambda t, p, y: t.nn.functional.binary_cross_entropy(p, y), P, T)
    logits = signed(4, seed=2) * 5
    _both(F.binary_cross_entropy_with_logits,
          lambda t, x, y: t.nn.functional.binary_cross_entropy_with_logits(x, y), logits, T)
    pw = np.array([2.0, 0.5, 1.0, 3.0])
    _both(lambda x, y: F.binary_cross_entropy_with_logits(
        x, y, pos_weight=paddle.to_tensor(pw, dtype="float64")),
        lambda t, x, y: t.nn.functional.binary_cross_entropy_with_logits(
            x, y, pos_weight=t.tensor(pw)), logits, T)


def test_binary_cross_entropy_with_logits_at_a_zero_logit_has_the_derivative():
    # a deliberate difference (docs/paddle.md): Paddle's kernel gives sigmoid(0) - y - 1 here
    for pos_weight in (None, paddle.to_tensor([1.0, 1.0, 1.0], dtype="float64")):
        z = paddle.to_tensor([0.0, 0.0, 0.0], dtype="float64", stop_gradient=False)
        y = paddle.to_tensor([0.0, 0.3, 1.0], dtype="float64")
        F.binary_cross_entropy_with_logits(z, y, reduction="sum", pos_weight=pos_weight).backward()
        assert np.allclose(z.grad.numpy(), [0.5, 0.2, -0.5])


def test_nll_loss_with_weight_and_ignore_index_matches_torch():
    logp = np.log(np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1]]))
    labels = [2, -100, 0]
    w = np.array([1.0, 2.0, 0.5])
    torch = pytest.importorskip("torch")
    x = paddle.to_tensor(logp, stop_gradient=False)
    ours = F.nll_loss(x, paddle.to_tensor(labels), weight=paddle.to_tensor(w))
    ours.backward()
    xt = torch.tensor(logp, requires_grad=True)
    theirs = torch.nn.functional.nll_loss(xt, torch.tensor(labels), weight=torch.tensor(w))
    theirs.backward()
    np.testing.assert_allclose(ours.item(), theirs.item(), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-12)


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides")
@pytest.mark.parametrize("reduction", ["mean", "sum", "batchmean"])
def test_kl_div_matches_torch(reduction):
    logq = np.log(np.array([[0.2, 0.8], [0.6, 0.4]]))
    p = np.array([[0.5, 0.5], [0.0, 1.0]])
    _both(lambda a, b: F.kl_div(a, b, reduction), lambda t, a, b: t.nn.functional.kl_div(
        a, b, reduction=reduction), logq, p, leaves=1)


@pytest.mark.parametrize("fn", [
    lambda x: F.smooth_l1_loss(x * 3, paddle.to_tensor(T)),
    lambda x: F.binary_cross_entropy_with_logits(x * 4, paddle.to_tensor(T)),
    lambda x: F.binary_cross_entropy(F.sigmoid(x), paddle.to_tensor(T)),
])
def test_gradients_match_numeric_to_second_order(fn):
    assert_gradients(fn, [signed(4, seed=5)])


def test_binary_cross_entropy_at_zero_and_one_stays_finite():
    loss = F.binary_cross_entropy(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 0.0]),
                                  reduction="none")
    np.testing.assert_allclose(loss.numpy(), [100.0, 100.0])


def test_bad_arguments_are_named():
    with pytest.raises(OpArgumentError, match="l1_loss: argument 'reduction'"):
        F.l1_loss(paddle.ones([2]), paddle.ones([2]), reduction="avg")
    with pytest.raises(ShapeError, match="binary_cross_entropy: input and label"):
        F.binary_cross_entropy(paddle.ones([2]) * 0.5, paddle.ones([3]))
    with pytest.raises(OpArgumentError, match=r"nll_loss: labels must lie in \[0, 2\)"):
        F.nll_loss(paddle.zeros([1, 2]), paddle.to_tensor([5]))


def test_loss_layers_call_their_functionals():
    p, t = paddle.to_tensor(P), paddle.to_tensor(T)
    assert paddle.nn.L1Loss(reduction="sum")(p, t).item() == pytest.approx(
        F.l1_loss(p, t, "sum").item())
    assert paddle.nn.BCELoss()(p, t).item() == pytest.approx(F.binary_cross_entropy(p, t).item())
    assert paddle.nn.SmoothL1Loss(delta=0.5)(p, t).item() == pytest.approx(
        F.smooth_l1_loss(p, t, delta=0.5).item())


def test_huber_loss_and_the_smooth_l1_form():
    x, y = paddle.to_tensor([0.2, -1.5, 3.0, 0.9]), paddle.to_tensor([0.0, 0.0, 1.0, 1.0])
    huber = paddle.nn.HuberLoss(reduction="none", delta=0.5)(x, y)
    np.testing.assert_allclose(huber.numpy(), [0.02, 0.625, 0.875, 0.005], rtol=1e-6)
    smooth = F.smooth_l1_loss(x, y, reduction="none", delta=0.5, is_huber=False)
    np.testing.assert_allclose(smooth.numpy(), [0.04, 1.25, 1.75, 0.01], rtol=1e-6)


def test_square_error_cost_and_label_smooth():
    np.testing.assert_allclose(F.square_error_cost(paddle.to_tensor([1.0, 3.0]),
                                                   paddle.to_tensor([2.0, 1.0])).numpy(), [1, 4])
    np.testing.assert_allclose(F.label_smooth(paddle.to_tensor([[0.0, 1.0]]), epsilon=0.2)
                               .numpy(), [[0.1, 0.9]], rtol=1e-6)
    for epsilon in (2, -0.5):  # Paddle: a ValueError
        with pytest.raises(ValueError, match="label_smooth: argument 'epsilon' must be between"):
            F.label_smooth(paddle.to_tensor([[0.0, 1.0]]), epsilon=epsilon)


def test_softmax_with_cross_entropy_keeps_the_class_axis():
    logits = np.array([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
    x = paddle.to_tensor(logits, stop_gradient=False)
    loss, sm = F.softmax_with_cross_entropy(x, paddle.to_tensor([[0], [2]]), return_softmax=True)
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    assert loss.shape == [2, 1]
    np.testing.assert_allclose(loss.numpy()[:, 0], [-logp[0, 0], -logp[1, 2]], rtol=1e-12)
    np.testing.assert_allclose(sm.numpy(), np.exp(logp), rtol=1e-12)
    ignored = F.softmax_with_cross_entropy(x, paddle.to_tensor([[-100], [1]]))
    assert ignored.numpy()[0, 0] == 0.0
    soft = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    assert_gradients(lambda v: F.softmax_with_cross_entropy(v, paddle.to_tensor(soft),
                                                            soft_label=True), [logits])


def test_in_place_activations_write_into_the_tensor():
    x = paddle.to_tensor([-1.0, 2.0], stop_gradient=False)
    y = x * 1
    assert F.relu_(y) is y and y.numpy().tolist() == [0.0, 2.0]
    y.sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 1.0]
    z = paddle.to_tensor([[1.0, 2.0]])
    F.softmax_(z)
    np.testing.assert_allclose(z.numpy().sum(), 1.0, rtol=1e-6)
    for fn in (F.elu_, F.leaky_relu_, F.hardtanh_, F.thresholded_relu_, F.tanh_):
        w = paddle.to_tensor([-2.0, 0.5])
        assert fn(w) is w


@pytest.mark.paddle
def test_softmax_with_cross_entropy_matches_paddle():
    from helpers.frameworks import assert_same_as_paddle
    logits = np.array([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
    assert_same_as_paddle(lambda P, x, lab: P.nn.functional.softmax_with_cross_entropy(x, lab),
                          [logits, np.array([[0], [2]])], dtypes=["float64", "int64"])


@pytest.mark.paddle
@pytest.mark.parametrize("p", [[1.5, 0.5], [-0.5, 0.5], [1.0 + 1e-6, 0.5], [float("nan"), 0.5]])
def test_binary_cross_entropy_refuses_an_input_outside_0_1_as_paddle(p):
    err = assert_raises_as_paddle(lambda P: P.nn.functional.binary_cross_entropy(
        P.to_tensor(p), P.to_tensor([1.0, 0.0])))
    assert "binary_cross_entropy" in str(err)


def test_binary_cross_entropy_takes_0_and_1_and_an_empty_input():
    y = F.binary_cross_entropy(paddle.to_tensor([1.0, 0.0]), paddle.to_tensor([1.0, 0.0]))
    assert float(y) == 0.0
    assert np.isnan(float(F.binary_cross_entropy(paddle.zeros([0]), paddle.zeros([0]))))
