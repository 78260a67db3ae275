"""cross_entropy and mse_loss: Paddle's semantics, stability and gradients."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from helpers.gradients import assert_gradients
from helpers.samples import signed
from opsdk.errors import DTypeError, OpArgumentError, ShapeError


def _log_softmax(x, axis=-1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


LOGITS = np.array([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [1.0, 1.0, 1.0]])
LABELS = np.array([0, 2, 1, 1])


def _nll(logits, labels):
    return -_log_softmax(logits)[np.arange(len(labels)), labels]


def test_cross_entropy_mean_with_integer_labels_is_the_mean_nll():
    loss = F.cross_entropy(paddle.to_tensor(LOGITS, dtype="float32"), paddle.to_tensor(LABELS))
    assert loss.shape == [] and loss.dtype == np.float32
    np.testing.assert_allclose(loss.item(), _nll(LOGITS, LABELS).mean(), rtol=1e-6)


def test_cross_entropy_gradient_is_softmax_minus_onehot_over_n():
    x = paddle.to_tensor(LOGITS, dtype="float64", stop_gradient=False)
    F.cross_entropy(x, paddle.to_tensor(LABELS)).backward()
    p = np.exp(_log_softmax(LOGITS))
    want = (p - np.eye(3)[LABELS]) / len(LABELS)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12)


def test_cross_entropy_labels_with_a_trailing_axis_of_one_give_the_same_loss():
    a = F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor(LABELS[:, None]))
    b = F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor(LABELS))
    assert a.item() == b.item()


def test_cross_entropy_reduction_none_keeps_the_label_shape():
    x = paddle.to_tensor(LOGITS)
    flat = F.cross_entropy(x, paddle.to_tensor(LABELS), reduction="none")
    col = F.cross_entropy(x, paddle.to_tensor(LABELS[:, None]), reduction="none")
    assert flat.shape == [4] and col.shape == [4, 1]
    np.testing.assert_allclose(flat.numpy(), _nll(LOGITS, LABELS), rtol=1e-6)


def test_cross_entropy_reduction_sum_adds_the_losses():
    loss = F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor(LABELS), reduction="sum")
    np.testing.assert_allclose(loss.item(), _nll(LOGITS, LABELS).sum(), rtol=1e-6)


def test_cross_entropy_mean_with_the_default_ignore_index_divides_by_every_sample():
    # Paddle 3.3.1: a negative ignore_index (the default -100) without weights leaves the
    # ignored samples in the mean's count; their losses and gradients are 0
    labels = np.array([0, -100, 1, -100])
    x = paddle.to_tensor(LOGITS, dtype="float64", stop_gradient=False)
    loss = F.cross_entropy(x, paddle.to_tensor(labels))
    loss.backward()
    want = _nll(LOGITS[[0, 2]], np.array([0, 1])).sum() / 4
    np.testing.assert_allclose(loss.item(), want, rtol=1e-12)
    np.testing.assert_array_equal(x.grad.numpy()[[1, 3]], 0.0)


def test_cross_entropy_mean_with_a_class_as_ignore_index_divides_by_the_counted_samples():
    labels = np.array([0, 2, 1, 2])
    loss = F.cross_entropy(paddle.to_tensor(LOGITS, dtype="float64"), paddle.to_tensor(labels),
                           ignore_index=2)
    np.testing.assert_allclose(loss.item(), _nll(LOGITS[[0, 2]], np.array([0, 1])).mean(),
                               rtol=1e-12)


def test_cross_entropy_custom_ignore_index():
    labels = np.array([0, 2, 2, 1])
    loss = F.cross_entropy(paddle.to_tensor(LOGITS, dtype="float64"), paddle.to_tensor(labels),
                           ignore_index=2)
    np.testing.assert_allclose(loss.item(), _nll(LOGITS[[0, 3]], labels[[0, 3]]).mean(),
                               rtol=1e-12)


def test_cross_entropy_all_ignored_gives_zero_not_nan():
    loss = F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor([-100] * 4))
    assert loss.item() == 0.0


def test_cross_entropy_class_weights_divide_by_summed_weights():
    w = np.array([1.0, 2.0, 0.5])
    loss = F.cross_entropy(paddle.to_tensor(LOGITS, dtype="float64"), paddle.to_tensor(LABELS),
                           weight=paddle.to_tensor(w, dtype="float64"))
    per = _nll(LOGITS, LABELS) * w[LABELS]
    np.testing.assert_allclose(loss.item(), per.sum() / w[LABELS].sum(), rtol=1e-12)


def test_cross_entropy_soft_labels_are_minus_sum_of_target_times_log_softmax():
    soft = np.array([[0.7, 0.2, 0.1], [0.0, 0.0, 1.0], [0.3, 0.3, 0.4], [0.5, 0.5, 0.0]])
    loss = F.cross_entropy(paddle.to_tensor(LOGITS, dtype="float64"),
                           paddle.to_tensor(soft, dtype="float64"), soft_label=True)
    want = -(soft * _log_softmax(LOGITS)).sum(axis=1).mean()
    np.testing.assert_allclose(loss.item(), want, rtol=1e-12)


def test_cross_entropy_soft_labels_with_one_hot_equal_hard_labels():
    hard = F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor(LABELS))
    soft = F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor(np.eye(3)[LABELS]),
                           soft_label=True)
    np.testing.assert_allclose(hard.item(), soft.item(), rtol=1e-6)


def test_cross_entropy_label_smoothing_mixes_in_the_uniform_distribution():
    eps = 0.1
    target = np.eye(3)[LABELS] * (1 - eps) + eps / 3
    loss = F.cross_entropy(paddle.to_tensor(LOGITS, dtype="float64"), paddle.to_tensor(LABELS),
                           label_smoothing=eps)
    want = -(target * _log_softmax(LOGITS)).sum(axis=1).mean()
    np.testing.assert_allclose(loss.item(), want, rtol=1e-12)


def test_cross_entropy_class_axis_one_for_sequence_logits():
    x = signed(2, 3, 4, seed=1)                      # [N, C, L]
    labels = np.array([[0, 1, 2, 1], [2, 2, 0, 1]])
    loss = F.cross_entropy(paddle.to_tensor(x, dtype="float64"), paddle.to_tensor(labels),
                           axis=1, reduction="none")
    moved = np.moveaxis(x, 1, -1).reshape(-1, 3)
    np.testing.assert_allclose(loss.numpy(), _nll(moved, labels.reshape(-1)).reshape(2, 4),
                               rtol=1e-12)


def test_cross_entropy_use_softmax_false_takes_probabilities():
    p = np.exp(_log_softmax(LOGITS))
    loss = F.cross_entropy(paddle.to_tensor(p, dtype="float64"), paddle.to_tensor(LABELS),
                           use_softmax=False)
    np.testing.assert_allclose(loss.item(), _nll(LOGITS, LABELS).mean(), rtol=1e-12)


def test_cross_entropy_huge_logits_give_finite_loss_and_gradient():
    x = paddle.to_tensor([[1e4, 0.0, -1e4]], stop_gradient=False)
    with np.errstate(over="raise", invalid="raise"):
        loss = F.cross_entropy(x, paddle.to_tensor([2]))
        loss.backward()
    np.testing.assert_allclose(loss.item(), 2e4, rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), [[1.0, 0.0, -1.0]], atol=1e-6)


@pytest.mark.parametrize("kwargs", [
    {}, {"reduction": "sum"}, {"reduction": "none"}, {"ignore_index": 1},
    {"weight": np.array([1.0, 2.0, 0.5])}, {"label_smoothing": 0.2},
])
def test_cross_entropy_gradients_match_numeric_to_second_order(kwargs):
    kw = dict(kwargs)
    if "weight" in kw:
        kw["weight"] = paddle.to_tensor(kw["weight"], dtype="float64")
    labels = paddle.to_tensor(LABELS)
    assert_gradients(lambda x: F.cross_entropy(x, labels, **kw), [signed(4, 3, seed=2)])


@pytest.mark.paddle
@pytest.mark.parametrize("kwargs", [{}, {"reduction": "none"}, {"weight": [1.0, 2.0, 0.5]}])
def test_cross_entropy_with_smoothing_takes_one_hot_labels_as_paddle(kwargs):
    # Paddle's CrossEntropyLoss docstring: with label_smoothing, a float label with the class
    # axis is a distribution even when soft_label is False
    from helpers.frameworks import assert_same_as_paddle

    def loss(P, x, labels):
        kw = dict(kwargs)
        if "weight" in kw:
            kw["weight"] = P.to_tensor(np.array(kw["weight"]))
        return P.nn.functional.cross_entropy(x, labels, label_smoothing=0.4, **kw)

    one_hot = np.eye(3)[[2, 0, 1, 1]]
    assert_same_as_paddle(loss, [signed(4, 3, seed=3), one_hot])


def test_cross_entropy_soft_label_and_probability_gradients_match_numeric():
    soft = paddle.to_tensor(np.array([[0.2, 0.8], [0.6, 0.4]]), dtype="float64")
    assert_gradients(lambda x: F.cross_entropy(x, soft, soft_label=True), [signed(2, 2)])
    probs = np.array([[0.3, 0.7], [0.6, 0.4]])
    labels = paddle.to_tensor([1, 0])
    assert_gradients(lambda p: F.cross_entropy(p, labels, use_softmax=False), [probs])


def test_cross_entropy_rejects_labels_out_of_range_naming_the_value():
    with pytest.raises(OpArgumentError, match=r"\[0, 3\).*got: 3"):
        F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor([0, 1, 2, 3]))


def test_cross_entropy_truncates_float_hard_labels_as_paddle_and_refuses_bool_ones():
    # Paddle 3.3.1 reads float hard labels as class indices, truncated (1.7 is class 1)
    logits = paddle.to_tensor(LOGITS)
    got = F.cross_entropy(logits, paddle.to_tensor([0.0, 1.7, 2.0, 1.2]), reduction="none")
    want = F.cross_entropy(logits, paddle.to_tensor([0, 1, 2, 1]), reduction="none")
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    with pytest.raises(DTypeError, match="soft_label=True"):
        F.cross_entropy(logits, paddle.to_tensor([True, False, True, False]))


def test_cross_entropy_rejects_mismatched_label_shape():
    with pytest.raises(ShapeError, match="cross_entropy"):
        F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor([0, 1]))


def test_cross_entropy_rejects_unknown_reduction():
    with pytest.raises(OpArgumentError, match="reduction"):
        F.cross_entropy(paddle.to_tensor(LOGITS), paddle.to_tensor(LABELS), reduction="avg")


def test_torch_agrees_on_cross_entropy_with_weights_ignore_index_and_smoothing():
    torch = pytest.importorskip("torch")
    x = signed(5, 4, seed=7) * 3
    # a class as ignore_index: torch and Paddle count the same samples in the mean (with a
    # negative one and no weights Paddle counts the ignored samples too, torch does not)
    labels = np.array([0, 3, 2, 1, 2])
    w = np.array([0.5, 1.0, 2.0, 1.5])
    for kw in ({"ignore_index": 2}, {"weight": w, "ignore_index": 2},
               {"label_smoothing": 0.1, "ignore_index": 2}):
        xo = paddle.to_tensor(x, dtype="float64", stop_gradient=False)
        ours = F.cross_entropy(xo, paddle.to_tensor(labels), **{
            k: (paddle.to_tensor(v, dtype="float64") if k == "weight" else v)
            for k, v in kw.items()})
        ours.backward()
        xt = torch.tensor(x, requires_grad=True)
        theirs = torch.nn.functional.cross_entropy(xt, torch.tensor(labels), **{
            k: (torch.tensor(v) if k == "weight" else v) for k, v in kw.items()})
        theirs.backward()
        np.testing.assert_allclose(ours.item(), theirs.item(), rtol=1e-10)
        np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_mse_loss_reductions():
    x = paddle.to_tensor([1.0, 3.0, -2.0])
    y = paddle.to_tensor([0.0, 1.0, -2.0])
    assert F.mse_loss(x, y).item() == pytest.approx(5.0 / 3)
    assert F.mse_loss(x, y, reduction="sum").item() == 5.0
    np.testing.assert_array_equal(F.mse_loss(x, y, reduction="none").numpy(), [1.0, 4.0, 0.0])


def test_mse_loss_gradient_is_two_diff_over_n_for_both_arguments():
    x = paddle.to_tensor([1.0, 3.0], stop_gradient=False)
    y = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    F.mse_loss(x, y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(y.grad.numpy(), [-1.0, -2.0])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_gradients_match_numeric_to_second_order(reduction):
    assert_gradients(lambda a, b: F.mse_loss(a, b, reduction=reduction),
                     [signed(2, 3, seed=1), signed(2, 3, seed=2)])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_of_integer_tensors_stays_integer_as_paddle(reduction):
    from helpers.frameworks import assert_same_as_paddle
    x = np.array([[0, 3, 5], [2, 7, 1]])
    assert_same_as_paddle(lambda P, a, b: P.nn.functional.mse_loss(a, b, reduction=reduction),
                          [x, x[::-1]], ["int32", "int32"], diff=())
