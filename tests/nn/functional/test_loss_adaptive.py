"""adaptive_log_softmax_with_loss, hsigmoid_loss and their layers against Paddle 3.3.1: outputs,
gradients of input and every weight; log_prob and predict; the errors."""
import warnings

import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle, import_paddle

RNG = np.random.default_rng(13)
X = RNG.standard_normal((6, 8))
HEAD = RNG.standard_normal((8, 5))
HEAD_B = RNG.standard_normal(5)
T1 = [RNG.standard_normal((8, 2)), RNG.standard_normal((2, 3))]
T2 = [RNG.standard_normal((8, 4)), RNG.standard_normal((4, 4))]
LABEL = np.array([0, 4, 9, 2, 7, 5])


@pytest.mark.paddle
@pytest.mark.parametrize("label", [LABEL, np.array([0, 1, 2, 2, 1, 0]), np.array([9, 6, 3] * 2)])
def test_functional_matches_paddle(label):
    def fn(P, x, hw, hb, a, b, c, d):
        return P.nn.functional.adaptive_log_softmax_with_loss(
            x, P.to_tensor(label), hw, [[a, b], [c, d]], [3, 6, 10], hb)
    assert_same_as_paddle(fn, [X, HEAD, HEAD_B, *T1, *T2], diff=tuple(range(7)), rtol=1e-10)


@pytest.mark.paddle
def test_unbatched_input_matches_paddle():
    def fn(P, x, hw):
        return P.nn.functional.adaptive_log_softmax_with_loss(
            x, P.to_tensor(7), hw, [[P.to_tensor(t) for t in T1], [P.to_tensor(t) for t in T2]],
            [3, 6, 10])
    assert_same_as_paddle(fn, [X[0], HEAD], diff=(0, 1), rtol=1e-10)


@pytest.mark.paddle
def test_layer_matches_paddle():
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], head_bias=True)
    ours = opsdk.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], head_bias=True)
    assert [(n, p.shape) for n, p in ours.named_parameters()] == [
        (n, list(p.shape)) for n, p in theirs.named_parameters()]
    assert [[p.shape for p in pr] for pr in ours.tail_weights] == [
        [list(p.shape) for p in pr] for pr in theirs.tail_weights]
    for mine, their in zip(ours.parameters(), theirs.parameters()):
        mine.set_value(their.numpy())
    for mine, their in zip(ours.tail_weights, theirs.tail_weights):
        for m, t in zip(mine, their):
            m.set_value(t.numpy())
    x = X.astype("float32")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = theirs(paddle.to_tensor(x), paddle.to_tensor(LABEL))
        want_lp = theirs.log_prob(paddle.to_tensor(x)).numpy()
    got = ours(opsdk.to_tensor(x), opsdk.to_tensor(LABEL))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)
    lp = ours.log_prob(opsdk.to_tensor(x)).numpy()
    np.testing.assert_allclose(lp, want_lp, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.exp(lp).sum(1), 1.0, rtol=1e-5)
    assert ours.predict(opsdk.to_tensor(x)).numpy().tolist() == lp.argmax(1).tolist()


def test_bad_arguments_are_named():
    x = opsdk.to_tensor(X)
    tails = [[opsdk.to_tensor(t) for t in T1], [opsdk.to_tensor(t) for t in T2]]
    with pytest.raises(ValueError, match="label values must lie in \\[0, 9\\]"):
        F.adaptive_log_softmax_with_loss(x, opsdk.to_tensor([0, 1, 2, 3, 4, 10]),
                                         opsdk.to_tensor(HEAD), tails, [3, 6, 10])
    with pytest.raises(ValueError, match="expected input \\[N, in_features\\] and label \\[N\\]"):
        F.adaptive_log_softmax_with_loss(x, opsdk.to_tensor([0, 1]), opsdk.to_tensor(HEAD),
                                         tails, [3, 6, 10])
    with pytest.raises(ValueError, match="cutoffs must be unique positive integers"):
        opsdk.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])


@pytest.mark.paddle
@pytest.mark.parametrize("num_classes", [2, 6, 9])
def test_hsigmoid_loss_matches_paddle(num_classes):
    x = X[:5, :3]
    w = RNG.standard_normal((num_classes - 1, 3))
    b = RNG.standard_normal((num_classes - 1, 1))
    label = np.arange(5) % num_classes
    assert_same_as_paddle(lambda P, a, k, c: P.nn.functional.hsigmoid_loss(
        a, P.to_tensor(label), num_classes, k, c), [x, w, b], diff=(0, 1, 2), rtol=1e-10)
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.hsigmoid_loss(
        a, P.to_tensor(label), num_classes, k), [x * 30, w], diff=(0, 1), rtol=1e-10)


@pytest.mark.paddle
def test_hsigmoid_loss_with_a_custom_tree_and_the_layer_match_paddle():
    table = np.array([[0, 2, -1], [1, 3, 5], [4, -1, -1]])
    code = np.array([[1, 0, -1], [0, 1, 1], [1, -1, -1]])
    assert_same_as_paddle(lambda P, a, k, c: P.nn.functional.hsigmoid_loss(
        a, P.to_tensor([1, 2, 0]), 6, k, c, P.to_tensor(table), P.to_tensor(code)),
        [X[:3, :4], RNG.standard_normal((6, 4)), RNG.standard_normal((6, 1))], diff=(0, 1, 2),
        rtol=1e-10)
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = paddle.nn.HSigmoidLoss(4, 7)
    ours = opsdk.nn.HSigmoidLoss(4, 7)
    assert [(n, p.shape) for n, p in ours.named_parameters()] == [
        (n, list(p.shape)) for n, p in theirs.named_parameters()]
    for mine, their in zip(ours.parameters(), theirs.parameters()):
        mine.set_value(their.numpy())
    x, label = X[:4, :4].astype("float32"), np.array([0, 6, 3, 5])
    np.testing.assert_allclose(ours(opsdk.to_tensor(x), opsdk.to_tensor(label)).numpy(),
                               theirs(paddle.to_tensor(x), paddle.to_tensor(label)).numpy(),
                               rtol=1e-5)
    assert opsdk.nn.HSigmoidLoss(4, 7, is_custom=True).weight.shape == [7, 4]


def test_hsigmoid_loss_errors_are_named():
    x, w = opsdk.to_tensor(X[:2, :3]), opsdk.ones([5, 3], dtype="float64")
    with pytest.raises(ValueError, match="hsigmoid_loss: labels must lie in \\[0, 6\\)"):
        F.hsigmoid_loss(x, opsdk.to_tensor([0, 6]), 6, w)
    with pytest.raises(ValueError, match="hsigmoid_loss: path_table and path_code go together"):
        F.hsigmoid_loss(x, opsdk.to_tensor([0, 1]), 6, w, path_table=opsdk.to_tensor([[0]]))
    with pytest.raises(ValueError, match="hsigmoid_loss: expected input \\[N, D\\]"):
        F.hsigmoid_loss(x, opsdk.to_tensor([0, 1, 2]), 6, w)
