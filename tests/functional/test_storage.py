"""x.data, x.grad_, x.resize_, x.set_, as_strided and the typed constructors
(FloatTensor, LongTensor, ...): as Paddle 3.3.1 where installed (values, dtypes, shapes,
memory sharing, inplace_version), gradients through resize_, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ShapeError
from helpers.frameworks import assert_same_as_paddle, import_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed


def _resized(shape, fill_zero=False):
    def fn(P, x):
        y = x * 1
        y.resize_(shape, fill_zero=fill_zero)
        return y
    return fn


@pytest.mark.paddle
@pytest.mark.parametrize("shape, fill_zero, x", [
    ([2], False, signed(3)), ([3, 2], False, signed(2, 3)), ([2, 3], True, signed(4))])
def test_resize_values_as_paddles(shape, fill_zero, x):
    assert_same_as_paddle(_resized(shape, fill_zero), [x], diff=())


@pytest.mark.paddle
def test_resize_version_as_paddles():
    paddle = import_paddle()
    for P in (opsdk, paddle):
        z = P.to_tensor([1.0, 2.0, 3.0])
        v = z.inplace_version
        assert z.resize_([2, 2], fill_zero=True) is z and z.inplace_version == v + 1


def test_resize_gradient_to_second_order():
    """The gradient of the values kept (Paddle 3.3.1 hands x a gradient of the new shape, which
    is not a derivative: a deliberate difference)."""
    def fn(x):
        y = x * x
        y.resize_([2, 3])
        return y * 2
    assert_gradients(fn, [signed(2, 2)])


@pytest.mark.paddle
def test_data_and_grad_as_paddles():
    paddle = import_paddle()
    for P in (opsdk, paddle):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        d = x.data
        assert d.stop_gradient is True and d is not x
        assert (x * 2).data.stop_gradient is True
        x.data = P.to_tensor([5.0, 6.0, 7.0])
        assert x.numpy().tolist() == [5.0, 6.0, 7.0] and x.stop_gradient is False
        assert x.grad_ is None
        (x * x).sum().backward()
        assert x.grad_.numpy().tolist() == [10.0, 12.0, 14.0]


def test_data_shares_memory_and_takes_a_new_shape():
    x = opsdk.to_tensor([1.0, 2.0])
    x.data[0] = 9.0
    assert x.tolist() == [9.0, 2.0]
    x.data = opsdk.to_tensor([[1, 2, 3]])
    assert x.shape == [1, 3] and str(x.dtype) == "paddle.int64"


@pytest.mark.paddle
@pytest.mark.parametrize("args", [(), (2,), ([2, 2], [1, 2]), ([2, 2], [1, 2], 4), ([2, 2],)])
def test_set_shares_the_source_as_paddle(args):
    paddle = import_paddle()
    results = []
    for P in (opsdk, paddle):
        z = P.to_tensor([1.0, 2.0, 3.0])
        src = P.arange(6, dtype="float32")
        v = z.inplace_version
        out = z.set_(src, *args) if args != (2,) else z.set_(src[:2])
        assert out is z
        results.append((z.numpy().copy(), z.inplace_version - v))
        if args:
            src[0] = 100.0  # the memory is shared: z sees it where it reads element 0
    (got, gv), (want, wv) = results
    np.testing.assert_array_equal(got, want)
    assert gv == wv


@pytest.mark.paddle
def test_is_shared_buffer_with_tells_what_set_shares_as_paddle():
    # the private method Paddle's set_ docstring prints
    paddle = import_paddle()
    seen = []
    for P in (opsdk, paddle):
        x, src, other = P.to_tensor([1.0, 2.0]), P.to_tensor([3.0, 4.0, 5.0]), P.ones([2])
        before = x._is_shared_buffer_with(src)
        x.set_(src)
        seen.append((before, x._is_shared_buffer_with(src), x._is_shared_buffer_with(other)))
    assert seen[0] == seen[1] == (False, True, False)


def test_set_without_source_empties_and_shares_memory():
    z = opsdk.to_tensor([1.0, 2.0])
    z.set_()
    assert z.shape == [0]
    src = opsdk.to_tensor([4.0, 5.0])
    z.set_(src)
    src[0] = 9.0
    assert z.tolist() == [9.0, 5.0]


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["BoolTensor", "ByteTensor", "CharTensor", "ShortTensor",
                                  "IntTensor", "LongTensor", "HalfTensor", "FloatTensor",
                                  "DoubleTensor"])
@pytest.mark.parametrize("args", [(), (2, 3), ([1, 0, 2],), ([[1, 2]],)])
def test_typed_constructors_as_paddles(name, args):
    paddle = import_paddle()
    got, want = getattr(opsdk, name)(*args), getattr(paddle, name)(*args)
    assert (str(got.dtype), list(got.shape)) == (str(want.dtype), list(want.shape))
    if args and not isinstance(args[0], int):
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_typed_constructors_keep_an_arrays_dtype():
    assert str(opsdk.FloatTensor(np.array([1.0, 2.0])).dtype) == "paddle.float64"
    assert not isinstance(opsdk.to_tensor([1.0]), opsdk.FloatTensor)


@pytest.mark.parametrize("call", [
    lambda: opsdk.zeros([3]).set_(opsdk.arange(6.0), [4, 4]),
    lambda: opsdk.zeros([3]).set_(opsdk.arange(6.0), [2], [1], 3),
    lambda: opsdk.zeros([3]).resize_([-1, 2]),
])
def test_bad_arguments_are_shape_errors(call):
    with pytest.raises(ShapeError):
        call()


@pytest.mark.paddle
@pytest.mark.parametrize("args", [([2, 2], [1, 2]), ([3], [2]), ([2, 2], [2, 1], 8),
                                  ([2, 3], [3, 1]), ([2, 2], [2, 1], 16)])
def test_as_strided_values_and_gradients_as_paddles(args):
    assert_same_as_paddle(lambda P, x: P.as_strided(x, *args) * 1, [signed(6)], diff=(0,))


@pytest.mark.paddle
def test_overlapping_windows_values_as_paddles():
    assert_same_as_paddle(lambda P, x: x.as_strided([4, 3], [1, 1]), [signed(6)],
                          dtypes=["float32"], diff=())


def test_overlapping_windows_gradients_add_up():
    """Paddle 3.3.1 keeps the last gradient written at a shared position (no derivative);
    opsdk's is the gather's: they add up, to second order."""
    x = opsdk.to_tensor(np.arange(6.0), stop_gradient=False)
    windows = opsdk.as_strided(x, [4, 3], [1, 1])
    (g,) = opsdk.grad(windows.sum(), x)
    assert g.tolist() == [1.0, 2.0, 3.0, 3.0, 2.0, 1.0]
    assert_gradients(lambda t: opsdk.as_strided(t * t, [2, 3], [2, 1]), [signed(6)])


@pytest.mark.parametrize("call", [
    lambda: opsdk.as_strided(opsdk.ones([6]), [2, 3], [3, 1], 8),
    lambda: opsdk.as_strided(opsdk.ones([6]), [2, 3], [3, 1], 3),
    lambda: opsdk.as_strided(opsdk.ones([6]), [2, 3], [3]),
])
def test_as_strided_refuses_windows_past_the_tensor(call):
    with pytest.raises(ShapeError):
        call()
