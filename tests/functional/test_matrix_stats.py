"""slogdet, cholesky, eigh, eigvalsh, svd, svdvals, qr, pinv, matrix_rank, cond, cov, corrcoef,
cholesky_solve, cholesky_inverse (opsdk.linalg and Tensor methods):
values, dtypes and gradients against Paddle 3.3.1 where installed, gradients to second order
against central differences, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, ShapeError
from helpers.frameworks import assert_same_as_paddle, import_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
LOWER = np.linalg.cholesky(SPD)
BATCH = np.stack([SPD, SPD * 2 + np.eye(3)])
OBS = signed(3, 6)
FW = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 2.0])
AW = np.array([0.5, 1.0, 2.0, 1.0, 0.3, 0.7])

def _svd_mix(P, x):
    u, s, vh = P.linalg.svd(x)
    weights = P.to_tensor(np.array([1.0, -2.0, 0.5])[:s.shape[-1]])
    return P.matmul(u * (weights * s).unsqueeze(-2), vh)


test_values_and_gradients_match_paddle = paddle_cases({
    "slogdet": (lambda P, x: P.linalg.slogdet(x), [SPD]),
    "slogdet_negative": (lambda P, x: x.slogdet(), [np.array([[1.0, 2.0], [3.0, 1.0]])]),
    "slogdet_batch": (lambda P, x: P.linalg.slogdet(x), [BATCH]),
    "cholesky": (lambda P, x: P.linalg.cholesky(x), [SPD]),
    "cholesky_upper": (lambda P, x: x.cholesky(upper=True), [SPD]),
    "cholesky_batch": (lambda P, x: P.linalg.cholesky(x), [BATCH]),
    "cholesky_reads_the_lower_triangle": (lambda P, x: P.linalg.cholesky(x),
                                          [SPD + np.triu(signed(3, 3), 1)]),
    "eigvalsh": (lambda P, x: P.linalg.eigvalsh(x), [SPD]),
    "eigvalsh_method_upper": (lambda P, x: x.eigvalsh(UPLO="U"), [SPD + np.triu(signed(3, 3), 1)]),
    # eigenvectors' signs are free: sign-invariant functions of them
    "eigh_squares": (lambda P, x: (lambda w, v: v ** 2 * w)(*P.linalg.eigh(x)),
                     [SPD + np.triu(signed(3, 3), 1)]),
    "eigh_projection": (lambda P, x: (lambda v: P.matmul(v * P.to_tensor([1.0, -2.0, 0.5]), v,
                                                         transpose_y=True))(P.linalg.eigh(x)[1]),
                        [SPD]),
    "eigh_upper": (lambda P, x: P.linalg.eigh(x, UPLO="U")[1] ** 2, [BATCH]),
    # singular vectors' signs are free: functions of the pairs u_i v_i^T, and of |u|, |v|
    "svd_values": (lambda P, x: P.linalg.svd(x)[1], [signed(3, 2)]),
    "svd_square": (lambda P, x: _svd_mix(P, x), [signed(3, 3)]),
    "svd_tall": (lambda P, x: _svd_mix(P, x), [signed(4, 2)]),
    "svd_wide": (lambda P, x: _svd_mix(P, x), [signed(2, 4)]),
    "svd_batch": (lambda P, x: _svd_mix(P, x), [signed(2, 3, 2)]),
    "svd_squares": (lambda P, x: (lambda u, s, vh: [u ** 2 * s, vh ** 2])(*P.linalg.svd(x)),
                    [signed(4, 3)]),
    "svdvals": (lambda P, x: P.linalg.svdvals(x), [signed(3, 4)]),
    "qr_tall": (lambda P, x: list(P.linalg.qr(x)), [signed(4, 3)]),
    "qr_square_method": (lambda P, x: list(x.qr()), [signed(3, 3)]),
    "qr_wide": (lambda P, x: list(P.linalg.qr(x)), [signed(2, 4)]),
    "qr_batch": (lambda P, x: list(P.linalg.qr(x)), [signed(2, 4, 3)]),
    "qr_complete_wide": (lambda P, x: list(P.linalg.qr(x, mode="complete")), [signed(2, 3)]),
    "pinv_tall": (lambda P, x: P.linalg.pinv(x), [signed(3, 2)]),
    "pinv_wide_method": (lambda P, x: x.pinv(), [signed(2, 4)]),
    "pinv_hermitian": (lambda P, x: P.linalg.pinv(x + x.T, hermitian=True), [signed(3, 3)]),
    "cond": (lambda P, x: P.linalg.cond(x), [signed(3, 3)]),
    "cond_method_minus_2": (lambda P, x: x.cond(p=-2), [signed(3, 4)]),
    "cond_fro": (lambda P, x: P.linalg.cond(x, p="fro"), [signed(3, 3)]),
    "cond_nuc": (lambda P, x: P.linalg.cond(x, p="nuc"), [signed(3, 3)]),
    "cond_1": (lambda P, x: P.linalg.cond(x, p=1), [signed(3, 3)]),
    "cond_inf": (lambda P, x: P.linalg.cond(x, p=np.inf), [signed(2, 3, 3)]),
    "cov": (lambda P, x: P.linalg.cov(x), [OBS]),
    "cov_columns": (lambda P, x: x.cov(rowvar=False), [OBS]),
    "cov_no_ddof": (lambda P, x: P.linalg.cov(x, ddof=False), [OBS]),
    "cov_vector": (lambda P, x: P.linalg.cov(x), [signed(5)]),
    "corrcoef": (lambda P, x: P.linalg.corrcoef(x), [OBS]),
    "corrcoef_columns": (lambda P, x: x.corrcoef(rowvar=False), [signed(5, 3)]),
    "cholesky_solve": (lambda P, b, y: P.linalg.cholesky_solve(b, y), [signed(3, 2), LOWER]),
    "cholesky_solve_upper": (lambda P, b, y: b.cholesky_solve(y, upper=True),
                             [signed(3, 2), LOWER.T.copy()]),
    "cholesky_inverse": (lambda P, y: P.linalg.cholesky_inverse(y), [LOWER]),
    "cholesky_inverse_upper": (lambda P, y: y.cholesky_inverse(upper=True), [LOWER.T.copy()]),
})


@pytest.mark.paddle
def test_cholesky_solve_reads_one_triangle_as_paddle():
    """Values and the gradient to the right-hand side; Paddle's gradient to a factor whose
    other triangle is not zero is not the derivative of its values (opsdk's is). (Paddle 3.3.1
    crashes when paddle.grad asks for one of the two gradients: backward() here.)"""
    paddle = import_paddle()
    b, y = signed(3, 2), LOWER + np.triu(signed(3, 3), 1)
    out = []
    for P in (opsdk, paddle):
        tb, ty = (P.to_tensor(a, dtype="float64", stop_gradient=False) for a in (b, y))
        z = P.linalg.cholesky_solve(tb, ty)
        (z * P.to_tensor(np.arange(6.0).reshape(3, 2))).sum().backward()
        out.append((z.numpy(), tb.grad.numpy()))
    for got, want in zip(*out):
        np.testing.assert_allclose(got, want, rtol=1e-9)


@pytest.mark.paddle
@pytest.mark.parametrize("values", [lambda P, x: P.linalg.eigvalsh(x),
                                    lambda P, x: P.linalg.eigh(x)[0]])
def test_batched_eigenvalues_match_paddle_matrix_by_matrix(values):
    """Paddle 3.3.1's gradient of batched eigenvalues (eigvalsh, eigh's first output) is not
    the per-matrix one past the first matrix; opsdk's is: compared with Paddle's per matrix."""
    paddle = import_paddle()
    weights = np.array([[1.0, 2, 3], [4, 5, 6]])
    x = opsdk.to_tensor(BATCH, stop_gradient=False)
    w = values(opsdk, x)
    (g,) = opsdk.grad((w * opsdk.to_tensor(weights)).sum(), x)
    for i in range(len(BATCH)):
        y = paddle.to_tensor(BATCH[i], stop_gradient=False)
        wi = values(paddle, y)
        np.testing.assert_allclose(w.numpy()[i], wi.numpy(), rtol=1e-9)
        (wi * paddle.to_tensor(weights[i])).sum().backward()
        np.testing.assert_allclose(g.numpy()[i], y.grad.numpy(), rtol=1e-9)


@pytest.mark.paddle
@pytest.mark.parametrize("x", [signed(3, 4), np.outer([1.0, 2, 3], [1.0, 1, 2]),
                               np.stack([np.eye(3), np.diag([1.0, 1e-20, 1.0])])])
@pytest.mark.parametrize("kwargs", [{}, {"atol": 0.5}, {"tol": 1.5}, {"rtol": 0.1},
                                    {"hermitian": True}])
def test_matrix_rank_as_paddles(x, kwargs):
    paddle = import_paddle()
    if kwargs.get("hermitian"):
        x = x[..., :3, :3]
        x = x + np.swapaxes(x, -1, -2)
    got = opsdk.linalg.matrix_rank(opsdk.to_tensor(x), **kwargs)
    want = paddle.linalg.matrix_rank(paddle.to_tensor(x), **kwargs)
    assert got.tolist() == want.tolist() and str(got.dtype) == str(want.dtype)


def _weighted(fw, aw, ddof):
    def fn(P, x):
        f = None if fw is None else P.to_tensor(fw.astype("int64"))
        a = None if aw is None else P.to_tensor(aw, dtype="float64")
        return P.linalg.cov(x, ddof=ddof, fweights=f, aweights=a)
    return fn


test_weighted_cov_matches_paddle = paddle_cases({
    "fweights": (_weighted(FW, None, True), [OBS]),
    "aweights": (_weighted(None, AW, True), [OBS]),
    "both": (_weighted(FW, AW, True), [OBS]),
    "both_no_ddof": (_weighted(FW, AW, False), [OBS]),
})


def test_cov_is_numpys():
    got = opsdk.linalg.cov(opsdk.to_tensor(OBS), fweights=opsdk.to_tensor(FW.astype("int64")),
                           aweights=opsdk.to_tensor(AW)).numpy()
    np.testing.assert_allclose(got, np.cov(OBS, fweights=FW.astype(int), aweights=AW),
                               rtol=1e-12)


@pytest.mark.parametrize("fn, arrays", [
    (lambda x: opsdk.linalg.slogdet(x), [SPD]),
    (lambda x: opsdk.linalg.slogdet(x), [BATCH]),
    # (symmetrized: the gradient is Paddle's symmetric one, the derivative along symmetric
    # directions, while only the lower triangle is read)
    (lambda x: opsdk.linalg.cholesky((x + opsdk.linalg.matrix_transpose(x)) * 0.5), [SPD]),
    (lambda x: opsdk.linalg.cholesky((x + opsdk.linalg.matrix_transpose(x)) * 0.5, upper=True),
     [BATCH]),
    (lambda x: opsdk.linalg.eigvalsh((x + opsdk.linalg.matrix_transpose(x)) * 0.5), [SPD]),
    (lambda x: opsdk.linalg.eigh((x + opsdk.linalg.matrix_transpose(x)) * 0.5)[1] ** 2, [SPD]),
    (lambda x: _svd_mix(opsdk, x), [signed(3, 3)]),
    (lambda x: _svd_mix(opsdk, x), [signed(4, 2)]),
    (lambda x: _svd_mix(opsdk, x), [signed(2, 4)]),
    (lambda x: opsdk.linalg.pinv(x), [signed(3, 2)]),
    (lambda x: list(opsdk.linalg.qr(x)), [signed(4, 3)]),
    (lambda x: list(opsdk.linalg.qr(x)), [signed(2, 4)]),
    (lambda x: opsdk.linalg.qr(x)[0], [signed(3, 3)]),
    (lambda x: opsdk.linalg.qr(x, mode="r"), [signed(4, 3)]),
    (lambda x: opsdk.linalg.cond(x), [signed(3, 3)]),
    (lambda x: opsdk.linalg.cov(x), [OBS]),
    (lambda x, a: opsdk.linalg.cov(x, aweights=a), [OBS, AW]),
    (lambda x: opsdk.linalg.corrcoef(x), [OBS]),
    (lambda b, y: opsdk.linalg.cholesky_solve(b, y), [signed(3, 2), LOWER]),
    (lambda y: opsdk.linalg.cholesky_inverse(y), [LOWER]),
])
def test_gradients_to_second_order(fn, arrays):
    assert_gradients(fn, arrays)


def test_slogdet_of_a_singular_matrix_and_a_large_one():
    s = opsdk.linalg.slogdet(opsdk.to_tensor([[1.0, 2.0], [2.0, 4.0]], dtype="float64"))
    assert s.tolist() == [0.0, -np.inf]
    big = opsdk.to_tensor(np.eye(400) * 10.0)  # det overflows; its log does not
    np.testing.assert_allclose(opsdk.linalg.slogdet(big).numpy(), [1.0, 400 * np.log(10.0)])


@pytest.mark.parametrize("call, error", [
    (lambda: opsdk.linalg.slogdet(opsdk.ones([2, 3])), ShapeError),
    (lambda: opsdk.linalg.slogdet(opsdk.ones([2, 2], dtype="float16")), DTypeError),
    (lambda: opsdk.linalg.cov(opsdk.ones([2, 2, 2])), ShapeError),
    (lambda: opsdk.linalg.eigh(opsdk.ones([2, 2]), UPLO="X"), ValueError),
    (lambda: opsdk.linalg.svd(opsdk.ones([2, 3]), full_matrices=True), NotImplementedError),
    (lambda: opsdk.linalg.svd(opsdk.ones([3])), DTypeError),
    (lambda: opsdk.linalg.cond(opsdk.ones([2, 2]), p=3), ValueError),
    (lambda: opsdk.linalg.qr(opsdk.ones([2, 2]), mode="x"), ValueError),
    (lambda: opsdk.linalg.qr(opsdk.ones([3, 2], stop_gradient=False), mode="complete"),
     NotImplementedError),
    (lambda: opsdk.linalg.cholesky(opsdk.to_tensor([[1.0, 2.0], [2.0, 1.0]])), ValueError),
    (lambda: opsdk.linalg.cov(opsdk.ones([2, 3]), fweights=opsdk.ones([2])), ShapeError),
    (lambda: opsdk.linalg.cholesky_inverse(opsdk.ones([2, 3])), ShapeError),
])
def test_bad_arguments_are_clear_errors(call, error):
    with pytest.raises(error):
        call()


def test_qr_complete_of_a_tall_constant():
    q, r = opsdk.linalg.qr(opsdk.to_tensor(signed(4, 3)), mode="complete")
    assert (q.shape, r.shape) == ([4, 4], [4, 3])
    np.testing.assert_allclose(opsdk.matmul(q, r).numpy(), signed(4, 3), atol=1e-12)


_RNG = np.random.default_rng(3)
LSTSQ = [(_RNG.standard_normal((4, 3)), _RNG.standard_normal((4, 2))),
         (_RNG.standard_normal((3, 4)), _RNG.standard_normal((3, 2))),
         (_RNG.standard_normal((2, 4, 3)), _RNG.standard_normal((2, 4, 1))),
         (_RNG.standard_normal((2, 3, 4)), _RNG.standard_normal((2, 3, 2))),
         (np.outer([1.0, 2, 3, 4], [1.0, 1, 2]), _RNG.standard_normal((4, 2)))]


@pytest.mark.paddle
@pytest.mark.parametrize("case, driver", [
    (case, driver) for case in range(len(LSTSQ))
    for driver in (None, "gels", "gelsy", "gelsd", "gelss")
    # gels assumes full rank (LAPACK's result is undefined for the rank-1 case)
    if not (driver == "gels" and case == 4)])
def test_lstsq_outputs_as_paddles(case, driver):
    a, b = LSTSQ[case]
    paddle = import_paddle()
    got = opsdk.linalg.lstsq(opsdk.to_tensor(a), opsdk.to_tensor(b), driver=driver)
    want = paddle.linalg.lstsq(paddle.to_tensor(a), paddle.to_tensor(b), driver=driver)
    for g, w in zip(got, want):
        assert list(g.shape) == list(w.shape)
        assert str(g.dtype).rsplit(".", 1)[-1] == str(w.dtype).rsplit(".", 1)[-1].lower()
        np.testing.assert_allclose(g.numpy(), w.numpy(), atol=1e-8)


def test_lstsq_method_and_errors():
    a, b = LSTSQ[0]
    sol = opsdk.to_tensor(a).lstsq(opsdk.to_tensor(b))[0]
    np.testing.assert_allclose(sol.numpy(), np.linalg.lstsq(a, b, rcond=None)[0], atol=1e-12)
    with pytest.raises(ValueError):
        opsdk.linalg.lstsq(opsdk.to_tensor(a), opsdk.to_tensor(b), driver="nope")
    with pytest.raises(ShapeError):
        opsdk.linalg.lstsq(opsdk.to_tensor(a), opsdk.to_tensor(b[:3]))


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


def _lu(P, x, **kwargs):
    return list(P.linalg.lu(x, **kwargs))


def _unpacked(P, x, **kwargs):
    return list(P.linalg.lu_unpack(*P.linalg.lu(x), **kwargs))


test_lu_values_and_gradients_match_paddle = paddle_cases({
    "lu": (_lu, [np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]])]),
    "lu_random": (_lu, [signed(4, 4)]),
    "lu_batch_infos": (lambda P, x: _lu(P, x, get_infos=True), [signed(2, 3, 3)]),
    "lu_unpack": (_unpacked, [signed(3, 3)]),
    "lu_unpack_method": (lambda P, x: list(P.linalg.lu(x)[0].lu_unpack(P.linalg.lu(x)[1])),
                         [signed(2, 3, 3)]),
})

# non-square: values only (the gradient is for square matrices, as Paddle's)
LU_VALUES = {
    "tall": (_lu, [signed(4, 3)]), "wide": (_lu, [signed(2, 3)]),
    "unpack_tall": (_unpacked, [signed(4, 3)]), "unpack_wide": (_unpacked, [signed(2, 3)]),
    "unpack_no_pivots": (lambda P, x: _unpacked(P, x, unpack_pivots=False), [signed(3, 3)]),
    "unpack_no_factors": (lambda P, x: _unpacked(P, x, unpack_ludata=False), [signed(3, 3)]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("fn, arrays", LU_VALUES.values(), ids=list(LU_VALUES))
def test_lu_values_as_paddles(fn, arrays):
    assert_same_as_paddle(fn, arrays, diff=())


def test_lu_reconstructs_and_differentiates_again():
    x = signed(4, 4)
    p, low, up = opsdk.linalg.lu_unpack(*opsdk.linalg.lu(opsdk.to_tensor(x)))
    np.testing.assert_allclose((p.numpy() @ low.numpy() @ up.numpy()), x, atol=1e-12)
    assert_gradients(lambda a: opsdk.linalg.lu(a)[0], [signed(3, 3)])
    with pytest.raises(ValueError):
        opsdk.linalg.lu(opsdk.to_tensor(x), pivot=False)
