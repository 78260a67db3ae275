"""ctc_loss, CTCLoss (against Paddle 3.3.1's warpctc), rnnt_loss and RNNTLoss (its
warprnnt): values and gradients for each reduction, norm_by_times, FastEmit, uneven lengths,
repeated labels and another blank; second order against central differences; impossible
alignments; the errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(12)
X = RNG.standard_normal((7, 3, 5))
LABELS = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], dtype=np.int32)
T_LEN = np.array([7, 5, 3])
L_LEN = np.array([3, 2, 1])


def _ctc(P, x, blank=0, labels=LABELS, **kw):
    return P.nn.functional.ctc_loss(x, P.to_tensor(labels), P.to_tensor(T_LEN),
                                    P.to_tensor(L_LEN), blank=blank, **kw)


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("norm_by_times", [False, True])
def test_ctc_loss_matches_paddle(reduction, norm_by_times):
    assert_same_as_paddle(lambda P, x: _ctc(P, x, reduction=reduction,
                                            norm_by_times=norm_by_times), [X], rtol=1e-10)


@pytest.mark.paddle
def test_another_blank_float32_and_the_layer_match_paddle():
    labels = np.array([[0, 1, 0], [2, 2, 1], [3, 1, 1]], dtype=np.int32)
    assert_same_as_paddle(lambda P, x: _ctc(P, x, blank=4, labels=labels), [X], rtol=1e-10)
    assert_same_as_paddle(lambda P, x: _ctc(P, x), [X], dtypes=["float32"], rtol=1e-5,
                          atol=1e-6)
    assert_same_as_paddle(lambda P, x: P.nn.CTCLoss(reduction="sum")(
        x, P.to_tensor(LABELS), P.to_tensor(T_LEN), P.to_tensor(L_LEN), True), [X],
        rtol=1e-10)


@pytest.mark.slow  # central differences of second order: a few seconds
def test_gradients_hold_to_second_order():
    x = X[:4, :2, :3]
    assert_gradients(lambda a: F.ctc_loss(a, opsdk.to_tensor(np.array([[1, 2], [2, 2]], "int32")),
                                          opsdk.to_tensor([4, 4]), opsdk.to_tensor([2, 1]),
                                          reduction="sum"), [x])
    assert_gradients(lambda a: F.rnnt_loss(a, opsdk.to_tensor(np.array([[1, 2]], "int32")),
                                           opsdk.to_tensor(np.array([2], "int32")),
                                           opsdk.to_tensor(np.array([2], "int32")),
                                           fastemit_lambda=0.0), [_log_probs((1, 2, 3, 3))])


def test_impossible_alignments_are_huge_or_zeroed():
    # two equal labels need a blank between them: 3 steps cannot hold [1, 1]
    x = opsdk.to_tensor(X[:2, :1])
    args = (opsdk.to_tensor(np.array([[1, 1]], "int32")), opsdk.to_tensor([2]),
            opsdk.to_tensor([2]))
    assert F.ctc_loss(x, *args, reduction="none").item() > 1e29
    assert F.ctc_loss(x, *args, reduction="none", zero_infinity=True).item() == 0.0


def test_bad_arguments_are_named():
    x = opsdk.to_tensor(X)
    labels, tl, ll = opsdk.to_tensor(LABELS), opsdk.to_tensor(T_LEN), opsdk.to_tensor(L_LEN)
    with pytest.raises(ValueError, match="ctc_loss: argument 'reduction'"):
        F.ctc_loss(x, labels, tl, ll, reduction="avg")
    with pytest.raises(ValueError, match="ctc_loss: expected log_probs \\[T, B, C\\]"):
        F.ctc_loss(x[0], labels, tl, ll)
    with pytest.raises(ValueError, match="ctc_loss: input_lengths must lie in \\[1, 7\\]"):
        F.ctc_loss(x, labels, opsdk.to_tensor([8, 1, 1]), ll)
    with pytest.raises(ValueError, match="ctc_loss: blank must lie in \\[0, 5\\)"):
        F.ctc_loss(x, labels, tl, ll, blank=5)
    with pytest.raises(TypeError, match="ctc_loss: labels must hold integers"):
        F.ctc_loss(x, opsdk.to_tensor(LABELS.astype("float32")), tl, ll)


def _log_probs(shape, seed=14):
    z = np.random.default_rng(seed).standard_normal(shape)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


RN_X = _log_probs((3, 5, 4, 6))
RN_LABELS = np.array([[1, 2, 3], [4, 1, 0], [5, 0, 0]], dtype=np.int32)
RN_T = np.array([5, 3, 4], dtype=np.int32)
RN_U = np.array([3, 2, 1], dtype=np.int32)


def _rnnt(P, x, labels=RN_LABELS, **kw):
    return P.nn.functional.rnnt_loss(x, P.to_tensor(labels), P.to_tensor(RN_T),
                                     P.to_tensor(RN_U), **kw)


@pytest.mark.paddle
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("fastemit_lambda", [0.0, 0.5])
def test_rnnt_loss_matches_paddle(reduction, fastemit_lambda):
    assert_same_as_paddle(lambda P, x: _rnnt(P, x, reduction=reduction,
                                             fastemit_lambda=fastemit_lambda), [RN_X],
                          rtol=1e-10)


@pytest.mark.paddle
def test_rnnt_defaults_another_blank_and_the_layer_match_paddle():
    # the default fastemit_lambda (0.001) reaches Paddle's kernel as a float32
    assert_same_as_paddle(lambda P, x: _rnnt(P, x), [RN_X], rtol=1e-8)
    assert_same_as_paddle(lambda P, x: _rnnt(P, x, np.where(RN_LABELS == 5, 2, RN_LABELS),
                                             blank=5, fastemit_lambda=0.0), [RN_X], rtol=1e-10)
    assert_same_as_paddle(lambda P, x: P.nn.RNNTLoss(fastemit_lambda=0.25, reduction="sum")(
        x, P.to_tensor(RN_LABELS), P.to_tensor(RN_T), P.to_tensor(RN_U)), [RN_X], rtol=1e-10)


def test_rnnt_loss_of_uniform_probabilities_counts_the_alignments():
    # T = 2, U = 1, V = 2: the alignments are (emit, blank, blank) and (blank, emit, blank)
    x = opsdk.to_tensor(np.full((1, 2, 2, 2), np.log(0.5)))
    loss = F.rnnt_loss(x, opsdk.to_tensor(np.array([[1]], "int32")),
                       opsdk.to_tensor(np.array([2], "int32")),
                       opsdk.to_tensor(np.array([1], "int32")), reduction="none")
    np.testing.assert_allclose(loss.numpy(), [-np.log(2 * 0.5 ** 3)])


def test_rnnt_loss_errors_are_named():
    x = opsdk.to_tensor(RN_X)
    args = (opsdk.to_tensor(RN_LABELS), opsdk.to_tensor(RN_T), opsdk.to_tensor(RN_U))
    with pytest.raises(ValueError, match="rnnt_loss: expected input \\[B, T, U \\+ 1, V\\]"):
        F.rnnt_loss(x[:, :, :3], *args)
    with pytest.raises(ValueError, match="rnnt_loss: blank must lie in \\[0, 6\\)"):
        F.rnnt_loss(x, *args, blank=6)
    with pytest.raises(ValueError, match="rnnt_loss: argument 'reduction'"):
        F.rnnt_loss(x, *args, reduction="avg")
