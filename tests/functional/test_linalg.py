"""Matrix products: every matmul layout against NumPy, gradients to second order against the
oracle (batching and broadcasting included), and shape errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ShapeError
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
