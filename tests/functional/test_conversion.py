"""The conversions and small helpers of opsdk/functional/conversion.py (x.float() and the other
dtype methods, Tensor.to, requires_grad, as_tensor/asarray/from_numpy, tolist, view,
broadcast_shape(s), finfo/iinfo, set_printoptions, repeat, split_with_sizes, fill_diagonal_,
fill_diagonal_tensor, reduce_as) and the Tensor methods delegating to existing ops (where,
atan2, is_tensor, increment, solve): values, dtypes and gradients against Paddle where
installed, gradients to second order, Paddle's in-place version counts, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ArgumentTypeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, import_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

MIXED = np.array([1.5, -2.5, 0.0, 3.75])
DTYPE_METHODS = ("bool byte char short int long half float double uint8 int8 int16 int32 "
                 "int64 float16 float32 float64").split()


def _fill_diag(value, offset=0, wrap=False):
    # in place on a non-leaf (Paddle refuses a leaf that needs a gradient)
    def fn(P, x):
        y = x * 1
        y.fill_diagonal_(value, offset=offset, wrap=wrap)
        return y
    return fn


test_values_and_gradients_match_paddle = paddle_cases({
    "float": (lambda P, x: x.float() * 2, [MIXED]),
    "half": (lambda P, x: x.half(), [MIXED]),
    "double": (lambda P, x: x.float().double(), [MIXED]),
    "to_dtype": (lambda P, x: x.to("float32"), [MIXED]),
    "to_device_dtype": (lambda P, x: x.to("cpu", "float32"), [MIXED]),
    "to_dtype_keyword": (lambda P, x: x.to(dtype=P.float32), [MIXED]),
    "to_other": (lambda P, x, y: x.to(y) * y, [MIXED, signed(4)]),
    "repeat_tile": (lambda P, x: x.repeat([2, 3, 1]), [signed(2, 3)]),
    "repeat_int": (lambda P, x: x.repeat(2), [signed(2, 3)]),
    "where_method": (lambda P, x, y: (x > 0).where(x, y), [signed(3, 4), signed(3, 4, seed=1)]),
    "atan2_method": (lambda P, x, y: x.atan2(y), [signed(3), signed(3, seed=2)]),
    "split_with_sizes": (lambda P, x: x.split_with_sizes([1, 3], dim=1), [signed(2, 4)]),
    "fill_diagonal": (_fill_diag(5.0), [signed(3, 3)]),
    "fill_diagonal_offset": (_fill_diag(5.0, offset=1), [signed(3, 4)]),
    "fill_diagonal_negative_offset": (_fill_diag(-1.0, offset=-1), [signed(4, 3)]),
    "fill_diagonal_tall": (_fill_diag(2.0), [signed(7, 3)]),
    "fill_diagonal_wrap": (_fill_diag(2.0, wrap=True), [signed(7, 3)]),
    "fill_diagonal_wide": (_fill_diag(2.0), [signed(3, 7)]),
    "fill_diagonal_cube": (_fill_diag(2.0), [signed(3, 3, 3)]),
    "fill_diagonal_tensor": (lambda P, x, y: x.fill_diagonal_tensor(y, offset=1),
                             [signed(3, 4), signed(3)]),
    "fill_diagonal_tensor_dims": (lambda P, x, y: x.fill_diagonal_tensor(y, dim1=1, dim2=2),
                                  [signed(2, 3, 4), signed(2, 3)]),
    "fill_diagonal_tensor_": (lambda P, x, y: (x * 1).fill_diagonal_tensor_(y),
                              [signed(3, 3), signed(3)]),
    "reduce_as": (lambda P, x, y: P.reduce_as(x, y), [signed(2, 3, 4), signed(3, 1)]),
    "reduce_as_method": (lambda P, x, y: x.reduce_as(y), [signed(2, 3), signed(1, 3)]),
    "view_shape": (lambda P, x: P.view(x, [3, 2]), [signed(2, 3)]),
    "solve_method": (lambda P, a, b: a.solve(b),
                     [np.array([[3.0, 1.0], [1.0, 2.0]]), signed(2, 3)]),
})


@pytest.mark.paddle
@pytest.mark.parametrize("method", DTYPE_METHODS)
def test_dtype_methods_give_paddles_values_and_dtypes(method):
    assert_same_as_paddle(lambda P, x: getattr(x, method)(), [MIXED], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("method", ["float", "double", "int", "long", "bool"])
def test_dtype_methods_of_an_int_tensor(method):
    assert_same_as_paddle(lambda P, x: getattr(x, method)(), [np.array([3, 0, -7])],
                          dtypes=["int64"], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["shape", "int32", "float16", "float64"])
def test_view_matches_paddle(case):
    arg = [3, 2] if case == "shape" else case
    assert_same_as_paddle(lambda P, x: P.view(x, arg), [np.arange(6.0) - 2.5],
                          dtypes=["float32"], diff=())


@pytest.mark.paddle
def test_helpers_answer_as_paddles():
    paddle = import_paddle()
    for P in (opsdk, paddle):
        x = P.to_tensor([[1, 2], [3, 4]])
        assert P.tolist(x) == [[1, 2], [3, 4]]
    assert opsdk.broadcast_shape([2, 1, 3], [4, 1]) == paddle.broadcast_shape([2, 1, 3], [4, 1])
    assert (opsdk.broadcast_shapes([2, 1, 3], [4, 1], [1]) ==
            paddle.broadcast_shapes([2, 1, 3], [4, 1], [1]))
    assert opsdk.broadcast_shapes() == paddle.broadcast_shapes() == []
    for dt in ("float16", "float32", "float64"):
        a, b = opsdk.finfo(getattr(opsdk, dt)), paddle.finfo(getattr(paddle, dt))
        for attr in ("min", "max", "eps", "resolution", "smallest_normal", "tiny", "bits",
                     "dtype"):
            assert getattr(a, attr) == getattr(b, attr), (dt, attr)
    for dt in ("uint8", "int8", "int16", "int32", "int64"):
        a, b = opsdk.iinfo(dt), paddle.iinfo(getattr(paddle, dt))
        assert (a.min, a.max, a.bits, a.dtype) == (b.min, b.max, b.bits, b.dtype)
    for P in (opsdk, paddle):
        assert (str(P.float), str(P.double), str(P.half)) == (
            "paddle.float32", "paddle.float64", "paddle.float16")


@pytest.mark.paddle
@pytest.mark.parametrize("make", [
    lambda P: P.as_tensor([1.0, 2.0]),
    lambda P: P.as_tensor([1, 2], requires_grad=True),
    lambda P: P.as_tensor(np.array([1.0, 2.0]), dtype="float32", requires_grad=True),
    lambda P: P.asarray([1.0, 2.0], dtype="float64", requires_grad=True),
    lambda P: P.asarray(np.array([1, 2], np.int32)),
    lambda P: P.from_numpy(np.array([[1.0, 2.0]])),
    lambda P: P.from_numpy(np.array([True, False])),
])
def test_new_tensors_take_paddles_dtype_and_stop_gradient(make):
    paddle = import_paddle()
    got, want = make(opsdk), make(paddle)
    assert str(got.dtype) == str(want.dtype)
    assert got.stop_gradient == want.stop_gradient
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_new_tensors_are_copies():
    a = np.array([1.0, 2.0])
    made = [opsdk.as_tensor(a), opsdk.asarray(a), opsdk.from_numpy(a)]
    t = opsdk.to_tensor([1.0])
    a[0] = 9.0
    assert [m.tolist() for m in made] == [[1.0, 2.0]] * 3
    assert opsdk.as_tensor(t) is not t and opsdk.asarray(t) is not t


def test_conversions_that_change_nothing_return_the_tensor():
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    assert x.float() is x and x.float32() is x and x.to("float32") is x
    assert x.to("cpu") is x and x.to(opsdk.CPUPlace()) is x and x.to(x) is x
    y = x.double()
    assert y is not x and y.stop_gradient is False and str(y.dtype) == "paddle.float64"


def test_conversion_gradients_to_second_order():
    assert_gradients(lambda x: (x.double() * x.to("float64")).sum(), [signed(3)])
    assert_gradients(lambda x: (x.repeat([2, 1]) ** 3).sum(), [signed(2, 3)])
    assert_gradients(lambda x, y: opsdk.reduce_as(x * x, y) * y, [signed(2, 3), signed(3)])

    def filled(x):
        y = x * x
        y.fill_diagonal_(1.5, offset=1)
        return y * x
    assert_gradients(filled, [signed(3, 4)])


def test_requires_grad_is_not_stop_gradient():
    x = opsdk.to_tensor([1.0])
    assert x.requires_grad is False
    x.requires_grad = True
    assert x.stop_gradient is False
    assert x.requires_grad_(False) is x and x.stop_gradient is True
    assert x.requires_grad_() is x and x.requires_grad is True


def test_in_place_fills_count_one_write_and_refuse_a_leaf():
    m = opsdk.zeros([3, 4])
    v = m.inplace_version
    assert m.fill_diagonal_(5.0) is m and m.inplace_version == v + 1
    w = opsdk.ones([2, 2], stop_gradient=False)
    with pytest.raises(Exception, match="leaf|Leaf"):
        w.fill_diagonal_(0.0)


def test_is_tensor_as_a_method():
    assert opsdk.to_tensor([1.0]).is_tensor() is True
    assert opsdk.Tensor.is_tensor(3) is False


def test_increment_method():
    x = opsdk.to_tensor([1.0])
    assert x.increment(2.0).tolist() == [3.0]


def test_set_printoptions_changes_the_repr():
    from opsdk import tensor
    saved = dict(tensor.PRINT_OPTIONS)
    try:
        opsdk.set_printoptions(precision=2)
        assert "1.23]" in repr(opsdk.to_tensor([1.23456]))
        opsdk.set_printoptions(threshold=5, edgeitems=1)
        assert "..." in repr(opsdk.arange(10))
        opsdk.set_printoptions(sci_mode=True)
        assert "e+00" in repr(opsdk.to_tensor([1.5]))
        with pytest.raises(ArgumentTypeError):
            opsdk.set_printoptions(precision="2")
    finally:
        tensor.PRINT_OPTIONS.clear()
        tensor.PRINT_OPTIONS.update(saved)


@pytest.mark.parametrize("call, error", [
    (lambda: opsdk.arange(5).split_with_sizes([2, 2]), ShapeError),
    (lambda: opsdk.to_tensor([1.0]).to("foo"), OpArgumentError),
    (lambda: opsdk.to_tensor([1.0]).to(3), OpArgumentError),
    (lambda: opsdk.finfo("int32"), OpArgumentError),
    (lambda: opsdk.iinfo("float32"), OpArgumentError),
    (lambda: opsdk.zeros([3, 4, 3]).fill_diagonal_(1.0), ShapeError),
    (lambda: opsdk.zeros([3]).fill_diagonal_(1.0), ShapeError),
    (lambda: opsdk.from_numpy([1, 2]), ArgumentTypeError),
    (lambda: opsdk.broadcast_shape([2, 3], [4]), ShapeError),
    (lambda: opsdk.reduce_as(opsdk.ones([2, 3]), opsdk.ones([4])), ShapeError),
    (lambda: opsdk.view(opsdk.ones([3], dtype="float16"), "float32"), ShapeError),
])
def test_bad_arguments_are_clear_errors(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P: P.arange(5).split_with_sizes([2, 2]),
    lambda P: P.to_tensor([1.0]).to("foo"),
    lambda P: P.to_tensor([1.0]).to(3),
    lambda P: P.finfo(P.int32),
    lambda P: P.iinfo(P.float32),
    lambda P: P.broadcast_shape([2, 3], [4]),
])
def test_paddle_refuses_the_same_with_a_value_error(call):
    paddle = import_paddle()
    with pytest.raises(ValueError):
        call(paddle)
    with pytest.raises(ValueError):
        call(opsdk)
