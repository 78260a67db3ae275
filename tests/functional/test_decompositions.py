"""paddle.linalg's decompositions (opsdk/functional/decompositions.py): values and first-order
gradients against Paddle 3.3.1 (PyTorch where Paddle has no gradient or crashes), second order
against central differences, batching, output dtypes and shapes, errors as Paddle's."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError, ShapeError, UnsupportedError
from helpers.frameworks import (assert_raises_as_paddle, assert_same_as_paddle,
                                assert_same_as_torch, import_paddle,
                                import_torch)
from helpers.gradients import assert_first_order, assert_second_order
from helpers.samples import signed


def spd(*batch, n=3, seed=0):
    """Symmetric positive definite matrices [*batch, n, n] with well separated eigenvalues."""
    a = signed(*batch, n, n, seed=seed)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def lower(*batch, n=3, seed=0):
    """Lower triangular matrices with a diagonal away from 0."""
    return np.tril(signed(*batch, n, n, seed=seed)) + 2 * np.eye(n)


def sym(x):
    """x + x^T (what the symmetric ops read, so central differences see every entry)."""
    return x + opsdk.linalg.matrix_transpose(x)


def spd_of(x):
    """A positive definite matrix from any square x, differentiable."""
    n = x.shape[-1]
    return opsdk.matmul(x, x, transpose_y=True) + opsdk.to_tensor(n * np.eye(n))


SQUARE = signed(2, 3, 3)
TALL = signed(2, 4, 3, seed=1)
WIDE = signed(2, 3, 5, seed=2)

CASES = {
    "slogdet": (lambda P, x: P.linalg.slogdet(x), [SQUARE]),
    "slogdet_single": (lambda P, x: P.linalg.slogdet(x), [signed(4, 4)]),
    "slogdet_singular": (lambda P, x: P.linalg.slogdet(x), [np.array([[1.0, 2.0], [2.0, 4.0]])]),
    "cholesky": (lambda P, x: P.linalg.cholesky(x), [spd(2)]),
    "cholesky_upper": (lambda P, x: P.linalg.cholesky(x, upper=True), [spd(2)]),
    "cholesky_top": (lambda P, x: P.cholesky(x), [spd()]),
    "triangular_solve": (lambda P, x, y: P.linalg.triangular_solve(x, y), [lower(2).swapaxes(-1, -2), signed(2, 3, 2, seed=3)]),
    "triangular_solve_lower_t": (lambda P, x, y: P.linalg.triangular_solve(x, y, upper=False, transpose=True), [lower(2), signed(2, 3, 2, seed=3)]),
    "cholesky_solve": (lambda P, x, y: P.linalg.cholesky_solve(x, y), [signed(2, 3, 2, seed=3), lower(2)]),
    "cholesky_solve_upper": (lambda P, x, y: P.linalg.cholesky_solve(x, y, upper=True), [signed(3, 2, seed=3), lower().T.copy()]),
    "cholesky_inverse": (lambda P, x: P.linalg.cholesky_inverse(x), [lower()]),
    "cholesky_inverse_upper": (lambda P, x: P.linalg.cholesky_inverse(x, upper=True), [lower().T.copy()]),
    # (batched, Paddle's eigenvalue gradients are wrong: test_batched_eigenvalues_match_torch)
    "eigh": (lambda P, x: P.linalg.eigh(x), [spd()]),
    "eigh_upper": (lambda P, x: P.linalg.eigh(x, UPLO="U"), [spd()]),
    "eigh_vectors_only": (lambda P, x: P.linalg.eigh(x)[1], [spd(2)]),
    "eigvalsh": (lambda P, x: P.linalg.eigvalsh(x), [spd()]),
    "svd_square": (lambda P, x: P.linalg.svd(x), [SQUARE]),
    "svd_tall": (lambda P, x: P.linalg.svd(x), [TALL]),
    "svd_wide": (lambda P, x: P.linalg.svd(x), [WIDE]),
    "svd_values_only": (lambda P, x: P.linalg.svd(x)[1], [TALL]),
    "svd_full_tall": (lambda P, x: [t.abs() for t in P.linalg.svd(x, full_matrices=True)], [TALL]),
    "svd_full_wide": (lambda P, x: [t.abs() for t in P.linalg.svd(x, full_matrices=True)], [WIDE]),
    "svdvals": (lambda P, x: P.linalg.svdvals(x), [WIDE]),
    "qr_square": (lambda P, x: P.linalg.qr(x), [SQUARE]),
    "qr_tall": (lambda P, x: P.linalg.qr(x), [TALL]),
    "qr_wide": (lambda P, x: P.linalg.qr(x), [WIDE]),
    "qr_complete_wide": (lambda P, x: P.linalg.qr(x, mode="complete"), [WIDE]),
    "pinv": (lambda P, x: P.linalg.pinv(x), [TALL]),
    "pinv_wide": (lambda P, x: P.linalg.pinv(x), [WIDE]),
    "pinv_hermitian": (lambda P, x: P.linalg.pinv(x, hermitian=True), [spd()]),
    "cond": (lambda P, x: P.linalg.cond(x), [SQUARE]),
    "cond_tall": (lambda P, x: P.linalg.cond(x), [TALL]),
    "cond_minus_2": (lambda P, x: P.linalg.cond(x, p=-2), [SQUARE]),
    "cond_fro": (lambda P, x: P.linalg.cond(x, p="fro"), [SQUARE]),
    "cond_nuc": (lambda P, x: P.linalg.cond(x, p="nuc"), [SQUARE]),
    "cond_inf": (lambda P, x: P.linalg.cond(x, p=float("inf")), [SQUARE]),
    "matrix_norm_nuc": (lambda P, x: P.linalg.matrix_norm(x, p="nuc"), [TALL]),
    "matrix_norm_2": (lambda P, x: P.linalg.matrix_norm(x, p=2), [TALL]),
    "matrix_norm_minus_2_keepdim": (lambda P, x: P.linalg.matrix_norm(x, p=-2, axis=[0, 2], keepdim=True), [TALL]),
    "norm_two_axes_default": (lambda P, x: P.linalg.norm(x, axis=[1, 2]), [TALL]),
    "norm_nuc": (lambda P, x: P.linalg.norm(x, p="nuc", axis=[-2, -1]), [TALL]),
    "norm_nuc_no_axis": (lambda P, x: P.linalg.norm(x, p="nuc"), [signed(3, 4)]),
    "norm_top_level_1_two_axes": (lambda P, x: P.norm(x, p=1, axis=[0, 1]), [signed(3, 4)]),
    "matrix_exp": (lambda P, x: P.linalg.matrix_exp(x), [SQUARE]),
    "cov": (lambda P, x: P.linalg.cov(x), [signed(3, 5)]),
    "cov_cols_no_ddof": (lambda P, x: P.linalg.cov(x, rowvar=False, ddof=False), [signed(5, 3)]),
    "cov_vector": (lambda P, x: P.linalg.cov(x), [signed(5)]),
    "corrcoef": (lambda P, x: P.linalg.corrcoef(x), [signed(3, 5)]),
    "corrcoef_cols": (lambda P, x: P.linalg.corrcoef(x, rowvar=False), [signed(5, 3)]),
    "corrcoef_vector": (lambda P, x: P.linalg.corrcoef(x), [signed(5)]),
    # a zero pivot: inf/nan (LAPACK's trsm) rather than an error, in values and gradients
    "triangular_solve_singular": (lambda P, x, y: P.linalg.triangular_solve(x, y, upper=False),
                                  [np.array([[1.0, 0.0], [2.0, 0.0]]), np.ones((2, 1))]),
    "lu_singular": (lambda P, x: P.linalg.lu(x)[0], [np.array([[1.0, 2.0], [2.0, 4.0]])]),
    "lu": (lambda P, x: P.linalg.lu(x)[0], [SQUARE]),
    "lu_tall": (lambda P, x: P.linalg.lu(x)[0], [TALL]),
    "lu_wide": (lambda P, x: P.linalg.lu(x)[0], [WIDE]),
    "lu_unpack": (lambda P, x: P.linalg.lu_unpack(*P.linalg.lu(x)), [SQUARE]),
    "lu_unpack_tall": (lambda P, x: P.linalg.lu_unpack(*P.linalg.lu(x)), [TALL]),
    "lu_unpack_no_pivots": (lambda P, x: P.linalg.lu_unpack(*P.linalg.lu(x), unpack_pivots=False), [WIDE]),
    "lu_solve": (lambda P, b, x: P.linalg.lu_solve(b, *P.linalg.lu(x)), [signed(2, 3, 2, seed=5), SQUARE]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", CASES)
def test_values_and_gradients_match_paddle(case):
    fn, arrays = CASES[case]
    assert_same_as_paddle(fn, arrays, diff=tuple(range(len(arrays))), rtol=1e-7, atol=1e-10)


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["slogdet", "cholesky", "eigh", "svd_tall", "qr_tall", "pinv",
                                  "matrix_exp", "cov", "lu"])
def test_float32_matches_paddle(case):
    fn, arrays = CASES[case]
    assert_same_as_paddle(fn, arrays, dtypes=["float32"] * len(arrays),
                          diff=tuple(range(len(arrays))), rtol=2e-4, atol=1e-5)


SECOND = {
    "slogdet": (lambda x: opsdk.linalg.slogdet(x)[1], [SQUARE]),
    "cholesky": (lambda x: opsdk.linalg.cholesky(spd_of(x)), [signed(2, 3, 3)]),
    "cholesky_upper": (lambda x: opsdk.linalg.cholesky(spd_of(x), upper=True), [signed(3, 3)]),
    "triangular_solve": (lambda x, y: opsdk.linalg.triangular_solve(x, y, upper=False),
                         [lower(2), signed(2, 3, 2, seed=3)]),
    "triangular_solve_unit_t": (lambda x, y: opsdk.linalg.triangular_solve(x, y, transpose=True, unitriangular=True),
                                [lower().T.copy(), signed(3, 2, seed=3)]),
    "cholesky_solve": (lambda x, y: opsdk.linalg.cholesky_solve(x, opsdk.tril(y)), [signed(3, 2, seed=3), lower()]),
    "cholesky_inverse": (lambda x: opsdk.linalg.cholesky_inverse(opsdk.tril(x)), [lower()]),
    "eigh": (lambda x: opsdk.linalg.eigh(sym(x)), [spd(2)]),
    "eigvalsh": (lambda x: opsdk.linalg.eigvalsh(sym(x)), [spd()]),
    "svd_tall": (lambda x: [t.abs() for t in opsdk.linalg.svd(x)], [TALL]),
    "svd_wide": (lambda x: [t.abs() for t in opsdk.linalg.svd(x)], [WIDE]),
    "svdvals": (lambda x: opsdk.linalg.svdvals(x), [TALL]),
    "qr_tall": (lambda x: opsdk.linalg.qr(x), [TALL]),
    "qr_wide": (lambda x: opsdk.linalg.qr(x), [WIDE]),
    "pinv": (lambda x: opsdk.linalg.pinv(x), [TALL]),
    "pinv_hermitian": (lambda x: opsdk.linalg.pinv(sym(x), hermitian=True), [spd()]),
    "cond": (lambda x: opsdk.linalg.cond(x), [SQUARE]),
    "matrix_norm_nuc": (lambda x: opsdk.linalg.matrix_norm(x, "nuc"), [TALL]),
    "matrix_exp": (lambda x: opsdk.linalg.matrix_exp(x), [SQUARE]),
    "corrcoef": (lambda x: opsdk.linalg.corrcoef(x), [signed(3, 5)]),
    "lu": (lambda x: opsdk.linalg.lu(x)[0], [SQUARE]),
    "lu_tall": (lambda x: opsdk.linalg.lu(x)[0], [TALL]),
    "lu_wide": (lambda x: opsdk.linalg.lu(x)[0], [WIDE]),
    "lu_solve": (lambda b, x: opsdk.linalg.lu_solve(b, *opsdk.linalg.lu(x)), [signed(3, 2, seed=5), signed(3, 3)]),
    "lu_solve_t": (lambda b, x: opsdk.linalg.lu_solve(b, *opsdk.linalg.lu(x), trans="T"), [signed(3, 2, seed=5), signed(3, 3)]),
    "matrix_exp_large": (lambda x: opsdk.linalg.matrix_exp(x), [3 * signed(3, 3, seed=4)]),
}


# (central differences through an eigendecomposition or an ill-conditioned inverse agree to
# about 1e-5 only)
LOOSE = {"eigh", "cond"}


@pytest.mark.parametrize("case", SECOND)
def test_gradients_match_central_differences_to_second_order(case):
    fn, arrays = SECOND[case]
    assert_first_order(fn, arrays)
    assert_second_order(fn, arrays, rtol=1e-4 if case in LOOSE else 1e-5)


TORCH = {
    # Paddle 3.3.1 gives every matrix of a batch the first one's eigenvalue cotangent
    # (eigenvectors compared up to their sign, which each LAPACK build picks)
    "eigh_batched": (lambda P, x: [t.abs() for t in P.linalg.eigh(x)],
                     lambda x: [t.abs() for t in torch().linalg.eigh(x)], [spd(2)]),
    "eigvalsh_batched": (lambda P, x: P.linalg.eigvalsh(x),
                         lambda x: torch().linalg.eigvalsh(x), [spd(2)]),
    # (symmetrized first: torch's gradient is the general pinv's, not a symmetric one)
    "pinv_hermitian_batched": (
        lambda P, x: P.linalg.pinv((x + x.transpose([0, 2, 1])) / 2, hermitian=True),
        lambda x: torch().linalg.pinv((x + x.mT) / 2, hermitian=True), [spd(2)]),
    # Paddle's gradient of a unit-triangular solve also fills the diagonal and the band above
    "triangular_solve_unit": (
        lambda P, x, y: P.linalg.triangular_solve(x, y, upper=False, unitriangular=True),
        lambda x, y: torch().linalg.solve_triangular(x, y, upper=False, unitriangular=True),
        [lower(2), signed(3, 4, seed=3)]),
    # Paddle 3.3.1's matrix_exp backward fails for a matrix it has to scale (an in-place error)
    "matrix_exp_large": (lambda P, x: P.linalg.matrix_exp(x),
                         lambda x: torch().linalg.matrix_exp(x), [3 * signed(2, 3, 3, seed=4)]),
    # Paddle's lu_solve gradient for trans='T' is not the derivative (central differences agree
    # with opsdk and torch)
    "lu_solve_t": (lambda P, b, x: P.linalg.lu_solve(b, *P.linalg.lu(x), trans="T"),
                   lambda b, x: torch().linalg.lu_solve(*torch().linalg.lu_factor(x), b,
                                                       adjoint=True),
                   [signed(2, 3, 2, seed=5), SQUARE]),
    "svd_full_matrices": (lambda P, x: [t.abs() for t in P.linalg.svd(x, full_matrices=True)][1],
                          lambda x: torch().linalg.svd(x, full_matrices=True)[1], [TALL]),
}


def torch():
    return import_torch()


@pytest.mark.parametrize("case", TORCH)
def test_values_and_gradients_match_torch(case):
    ours, theirs, arrays = TORCH[case]
    assert_same_as_torch(ours, theirs, arrays, diff=tuple(range(len(arrays))), rtol=1e-7,
                         atol=1e-10)


ERRORS = {
    "slogdet_not_square": lambda P: P.linalg.slogdet(P.to_tensor(np.ones((2, 3)))),
    "cholesky_not_square": lambda P: P.linalg.cholesky(P.to_tensor(np.ones((2, 3)))),
    "cholesky_not_positive_definite": lambda P: P.linalg.cholesky(P.to_tensor([[1.0, 2.0], [2.0, 1.0]])),
    "cholesky_vector": lambda P: P.linalg.cholesky(P.to_tensor(np.ones(3))),
    "cholesky_solve_rows": lambda P: P.linalg.cholesky_solve(P.to_tensor(np.ones((2, 2))), P.to_tensor(np.eye(3))),
    "cholesky_solve_factor_not_square": lambda P: P.linalg.cholesky_solve(P.to_tensor(np.ones((3, 2))), P.to_tensor(np.ones((3, 2)))),
    "triangular_solve_not_square": lambda P: P.linalg.triangular_solve(P.to_tensor(np.ones((3, 2))), P.to_tensor(np.ones((3, 2)))),
    "eigh_not_square": lambda P: P.linalg.eigh(P.to_tensor(np.ones((2, 3)))),
    "eigh_uplo": lambda P: P.linalg.eigh(P.to_tensor(np.eye(2)), UPLO="X"),
    "eigvalsh_not_square": lambda P: P.linalg.eigvalsh(P.to_tensor(np.ones((2, 3)))),
    "svd_vector": lambda P: P.linalg.svd(P.to_tensor(np.ones(3))),
    "qr_vector": lambda P: P.linalg.qr(P.to_tensor(np.ones(3))),
    "qr_mode": lambda P: P.linalg.qr(P.to_tensor(np.eye(3)), mode="full"),
    "matrix_exp_not_square": lambda P: P.linalg.matrix_exp(P.to_tensor(np.ones((2, 3)))),
    "lu_vector": lambda P: P.linalg.lu(P.to_tensor(np.ones(3))),
    "lu_no_pivoting": lambda P: P.linalg.lu(P.to_tensor(np.eye(3)), pivot=False),
    "cond_p": lambda P: P.linalg.cond(P.to_tensor(np.eye(3)), p=3),
    "cond_fro_not_square": lambda P: P.linalg.cond(P.to_tensor(np.ones((2, 3))), p="fro"),
    "matrix_norm_p": lambda P: P.linalg.matrix_norm(P.to_tensor(np.eye(3)), p=3),
    "norm_two_axes_p": lambda P: P.norm(P.to_tensor(np.eye(3)), p=0, axis=[0, 1]),
    "norm_nuc_3d": lambda P: P.linalg.norm(P.to_tensor(np.ones((2, 2, 2))), p="nuc"),
    "norm_nuc_one_axis": lambda P: P.linalg.norm(P.to_tensor(np.ones((2, 2))), p="nuc", axis=1),
    "lstsq_rows": lambda P: P.linalg.lstsq(P.to_tensor(np.ones((3, 2))), P.to_tensor(np.ones((2, 2)))),
    "lstsq_driver": lambda P: P.linalg.lstsq(P.to_tensor(np.ones((3, 2))), P.to_tensor(np.ones((3, 2))), driver="xyz"),
    "cov_3d": lambda P: P.linalg.cov(P.to_tensor(np.ones((2, 2, 2)))),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", ERRORS)
def test_errors_are_paddles(case):
    assert_raises_as_paddle(ERRORS[case])


def test_triangular_solve_refuses_a_right_hand_side_of_other_rows():
    # (Paddle 3.3.1 returns a result here without an error)
    with pytest.raises(ShapeError, match="triangular_solve: argument 'y' must have 3 rows"):
        opsdk.linalg.triangular_solve(opsdk.to_tensor(np.eye(3)), opsdk.to_tensor(np.ones((2, 2))))


@pytest.mark.parametrize("mode, words", [("r", "mode='r'"), ("complete", "mode='complete' and 4 > 3")])
def test_qr_refuses_the_gradients_paddle_refuses(mode, words):
    x = opsdk.to_tensor(TALL[0], stop_gradient=False)
    out = opsdk.linalg.qr(x, mode=mode)
    loss = out.sum() if mode == "r" else out[0].sum() + out[1].sum()
    with pytest.raises(OpArgumentError, match=words):
        loss.backward()


@pytest.mark.paddle
@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("shapes", [((4, 2), (4, 3)), ((2, 3, 2), (2, 3, 1)), ((2, 4), (2, 3))],
                         ids=["tall", "batched", "wide"])
def test_lstsq_outputs_match_paddle(driver, shapes):
    xs, ys = shapes
    fn = lambda P, x, y: P.linalg.lstsq(x, y, driver=driver)  # noqa: E731
    assert_same_as_paddle(fn, [signed(*xs), signed(*ys, seed=1)], diff=(), rtol=1e-7,
                          atol=1e-10)


def test_lstsq_records_no_gradient_as_paddle():
    x = opsdk.to_tensor(signed(4, 2), stop_gradient=False)
    assert all(t.stop_gradient for t in opsdk.linalg.lstsq(x, opsdk.to_tensor(signed(4, 1))))


RANKS = {
    "default": (lambda P, x: P.linalg.matrix_rank(x), [signed(2, 4, 3)]),
    "deficient": (lambda P, x: P.linalg.matrix_rank(x), [signed(4, 2) @ signed(2, 4, seed=1)]),
    "tol": (lambda P, x: P.linalg.matrix_rank(x, tol=0.5), [signed(3, 3)]),
    "hermitian": (lambda P, x: P.linalg.matrix_rank(x, hermitian=True), [spd(2)]),
    "atol_rtol": (lambda P, x: P.linalg.matrix_rank(x, atol=0.1, rtol=0.2), [signed(2, 3, 3)]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", RANKS)
def test_matrix_rank_matches_paddle(case):
    fn, arrays = RANKS[case]
    assert_same_as_paddle(fn, arrays, diff=())


@pytest.mark.paddle
def test_lu_infos_and_unpacked_pivots_match_paddle():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    fn = lambda P, x: P.linalg.lu(x, get_infos=True)  # noqa: E731
    assert_same_as_paddle(fn, [np.stack([singular, signed(2, 2)])], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("needs_grad", [True, False])
def test_lu_integer_outputs_report_the_inputs_flags_as_paddle(needs_grad):
    # batch 1217: the pivots of an x that needs a gradient are no leaves in Paddle
    paddle = import_paddle()
    flags = []
    for P in (opsdk, paddle):
        x = P.to_tensor([[2.0, 1.0], [1.0, 3.0]], stop_gradient=not needs_grad)
        lu, piv, info = P.linalg.lu(x, get_infos=True)
        flags.append([(t.is_leaf, t.stop_gradient) for t in (piv, info)])
        P.linalg.lu_solve(P.ones([2, 1], dtype="float32"), lu, piv)  # marks piv stop_gradient
        flags.append((piv.is_leaf, piv.stop_gradient))
    assert flags[:2] == flags[2:]


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["weights", "aweights_no_ddof"])
def test_cov_weights_match_paddle(case):
    paddle = import_paddle()
    x = signed(3, 5)
    fw, aw = np.array([1, 2, 1, 3, 1]), np.array([0.5, 1.0, 2.0, 1.0, 0.3])
    kw = ({"fweights": fw, "aweights": aw} if case == "weights" else {"aweights": aw, "ddof": False})
    results = []
    for P in (opsdk, paddle):
        t = P.to_tensor(x, stop_gradient=False)
        args = {k: P.to_tensor(v) if k != "ddof" else v for k, v in kw.items()}
        c = P.linalg.cov(t, **args)
        (g,) = P.grad([c], [t], [P.to_tensor(np.arange(9.0).reshape(3, 3))])
        results.append((c.numpy(), g.numpy()))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-12)


def test_tensor_methods_and_top_level_names_are_the_linalg_functions():
    a = opsdk.to_tensor(spd())
    for name in ("slogdet", "cholesky", "eigvalsh", "qr", "pinv", "cond", "cov", "corrcoef"):
        got, want = getattr(a, name)(), getattr(opsdk.linalg, name)(a)
        for g, w in zip(*(t if isinstance(t, tuple) else (t,) for t in (got, want))):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
    np.testing.assert_array_equal(opsdk.cholesky(a).numpy(), np.linalg.cholesky(spd()))
    np.testing.assert_allclose(opsdk.eigvalsh(a).numpy(), np.linalg.eigvalsh(spd()))
    np.testing.assert_allclose(a.norm(axis=[0, 1]).numpy(), np.linalg.norm(spd(), 2))
    np.testing.assert_allclose(opsdk.norm(a, p=1, axis=[0, 1]).numpy(), np.linalg.norm(spd(), 1))


@pytest.mark.parametrize("name", ["eig", "eigvals"])
def test_complex_results_stay_refused(name):
    with pytest.raises(UnsupportedError, match=f"opsdk.linalg.{name} is not provided"):
        getattr(opsdk.linalg, name)


@pytest.mark.paddle
@pytest.mark.parametrize("op", ["eigh", "svd"])
def test_repeated_eigenvalues_give_nan_gradients_as_paddle_without_a_warning(op):
    paddle = import_paddle()
    grads = []
    for P in (opsdk, paddle):
        x = P.to_tensor(np.diag([2.0, 1.0, 1.0]), stop_gradient=False)
        vectors = P.linalg.eigh(x)[1] if op == "eigh" else P.linalg.svd(x)[0]
        (g,) = P.grad([(vectors * P.to_tensor(signed(3, 3))).sum()], [x])
        grads.append(np.isnan(g.numpy()))
    np.testing.assert_array_equal(grads[0], grads[1])
    assert grads[0].any()


def test_repeated_eigenvalues_with_only_the_values_used_have_a_gradient():
    x = opsdk.to_tensor(np.eye(3), stop_gradient=False)
    (g,) = opsdk.grad([opsdk.linalg.eigvalsh(x).sum() + opsdk.linalg.svdvals(x).sum()], [x])
    np.testing.assert_allclose(g.numpy(), 2 * np.eye(3), atol=1e-12)


@pytest.mark.paddle
def test_lu_unpack_without_the_data_gives_empty_float32_as_paddle():
    # values only: Paddle 3.3.1's backward through this P fails (a shape error in its kernel)
    fn = lambda P, x: P.linalg.lu_unpack(*P.linalg.lu(x), unpack_ludata=False)  # noqa: E731
    assert_same_as_paddle(fn, [SQUARE], diff=())
