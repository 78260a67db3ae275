"""The margin, embedding and likelihood losses: values, dtypes and first-order gradients against
Paddle 3.3.1 for each reduction, second order against central differences, and the errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 5))
Y = RNG.standard_normal((4, 5))
Z = RNG.standard_normal((4, 5))
SIGN = np.array([1.0, -1.0, -1.0, 1.0])
SIGN_GRID = np.where(RNG.standard_normal((4, 5)) > 0, 1.0, -1.0)
IDS = np.array([2, 0, 4, 1])
MULTI = np.array([[3, 0, -1, 1, 2], [1, 2, 3, 4, -1], [0, -1, 2, 2, 2], [-1, 1, 1, 1, 1]])
POS = np.abs(Y) + 0.5
REDUCTIONS = ["mean", "sum", "none"]


def _i64(v):
    return np.asarray(v, dtype=np.int64)


def _paddle(fn, arrays, dtypes=None, diff=(0,), **kw):
    assert_same_as_paddle(fn, arrays, dtypes=dtypes, diff=diff, **kw)


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_pairwise_margin_losses_match_paddle(reduction):
    _paddle(lambda P, a, b, y: P.nn.functional.margin_ranking_loss(a, b, y, 0.3, reduction),
            [X[:, 0], Y[:, 0], SIGN], diff=(0, 1))
    _paddle(lambda P, a, b, y: P.nn.functional.margin_ranking_loss(a, b, y, 0.0, reduction),
            [X[:, 0], Y[:, 0], SIGN], diff=(0, 1))
    _paddle(lambda P, a, y: P.nn.functional.hinge_embedding_loss(a, y, 0.7, reduction),
            [X, SIGN_GRID])
    _paddle(lambda P, a, b, y: P.nn.functional.cosine_embedding_loss(a, b, y, 0.2, reduction),
            [X, Y, SIGN], diff=(0, 1))
    _paddle(lambda P, a, y: P.nn.functional.soft_margin_loss(a, y, reduction), [X, SIGN_GRID])


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_triplet_losses_match_paddle(reduction):
    _paddle(lambda P, a, b, c: P.nn.functional.triplet_margin_loss(a, b, c, 1.5,
                                                                  reduction=reduction),
            [X, Y, Z], diff=(0, 1, 2))
    _paddle(lambda P, a, b, c: P.nn.functional.triplet_margin_loss(
        a, b, c, 0.5, p=1, swap=True, reduction=reduction), [X, Y, Z], diff=(0, 1, 2))
    _paddle(lambda P, a, b, c: P.nn.functional.triplet_margin_with_distance_loss(
        a, b, c, margin=2.0, swap=True, reduction=reduction), [X, Y, Z], diff=(0, 1, 2))
    _paddle(lambda P, a, b, c: P.nn.functional.triplet_margin_with_distance_loss(
        a, b, c, distance_function=lambda u, v: P.sum(P.abs(u - v), axis=-1),
        reduction=reduction), [X, Y, Z], diff=(0, 1, 2))


@pytest.mark.paddle
@pytest.mark.parametrize("p", [1, 2, 3.5])
@pytest.mark.parametrize("keepdim", [False, True])
def test_pairwise_distance_matches_paddle(p, keepdim):
    _paddle(lambda P, a, b: P.nn.functional.pairwise_distance(a, b, p, keepdim=keepdim), [X, Y],
            diff=(0, 1))
    _paddle(lambda P, a, b: P.nn.PairwiseDistance(p, 0.0, keepdim)(a, b), [X[0], Y[0]],
            diff=(0, 1))


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multi_class_margin_losses_match_paddle(reduction):
    for p, margin in ((1, 1.0), (2, 0.5)):
        _paddle(lambda P, a, y: P.nn.functional.multi_margin_loss(a, y, p, margin,
                                                                  reduction=reduction),
                [X, _i64(IDS)], dtypes=["float64", "int64"])
        _paddle(lambda P, a, y, w: P.nn.functional.multi_margin_loss(a, y, p, margin, w,
                                                                     reduction),
                [X, _i64(IDS), POS[0]], dtypes=["float64", "int64", "float64"], diff=(0, 2))
    _paddle(lambda P, a, y: P.nn.functional.multi_label_margin_loss(a, y, reduction),
            [X, _i64(MULTI)], dtypes=["float64", "int64"])
    _paddle(lambda P, a, y: P.nn.functional.multi_label_soft_margin_loss(a, y,
                                                                         reduction=reduction),
            [X, (SIGN_GRID > 0).astype(float)], diff=(0, 1))
    _paddle(lambda P, a, y, w: P.nn.functional.multi_label_soft_margin_loss(a, y, w, reduction),
            [X, (SIGN_GRID > 0).astype(float), POS[0]], diff=(0, 2))


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_likelihood_losses_match_paddle(reduction):
    counts = np.floor(POS * 3)
    _paddle(lambda P, a, y: P.nn.functional.poisson_nll_loss(a, y, reduction=reduction),
            [X, counts], diff=(0, 1))
    _paddle(lambda P, a, y: P.nn.functional.poisson_nll_loss(a, y, False, True,
                                                             reduction=reduction),
            [POS, counts], diff=(0,))
    _paddle(lambda P, a, y, v: P.nn.functional.gaussian_nll_loss(a, y, v, reduction=reduction),
            [X, Y, POS], diff=(0, 1, 2))
    _paddle(lambda P, a, y, v: P.nn.functional.gaussian_nll_loss(a, y, v, True, 0.7, reduction),
            [X, Y, POS[:, 0]], diff=(0, 1, 2))
    _paddle(lambda P, a, y, v: P.nn.functional.gaussian_nll_loss(a, y, v, reduction=reduction),
            [X, Y, POS[:, :1]], diff=(0, 1, 2))


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_sigmoid_focal_loss_matches_paddle(reduction):
    label = (SIGN_GRID > 0).astype(float)
    _paddle(lambda P, a, y: P.nn.functional.sigmoid_focal_loss(a, y, reduction=reduction),
            [X * 3, label], diff=(0,))
    _paddle(lambda P, a, y, n: P.nn.functional.sigmoid_focal_loss(a, y, n, 0.4, 1.5, reduction),
            [X * 3, label, np.array([2.5])], diff=(0, 2))


@pytest.mark.paddle
def test_log_dice_npair_losses_match_paddle():
    prob = 1 / (1 + np.exp(-X))
    _paddle(lambda P, a, y: P.nn.functional.log_loss(a, y), [prob[:, :1], (SIGN[:, None] > 0)],
            dtypes=["float32", "float32"], rtol=1e-6, atol=1e-6)
    _paddle(lambda P, a, y: P.nn.functional.log_loss(a, y, 0.01), [prob[:, 1:2], prob[::-1, :1]],
            dtypes=["float32", "float32"], diff=(0, 1), rtol=1e-6, atol=1e-6)
    soft = np.exp(X) / np.exp(X).sum(-1, keepdims=True)
    _paddle(lambda P, a, y: P.nn.functional.dice_loss(a, y), [soft, _i64(IDS[:, None])],
            dtypes=["float64", "int64"])
    _paddle(lambda P, a, y: P.nn.functional.dice_loss(a, y, 0.1),
            [soft.reshape(2, 2, 5), _i64(IDS.reshape(2, 2, 1))], dtypes=["float64", "int32"])
    _paddle(lambda P, a, b, y: P.nn.functional.npair_loss(a, b, y),
            [X, Y, np.array([1.0, 2.0, 1.0, 3.0])], dtypes=["float32", "float32", "float32"],
            diff=(0, 1), rtol=1e-5, atol=1e-6)


@pytest.mark.paddle
def test_loss_layers_match_paddle():
    ids, lab = _i64(IDS), (SIGN_GRID > 0).astype(float)
    cases = [
        (lambda P, a, b, y: P.nn.MarginRankingLoss(0.2, "sum")(a, b, y), [X[:, 0], Y[:, 0], SIGN]),
        (lambda P, a, y: P.nn.HingeEmbeddingLoss(0.5)(a, y), [X, SIGN_GRID]),
        (lambda P, a, b, y: P.nn.CosineEmbeddingLoss(0.1, "none")(a, b, y), [X, Y, SIGN]),
        (lambda P, a, y: P.nn.SoftMarginLoss("sum")(a, y), [X, SIGN_GRID]),
        (lambda P, a, b, c: P.nn.TripletMarginLoss(0.5, 1, swap=True)(a, b, c), [X, Y, Z]),
        (lambda P, a, b, c: P.nn.TripletMarginWithDistanceLoss(margin=0.5)(a, b, c), [X, Y, Z]),
        (lambda P, a, y: P.nn.MultiMarginLoss(2, 0.8, reduction="sum")(a, y), [X, ids]),
        (lambda P, a, y: P.nn.MultiLabelMarginLoss("none")(a, y), [X, _i64(MULTI)]),
        (lambda P, a, y: P.nn.MultiLabelSoftMarginLoss(reduction="sum")(a, y), [X, lab]),
        (lambda P, a, y: P.nn.PoissonNLLLoss(reduction="none")(a, y), [X, POS]),
        (lambda P, a, y, v: P.nn.GaussianNLLLoss(True, reduction="sum")(a, y, v), [X, Y, POS]),
    ]
    for fn, arrays in cases:
        dtypes = ["int64" if a.dtype.kind == "i" else "float64" for a in map(np.asarray, arrays)]
        _paddle(fn, arrays, dtypes=dtypes, diff=(0,))


@pytest.mark.slow  # central differences of second order over every element: a few seconds
def test_gradients_hold_to_second_order():
    x, y, z = X[:2, :3], Y[:2, :3], Z[:2, :3]
    sign = opsdk.to_tensor(SIGN[:2], dtype="float64")
    assert_gradients(lambda a, b: F.cosine_embedding_loss(a, b, sign, 0.1), [x, y])
    assert_gradients(lambda a, b, c: F.triplet_margin_loss(a, b, c, 2.0), [x, y, z])
    assert_gradients(lambda a: F.soft_margin_loss(a, opsdk.to_tensor(SIGN_GRID[:2, :3])), [x])
    assert_gradients(lambda a: F.multi_margin_loss(a, opsdk.to_tensor([2, 0]), p=2), [x])
    assert_gradients(lambda a: F.poisson_nll_loss(a, opsdk.to_tensor(POS[:2, :3])), [x])
    assert_gradients(lambda a, b: F.gaussian_nll_loss(a, b, opsdk.to_tensor(POS[:2, :3])),
                     [x, y])
    assert_gradients(lambda a: F.sigmoid_focal_loss(a, opsdk.to_tensor(
        (SIGN_GRID[:2, :3] > 0).astype(float))), [x])
    assert_gradients(lambda a: F.multi_label_soft_margin_loss(a, opsdk.to_tensor(
        (SIGN_GRID[:2, :3] > 0).astype(float))), [x])
    assert_gradients(lambda a, b: F.npair_loss(a, b, opsdk.to_tensor([1.0, 2.0])), [x, y])


@pytest.mark.paddle
def test_second_order_matches_paddle_for_the_composed_losses():
    # (the triplet, multi-margin and multi-label soft margin losses are left out: Paddle's
    # p_norm, index_sample and log_sigmoid have no second derivative; opsdk's do, checked
    # against central differences above)
    from helpers.frameworks import import_paddle
    paddle = import_paddle()

    def hessian_row(P, fn, arrays):
        ts = [P.to_tensor(a, dtype="float64", stop_gradient=False) for a in arrays]
        (g,) = P.grad([fn(P, *ts)], [ts[0]], create_graph=True)
        (h,) = P.grad([(g * P.to_tensor(np.arange(g.size, dtype=float).reshape(g.shape))).sum()],
                      [ts[0]], allow_unused=True)
        return np.zeros(ts[0].shape) if h is None else h.numpy()

    for fn, arrays in [
        (lambda P, a, b: P.nn.functional.cosine_embedding_loss(a, b, P.to_tensor(SIGN)), [X, Y]),
        (lambda P, a, b: P.nn.functional.gaussian_nll_loss(a, b, P.to_tensor(POS)), [X, Y]),
        (lambda P, a: P.nn.functional.soft_margin_loss(a, P.to_tensor(SIGN_GRID)), [X]),
        (lambda P, a: P.nn.functional.poisson_nll_loss(a, P.to_tensor(POS)), [X]),
    ]:
        np.testing.assert_allclose(hessian_row(opsdk, fn, arrays), hessian_row(paddle, fn, arrays),
                                   rtol=1e-6, atol=1e-9)


def test_values_by_hand():
    one, two = opsdk.to_tensor([1.0]), opsdk.to_tensor([2.0])
    assert F.margin_ranking_loss(one, two, one).item() == 1.0
    assert F.hinge_embedding_loss(opsdk.to_tensor([0.3, 0.3]), opsdk.to_tensor([1.0, -1.0]),
                                  reduction="sum").item() == pytest.approx(1.0)
    assert F.pairwise_distance(opsdk.to_tensor([[3.0, 4.0]]), opsdk.zeros([1, 2]),
                               epsilon=0.0).numpy().tolist() == [5.0]


def test_bad_arguments_are_named():
    x = opsdk.to_tensor(X)
    with pytest.raises(ValueError, match="margin_ranking_loss: argument 'reduction'"):
        F.margin_ranking_loss(x, x, x, reduction="avg")
    with pytest.raises(ValueError, match="cosine_embedding_loss: label must be 1-D"):
        F.cosine_embedding_loss(x, x, x)
    with pytest.raises(ValueError, match="triplet_margin_loss: argument 'margin' must be >= 0"):
        F.triplet_margin_loss(x, x, x, margin=-1.0)
    with pytest.raises(ValueError, match="poisson_nll_loss: argument 'epsilon'"):
        F.poisson_nll_loss(x, x, epsilon=0.0)
    with pytest.raises(ValueError, match="gaussian_nll_loss: variance has negative"):
        F.gaussian_nll_loss(x, x, -opsdk.ones([4, 5], dtype="float64"))
    with pytest.raises(ValueError, match="gaussian_nll_loss: variance must have"):
        F.gaussian_nll_loss(x, x, opsdk.ones([3], dtype="float64"))
    with pytest.raises(TypeError, match="log_loss: argument 'input' must be float32"):
        F.log_loss(x, x)
    with pytest.raises(ValueError, match=r"log_loss: expected input and label of shape \[N, 1\]"):
        F.log_loss(x.astype("float32"), x.astype("float32"))
    with pytest.raises(ValueError, match="multi_label_margin_loss: label values must be < 5"):
        F.multi_label_margin_loss(x, opsdk.to_tensor(_i64(MULTI + 5)))
    with pytest.raises(ValueError, match="dice_loss: expected input"):
        F.dice_loss(x, opsdk.to_tensor(_i64(IDS)))
    with pytest.raises(ValueError, match="triplet_margin_with_distance_loss: the distance"):
        F.triplet_margin_with_distance_loss(
            x, x, x, distance_function=lambda u, v: -F.pairwise_distance(u, v))
    with pytest.raises(TypeError, match="MarginRankingLoss: unexpected option"):
        opsdk.nn.MarginRankingLoss(margni=1.0)
    assert repr(opsdk.nn.MarginRankingLoss(0.5)) == \
        "MarginRankingLoss(margin=0.5, reduction='mean')"
