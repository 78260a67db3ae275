"""prod, kron, cross: values and dtypes (NumPy, Paddle, PyTorch), gradients to second order,
exact gradients of prod at zeros, 0-d and size-0 inputs, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import DTypeError, InplaceModifiedError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed
from helpers.strategies import shapes

AXES = [None, 0, 1, -1, [0, 2], []]


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=["none", "0", "1", "neg1", "0_2", "empty"])
def test_prod_matches_numpy_and_central_differences(axis, keepdim):
    a = signed(2, 3, 2)
    ax = None if axis in (None, []) else tuple(axis) if isinstance(axis, list) else axis
    got = opsdk.prod(opsdk.to_tensor(a), axis, keepdim)
    np.testing.assert_allclose(got.numpy(), np.prod(a, axis=ax, keepdims=keepdim), rtol=1e-12)
    assert_gradients(lambda x: opsdk.prod(x, axis, keepdim), [a])


@pytest.mark.parametrize("values", [[2.0, 0.0, 4.0], [0.0, 0.0, 4.0], [0.0, 1.5, -2.0, 0.7]],
                         ids=["one_zero", "two_zeros", "lead_zero"])
def test_prod_gradients_are_exact_at_zeros_to_second_order(values):
    assert_gradients(lambda x: opsdk.prod(x), [np.array(values)])


def test_prod_gradient_at_a_zero_is_the_product_of_the_others():
    x = opsdk.to_tensor([[2.0, 0.0, 4.0], [1, 2, 3]], dtype="float64", stop_gradient=False)
    opsdk.prod(x, 1).backward(opsdk.to_tensor([1.0, 2.0], dtype="float64"))
    assert x.grad.numpy().tolist() == [[0, 8, 0], [12, 6, 4]]


def test_writing_into_the_prod_output_before_backward_is_an_error_as_in_paddle():
    # opsdk's rule reads x, but Paddle's prod backward reads the output and refuses after a
    # write into it (RuntimeError): so does opsdk
    x = opsdk.to_tensor([2.0, 3.0, 4.0], dtype="float64", stop_gradient=False)
    y = opsdk.prod(x, 0, keepdim=True)
    with opsdk.no_grad():
        y[0] = 1.0
    with pytest.raises(InplaceModifiedError, match="'prod' reads its own output"):
        y.sum().backward()


def test_prod_dtypes():
    assert opsdk.prod(opsdk.to_tensor([1, 2, 3], dtype="int32")).dtype == "int32"
    assert opsdk.prod(opsdk.to_tensor([1, 2], dtype="int32"), dtype="float64").dtype == "float64"
    x = opsdk.to_tensor([2.0, 3.0], dtype="float32", stop_gradient=False)
    opsdk.prod(x, dtype="float64").backward()
    assert x.grad.dtype == "float32" and x.grad.numpy().tolist() == [3.0, 2.0]


def test_prod_of_zero_d_and_of_an_empty_axis():
    x = opsdk.to_tensor(3.0, dtype="float64", stop_gradient=False)
    assert opsdk.prod(x, 0, keepdim=True).shape == []
    assert_gradients(lambda t: opsdk.prod(t) * 2, [np.array(3.0)])
    e = opsdk.zeros([0, 3], dtype="float64")
    e.stop_gradient = False
    y = opsdk.prod(e, 0)
    assert y.numpy().tolist() == [1.0, 1.0, 1.0]
    (g,) = opsdk.grad([y], [e], [opsdk.ones([3], dtype="float64")])
    assert g.shape == [0, 3]


def test_prod_repeated_or_out_of_range_axes_are_errors():
    with pytest.raises(OpArgumentError, match="prod: argument 'axis' repeats an axis"):
        opsdk.prod(opsdk.ones([2, 2]), [0, 0])
    with pytest.raises(OpArgumentError, match="prod: argument 'axis' out of range"):
        opsdk.prod(opsdk.ones([2]), 1)


def test_kron_matches_numpy_for_mixed_ranks():
    for sa, sb in [((2, 2), (1, 3)), ((2,), (2, 2)), ((), (2, 2)), ((2, 1, 2), (3, 2)), ((), ())]:
        a, b = signed(*sa), signed(*sb, seed=1)
        np.testing.assert_allclose(opsdk.kron(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy(),
                                   np.kron(a, b), rtol=1e-12)


def test_kron_gradients_match_central_differences():
    assert_gradients(lambda x, y: opsdk.kron(x, y) ** 2, [signed(2, 2), signed(2, 1, 3, seed=1)])


def test_kron_needs_one_dtype():
    with pytest.raises(DTypeError, match="kron: 'y' must have the dtype of 'x'"):
        opsdk.kron(opsdk.ones([2], dtype="float32"), opsdk.ones([2], dtype="float64"))


@pytest.mark.parametrize("axis", [9, 1, -1])
def test_cross_values_and_gradients(axis):
    a, b = signed(2, 3), signed(2, 3, seed=1)
    got = opsdk.cross(opsdk.to_tensor(a), opsdk.to_tensor(b), axis)
    np.testing.assert_allclose(got.numpy(), np.cross(a, b), rtol=1e-12)
    assert_gradients(lambda x, y: opsdk.cross(x, y, axis) ** 2, [a, b])


def test_cross_default_axis_is_the_first_of_size_three():
    a, b = signed(3, 2), signed(3, 2, seed=1)
    np.testing.assert_allclose(opsdk.cross(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy(),
                               np.cross(a, b, axis=0), rtol=1e-12)


def test_cross_promotes_two_float_dtypes_and_refuses_bad_shapes():
    r = opsdk.cross(opsdk.ones([3], dtype="float32"), opsdk.ones([3], dtype="float64"))
    assert r.dtype == "float64"
    with pytest.raises(ShapeError, match="cross: 'x' and 'y' must have the same shape"):
        opsdk.cross(opsdk.ones([2, 3]), opsdk.ones([3]))
    with pytest.raises(ShapeError, match="cross: no axis of size 3"):
        opsdk.cross(opsdk.ones([2, 2]), opsdk.ones([2, 2]))
    with pytest.raises(ShapeError, match="cross: axis 0 must have size 3"):
        opsdk.cross(opsdk.ones([2, 3]), opsdk.ones([2, 3]), 0)


@settings(max_examples=40, deadline=None)
@given(shape=shapes(max_dims=3, max_side=3), data=st.data())
def test_prod_over_any_shape(shape, data):
    a = signed(*shape, seed=data.draw(st.integers(0, 99)))
    nd = len(shape)
    axis = data.draw(st.none() | st.integers(-max(nd, 1), max(nd, 1) - 1))
    keep = data.draw(st.booleans())
    got = opsdk.prod(opsdk.to_tensor(a), axis, keep)
    want = np.prod(a, axis=None if axis is None or nd == 0 else axis, keepdims=keep)
    np.testing.assert_allclose(got.numpy(), np.reshape(want, got.shape), rtol=1e-12)
    if a.size <= 8:
        if a.size and data.draw(st.booleans()):
            a.reshape(-1)[0] = 0.0
        assert_gradients(lambda x: opsdk.prod(x, axis, keep) * 1.5, [a])


# -- against Paddle ---------------------------------------------------------------------------
PADDLE_CASES = {
    "prod_all": (lambda P, x: P.prod(x), [signed(2, 3)]),
    "prod_axis_keepdim": (lambda P, x: P.prod(x, 1, keepdim=True), [signed(2, 3)]),
    "prod_axes": (lambda P, x: P.prod(x, [0, 2]), [signed(2, 3, 2)]),
    "prod_0d": (lambda P, x: P.prod(x, 0), [np.array(1.5)]),
    "kron": (lambda P, x, y: P.kron(x, y), [signed(2, 2), signed(1, 3, seed=1)]),
    "kron_ranks": (lambda P, x, y: P.kron(x, y), [signed(2), signed(2, 1, 2, seed=1)]),
    "cross": (lambda P, x, y: P.cross(x, y), [signed(2, 3), signed(2, 3, seed=1)]),
    "cross_axis0": (lambda P, x, y: P.cross(x, y, axis=0), [signed(3, 3), signed(3, 3, seed=1)]),
}


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    a = [np.array([[1, 2, 3], [4, 5, 6]]), np.array([[1, 0, 2], [3, 1, 1]])]
    assert_same_as_paddle(lambda P, x, y: [P.prod(x), P.prod(x, 0), P.kron(x, y), P.cross(x, y)],
                          a, dtypes=[dtype, dtype], diff=())


@pytest.mark.paddle
def test_prod_gradient_is_right_where_paddle_divides_by_zero():
    # Paddle 3.3.1 gives [0, nan, 0] (it divides the product by x); the product of the others
    # is [0, 8, 0], which is what opsdk returns and what PyTorch returns
    assert_same_as_paddle(lambda P, x: P.prod(x), [np.array([2.0, 3.0, 4.0])])
    x = opsdk.to_tensor([2.0, 0.0, 4.0], dtype="float64", stop_gradient=False)
    opsdk.prod(x).backward()
    assert x.grad.numpy().tolist() == [0.0, 8.0, 0.0]


# -- against PyTorch --------------------------------------------------------------------------
@pytest.mark.torch
@pytest.mark.parametrize("values", [[2.0, 0.0, 4.0], [0.0, 0.0, 3.0], [1.5, -0.5, 2.0]])
def test_prod_matches_torch_also_at_zeros(values):
    assert_same_as_torch(lambda P, x: P.prod(x), lambda x: x.prod(), [np.array(values)])


@pytest.mark.torch
def test_kron_and_cross_match_torch():
    torch_kron = __import__("torch").kron
    torch_cross = __import__("torch").linalg.cross
    a, b = signed(2, 3), signed(2, 3, seed=1)
    assert_same_as_torch(lambda P, x, y: P.kron(x, y), torch_kron, [a, b], diff=(0, 1))
    assert_same_as_torch(lambda P, x, y: P.cross(x, y, 1), lambda x, y: torch_cross(x, y, dim=1),
                         [a, b], diff=(0, 1))


def test_cross_refuses_bool_tensors_and_takes_a_tensor_axis():
    with pytest.raises(DTypeError, match="cross: expected: numeric tensors"):
        opsdk.cross(opsdk.ones([3], dtype="bool"), opsdk.ones([3], dtype="bool"))
    a = opsdk.to_tensor([1.0, 0, 0])
    assert opsdk.cross(a, opsdk.to_tensor([0.0, 1, 0]), opsdk.to_tensor(0)).numpy()[2] == 1.0
