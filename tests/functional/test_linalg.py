"""Matrix products: every matmul layout against NumPy, gradients to second order against the
oracle (batching and broadcasting included), and shape errors. inv, det, solve: values and
gradients against Paddle and central differences (to second order), batched inputs, a vector
right-hand side, errors naming the op and argument."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed

LAYOUTS = {
    "matrix_matrix": ((2, 3), (3, 4)),
    "vector_matrix": ((3,), (3, 2)),
    "matrix_vector": ((2, 3), (3,)),
    "vector_vector": ((3,), (3,)),
    "batch_batch": ((2, 2, 3), (2, 3, 2)),
    "batch_broadcast_matrix": ((2, 2, 3), (3, 2)),
    "broadcast_batches": ((2, 1, 2, 3), (3, 3, 2)),
    "batch_vector": ((2, 2, 3), (3,)),
}


@pytest.mark.parametrize("xs, ys", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_matmul_values_match_numpy(xs, ys):
    a, b = signed(*xs), signed(*ys, seed=1)
    got = opsdk.matmul(opsdk.to_tensor(a), opsdk.to_tensor(b))
    want = a @ b
    assert got.shape == list(np.shape(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("xs, ys", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_matmul_gradients_match_central_differences_to_second_order(xs, ys):
    assert_gradients(opsdk.matmul, [signed(*xs), signed(*ys, seed=1)])


@pytest.mark.parametrize("tx, ty", [(True, False), (False, True), (True, True)])
def test_matmul_transpose_flags_match_numpy_and_central_differences(tx, ty):
    a = signed(3, 2) if tx else signed(2, 3)
    b = signed(4, 3, seed=1) if ty else signed(3, 4, seed=1)
    got = opsdk.matmul(opsdk.to_tensor(a), opsdk.to_tensor(b), transpose_x=tx, transpose_y=ty)
    np.testing.assert_allclose(got.numpy(), (a.T if tx else a) @ (b.T if ty else b))
    assert_gradients(lambda x, y: opsdk.matmul(x, y, transpose_x=tx, transpose_y=ty), [a, b])


def test_matmul_operator_is_matmul():
    a, b = signed(2, 3), signed(3, 2, seed=1)
    np.testing.assert_allclose((opsdk.to_tensor(a) @ opsdk.to_tensor(b)).numpy(), a @ b)


def test_matmul_gradient_rules_are_dz_wt_and_xt_dz():
    # the rule table of seed 003: Z = XW, dX = dZ W^T, dW = X^T dZ
    x, w = signed(2, 3), signed(3, 4, seed=1)
    dz = signed(2, 4, seed=2)
    xt = opsdk.to_tensor(x, stop_gradient=False)
    wt = opsdk.to_tensor(w, stop_gradient=False)
    gx, gw = opsdk.grad(opsdk.matmul(xt, wt), [xt, wt], grad_outputs=opsdk.to_tensor(dz))
    np.testing.assert_allclose(gx.numpy(), dz @ w.T)
    np.testing.assert_allclose(gw.numpy(), x.T @ dz)


def test_broadcast_batch_gradient_sums_over_the_broadcast_batches():
    x = opsdk.to_tensor(np.ones((4, 2, 3)))
    w = opsdk.to_tensor(np.zeros((3, 2)), stop_gradient=False)
    (gw,) = opsdk.grad(opsdk.matmul(x, w).sum(), w)
    np.testing.assert_array_equal(gw.numpy(), np.full((3, 2), 8.0))


def test_mm_and_bmm_are_matrix_products():
    a, b = signed(2, 2, 3), signed(2, 3, 2, seed=1)
    np.testing.assert_allclose(opsdk.bmm(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy(), a @ b)
    np.testing.assert_allclose(opsdk.mm(opsdk.to_tensor(a[0]), opsdk.to_tensor(b[0])).numpy(),
                               a[0] @ b[0])


def test_dot_and_outer_match_numpy_and_central_differences():
    a, b = signed(3), signed(3, seed=1)
    assert opsdk.dot(opsdk.to_tensor(a), opsdk.to_tensor(b)).item() == pytest.approx(a @ b)
    np.testing.assert_allclose(opsdk.outer(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy(),
                               np.outer(a, b))
    assert_gradients(lambda x, y: opsdk.dot(x, y) * opsdk.outer(x, y), [a, b])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_matmul_keeps_the_dtype_forward_and_backward(dtype):
    x = opsdk.to_tensor(np.ones((2, 3)), dtype=dtype, stop_gradient=False)
    w = opsdk.to_tensor(np.ones((3, 2)), dtype=dtype, stop_gradient=False)
    y = x @ w
    y.sum().backward()
    assert y.dtype == x.grad.dtype == w.grad.dtype == np.dtype(dtype)


def test_matmul_with_different_inner_sizes_names_both_shapes():
    with pytest.raises(ShapeError, match=r"matmul: inner dimensions differ; expected: "
                       r"x.shape\[-1\] == y.shape\[-2\]; got: x \[2, 3\], y \[2, 3\]"):
        opsdk.matmul(opsdk.ones([2, 3]), opsdk.ones([2, 3]))


def test_matmul_with_unbroadcastable_batches_names_both_shapes():
    with pytest.raises(ShapeError, match=r"matmul: batch dimensions.*x \[2, 2, 3\], y \[3, 3, 2\]"):
        opsdk.matmul(opsdk.ones([2, 2, 3]), opsdk.ones([3, 3, 2]))


def test_dot_of_different_shapes_is_an_error():
    with pytest.raises(ShapeError, match=r"dot: expected: equal shapes; got: \[2\] and \[3\]"):
        opsdk.dot(opsdk.ones([2]), opsdk.ones([3]))


# -- square matrices: inv, det, solve -------------------------------------------------
RNG = np.random.default_rng(7)
A = RNG.standard_normal((3, 3)) + 3 * np.eye(3)  # well conditioned
BATCH = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
B = RNG.standard_normal((3, 2))
V = RNG.standard_normal(3)


@pytest.mark.parametrize("a", [A, BATCH], ids=["matrix", "batch"])
def test_inv_and_det_to_second_order(a):
    assert_gradients(lambda x: opsdk.linalg.inv(x), [a])
    assert_gradients(lambda x: opsdk.linalg.det(x), [a])
    np.testing.assert_allclose(opsdk.linalg.inv(opsdk.to_tensor(a)).numpy(), np.linalg.inv(a), rtol=1e-12)
    np.testing.assert_allclose(opsdk.linalg.det(opsdk.to_tensor(a)).numpy(), np.linalg.det(a), rtol=1e-12)


@pytest.mark.parametrize("a, b", [(A, B), (A, V), (BATCH, RNG.standard_normal((2, 3, 2))),
                                  (BATCH, B)], ids=["matrix", "vector", "batch", "broadcast_b"])
def test_solve_to_second_order(a, b):
    got = opsdk.linalg.solve(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy()
    want = np.linalg.solve(a, b[:, None])[:, 0] if b.ndim == 1 else np.linalg.solve(a, b)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert_gradients(lambda x, y: opsdk.linalg.solve(x, y), [a, b])


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["inv", "det", "solve", "solve_vector", "inverse"])
def test_inv_det_solve_match_paddle(case):
    fns = {"inv": (lambda P, x: P.linalg.inv(x), [BATCH]),
           "det": (lambda P, x: P.linalg.det(x), [BATCH]),
           "solve": (lambda P, x, y: P.linalg.solve(x, y), [A, B]),
           "solve_vector": (lambda P, x, y: P.linalg.solve(x, y), [A, V]),
           "inverse": (lambda P, x: P.inverse(x), [A])}
    fn, arrays = fns[case]
    assert_same_as_paddle(fn, arrays, diff=tuple(range(len(arrays))))


def test_inv_det_solve_keep_float32():
    x = opsdk.to_tensor(A.astype("float32"), stop_gradient=False)
    y = opsdk.linalg.inv(x)
    (g,) = opsdk.grad(y.sum(), x)
    assert y.dtype == opsdk.float32 and g.dtype == opsdk.float32


def test_square_matrix_errors_name_the_op_and_argument():
    with pytest.raises(ShapeError, match=r"inv: argument 'x' must be a square matrix.*got: shape \[2, 3\]"):
        opsdk.linalg.inv(opsdk.ones([2, 3]))
    with pytest.raises(OpArgumentError, match="inv: the matrix is singular"):
        opsdk.linalg.inv(opsdk.zeros([2, 2]))
    with pytest.raises(DTypeError, match="det: argument 'x' must be float32 or float64; got: int64"):
        opsdk.linalg.det(opsdk.to_tensor([[1, 2], [3, 4]]))
    with pytest.raises(ShapeError, match="solve: argument 'y' must have 3 rows"):
        opsdk.linalg.solve(opsdk.to_tensor(A), opsdk.ones([2, 2], dtype="float64"))
    with pytest.raises(DTypeError, match="solve: arguments 'x' and 'y' must share one dtype"):
        opsdk.linalg.solve(opsdk.to_tensor(A), opsdk.ones([3], dtype="float32"))
    x = opsdk.to_tensor(np.array([[1.0, 2.0], [2.0, 4.0]]), stop_gradient=False)
    with pytest.raises(OpArgumentError, match="det \\(its gradient\\): the matrix is singular"):
        opsdk.grad(opsdk.linalg.det(x), x)


@pytest.mark.parametrize("xs, ys", [((7,), (7,)), ((3, 4), (2, 4)), ((2, 3, 5), (4, 5)), ((), (3, 2))])
def test_inner_is_numpys_inner_with_gradients_to_second_order(xs, ys):
    a, b = signed(*xs), signed(*ys, seed=1)
    got = opsdk.inner(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy()
    np.testing.assert_allclose(got, np.inner(a, b), rtol=1e-12)
    assert_gradients(opsdk.inner, [a, b])


@pytest.mark.parametrize("xs, ys", [((5, 10, 0), (2, 0)), ((0,), (0,)), ((0, 0), (1, 0)),
                                    ((5, 1, 1), (1, 0, 1))])
def test_inner_of_empty_tensors_has_numpys_shape_and_gradients_of_the_inputs_shapes(xs, ys):
    # the shapes of Paddle's own zero-size inner test (test_inner.py)
    x = opsdk.to_tensor(np.ones(xs), stop_gradient=False)
    y = opsdk.to_tensor(np.ones(ys), stop_gradient=False)
    out = opsdk.inner(x, y)
    assert out.shape == list(np.inner(np.ones(xs), np.ones(ys)).shape)
    out.sum().backward()
    assert x.grad.shape == list(xs) and y.grad.shape == list(ys)


def test_inner_does_not_conjugate_complex_values():
    a = signed(3, 4) + 1j * signed(3, 4, seed=2)
    b = signed(4) + 1j * signed(4, seed=3)
    np.testing.assert_allclose(opsdk.inner(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy(),
                               np.inner(a, b), rtol=1e-12)


@pytest.mark.paddle
def test_inner_matches_paddle():
    assert_same_as_paddle(lambda p, x, y: p.inner(x, y), [signed(2, 3, 5), signed(4, 5, seed=1)],
                          diff=(0, 1))


def test_inner_refuses_arrays_and_mismatched_last_axes():
    x = opsdk.to_tensor(signed(20, 5))
    with pytest.raises(TypeError, match="inner: argument 'y' must be a Tensor; got: ndarray"):
        opsdk.inner(x, signed(5))
    with pytest.raises(ShapeError, match=r"inner: x and y must have the same last axis"):
        opsdk.inner(x, opsdk.to_tensor(signed(10, 2)))


@pytest.mark.paddle
def test_mv_matches_paddle():
    assert_same_as_paddle(lambda p, x, v: p.mv(x, v), [signed(3, 4), signed(4, seed=1)],
                          diff=(0, 1))


def test_mv_to_second_order_and_as_a_method():
    assert_gradients(lambda x, v: opsdk.mv(x, v), [signed(3, 4), signed(4, seed=1)])
    x, v = opsdk.to_tensor(signed(2, 3)), opsdk.to_tensor(signed(3, seed=2))
    np.testing.assert_allclose(x.mv(v).numpy(), signed(2, 3) @ signed(3, seed=2), rtol=1e-12)


@pytest.mark.parametrize("xs, vs, words", [([3], [3], "a matrix 'x' and a vector 'vec'"),
                                           ([2, 3], [3, 1], "a matrix 'x' and a vector 'vec'"),
                                           ([2, 3], [2], "second dimension must equal")])
def test_mv_refuses_other_shapes_as_paddle(xs, vs, words):
    with pytest.raises(ShapeError, match=f"mv: .*{words}"):
        opsdk.mv(opsdk.ones(xs), opsdk.ones(vs))
