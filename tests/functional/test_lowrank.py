"""householder_product, ormqr, svd_lowrank, pca_lowrank (opsdk/functional/lowrank.py; also
Tensor methods): values and shapes against Paddle 3.3.1 where installed, gradients to second
order against central differences, seeded determinism, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ShapeError
from helpers.frameworks import assert_same_as_paddle, import_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed

_RNG = np.random.default_rng(3)

_A_QR = _RNG.standard_normal((4, 3))
_RAW, _TAU = np.linalg.qr(_A_QR, mode="raw")
REFLECTORS, TAU = _RAW.T.copy(), _TAU
_RAW_SQ, TAU_SQ = np.linalg.qr(_RNG.standard_normal((3, 3)), mode="raw")
REFLECTORS_SQ = _RAW_SQ.T.copy()

# values only: Paddle 3.3.1's backward of householder_product fails (its in-place writes)
HOUSEHOLDER = {
    "product": (lambda P, x, t: P.linalg.householder_product(x, t), [REFLECTORS, TAU]),
    "product_fewer_taus": (lambda P, x, t: x.householder_product(t), [REFLECTORS, TAU[:2]]),
    "product_batch": (lambda P, x, t: P.linalg.householder_product(x, t),
                      [np.stack([REFLECTORS, REFLECTORS * 0.5]), np.stack([TAU, TAU * 0.7])]),
    "ormqr": (lambda P, x, t, y: P.linalg.ormqr(x, t, y), [REFLECTORS, TAU, signed(3, 2)]),
    "ormqr_transpose": (lambda P, x, t, y: x.ormqr(t, y, transpose=True),
                        [REFLECTORS, TAU, signed(4, 2)]),
    "ormqr_right": (lambda P, x, t, y: P.linalg.ormqr(x, t, y, left=False),
                    [REFLECTORS_SQ, TAU_SQ, signed(2, 3)]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("fn, arrays", HOUSEHOLDER.values(), ids=list(HOUSEHOLDER))
def test_householder_values_as_paddles(fn, arrays):
    assert_same_as_paddle(fn, arrays, diff=())


def test_householder_product_is_the_q_of_qr_with_gradients():
    q = opsdk.linalg.householder_product(opsdk.to_tensor(REFLECTORS), opsdk.to_tensor(TAU))
    np.testing.assert_allclose(q.numpy(), np.linalg.qr(_A_QR)[0], atol=1e-12)
    assert_gradients(lambda x, t: opsdk.linalg.householder_product(x, t), [REFLECTORS, TAU])
    assert_gradients(lambda x, t, y: opsdk.linalg.ormqr(x, t, y),
                     [REFLECTORS, TAU, signed(3, 2)])


def test_householder_product_refuses_a_wide_x():
    with pytest.raises(ShapeError):
        opsdk.linalg.householder_product(opsdk.ones([2, 3]), opsdk.ones([2]))


_LOW = _RNG.standard_normal((6, 2)) @ _RNG.standard_normal((2, 5))


@pytest.mark.paddle
@pytest.mark.parametrize("x", [_LOW, _LOW.T, np.stack([_LOW, _LOW * 2])], ids=["tall", "wide",
                                                                                "batch"])
@pytest.mark.parametrize("q", [None, 3, 2])
def test_svd_lowrank_shapes_and_exact_low_rank_as_paddles(x, q):
    paddle = import_paddle()
    got = opsdk.linalg.svd_lowrank(opsdk.to_tensor(x), q=q)
    want = paddle.linalg.svd_lowrank(paddle.to_tensor(x), q=q)
    assert [list(t.shape) for t in got] == [list(t.shape) for t in want]
    u, s, v = (t.numpy() for t in got)
    np.testing.assert_allclose(s[..., :2], want[1].numpy()[..., :2], rtol=1e-8)
    np.testing.assert_allclose((u * s[..., None, :]) @ np.swapaxes(v, -1, -2), x, atol=1e-9)


@pytest.mark.paddle
def test_pca_lowrank_and_svd_lowrank_with_m_as_paddles():
    paddle = import_paddle()
    got = opsdk.to_tensor(_LOW).pca_lowrank()
    want = paddle.linalg.pca_lowrank(paddle.to_tensor(_LOW))
    assert [list(t.shape) for t in got] == [list(t.shape) for t in want]
    np.testing.assert_allclose(got[1].numpy()[:2], want[1].numpy()[:2], rtol=1e-8)
    shift = np.full((6, 5), 0.3)
    got = opsdk.linalg.svd_lowrank(opsdk.to_tensor(_LOW + shift), q=3, M=opsdk.to_tensor(shift))
    want = paddle.linalg.svd_lowrank(paddle.to_tensor(_LOW + shift), q=3,
                                     M=paddle.to_tensor(shift))
    np.testing.assert_allclose(got[1].numpy()[:2], want[1].numpy()[:2], rtol=1e-8)


def test_svd_lowrank_is_seeded_and_differentiable():
    def values(a):
        opsdk.seed(5)
        return opsdk.linalg.svd_lowrank(a, q=2)[1]
    np.testing.assert_array_equal(values(opsdk.to_tensor(_LOW)).numpy(),
                                  values(opsdk.to_tensor(_LOW)).numpy())
    assert_gradients(values, [_LOW])
    with pytest.raises(ValueError):
        opsdk.linalg.svd_lowrank(opsdk.to_tensor(_LOW), q=9)
