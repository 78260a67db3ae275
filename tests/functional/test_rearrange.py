"""roll, rot90, repeat_interleave, meshgrid: values (NumPy, Paddle, PyTorch), copies not views,
gradients to second order (repeats add up), 0-d and size-0 inputs, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed
from helpers.strategies import shapes

ROLLS = [(1, None), (-2, 1), ([1, -1], [0, 1]), ([1, 1], [1, 1]), (7, -1)]


@pytest.mark.parametrize("shifts, axis", ROLLS)
def test_roll_matches_numpy_with_gradients(shifts, axis):
    a = signed(2, 3)
    np.testing.assert_array_equal(opsdk.roll(opsdk.to_tensor(a), shifts, axis).numpy(),
                                  np.roll(a, shifts, axis))
    assert_gradients(lambda x: opsdk.roll(x, shifts, axis) ** 2 * opsdk.to_tensor(signed(2, 3)),
                     [a])


@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (-1, 0)])
def test_rot90_matches_numpy_with_gradients(k, axes):
    a = signed(2, 3, 2)
    np.testing.assert_array_equal(opsdk.rot90(opsdk.to_tensor(a), k, axes).numpy(),
                                  np.rot90(a, k, axes))
    assert_gradients(lambda x: opsdk.rot90(x, k, axes) ** 2, [a])


def test_results_are_copies_not_views():
    a = signed(2, 2)
    x = opsdk.to_tensor(a)
    outs = [opsdk.rot90(x, 0), opsdk.roll(x, 0), opsdk.repeat_interleave(x, 1, 0),
            *opsdk.meshgrid(opsdk.to_tensor([1.0, 2.0]))]
    x[0, 0] = 100.0
    assert all(o.numpy().max() < 100 for o in outs)


@pytest.mark.parametrize("repeats, axis", [(2, None), (2, 1), ([1, 0, 2], 1), ([2, 1], 0),
                                           ([1, 0, 2, 1, 1, 3], None)])
def test_repeat_interleave_matches_numpy_and_repeats_add_gradients(repeats, axis):
    a = signed(2, 3)
    r = opsdk.to_tensor(repeats) if isinstance(repeats, list) else repeats
    want = np.repeat(a.reshape(-1) if axis is None else a, repeats, 0 if axis is None else axis)
    np.testing.assert_array_equal(opsdk.repeat_interleave(opsdk.to_tensor(a), r, axis).numpy(),
                                  want)
    assert_gradients(lambda x: opsdk.repeat_interleave(x, r, axis) ** 2, [a])


def test_repeat_interleave_checks_its_arguments():
    x = opsdk.ones([2, 3])
    with pytest.raises(OpArgumentError, match="repeat_interleave: an int 'repeats' must be "
                                              "positive"):
        opsdk.repeat_interleave(x, 0, 1)
    with pytest.raises(ShapeError, match="expected: 3 counts; got: 2"):
        opsdk.repeat_interleave(x, opsdk.to_tensor([1, 2]), 1)
    none = opsdk.to_tensor(np.zeros(0, np.int64))
    with pytest.raises(OpArgumentError, match="'repeats' is an empty tensor"):
        opsdk.repeat_interleave(opsdk.zeros([0, 2]), none, 0)
    assert opsdk.repeat_interleave(opsdk.zeros([0]), none, 0).shape == [0]
    with pytest.raises(OpArgumentError, match="'repeats' must not be negative"):
        opsdk.repeat_interleave(x, opsdk.to_tensor([1, -1, 2]), 1)
    with pytest.raises(DTypeError, match="'repeats' must be an integer tensor"):
        opsdk.repeat_interleave(x, opsdk.to_tensor([1.0, 2.0, 1.0]), 1)
    with pytest.raises(ShapeError, match="'output_size' does not match.*expected: 6; got: 5"):
        opsdk.repeat_interleave(x, 2, 1, output_size=5)
    assert opsdk.repeat_interleave(x, 2, 1, output_size=6).shape == [2, 6]
    assert opsdk.repeat_interleave(opsdk.to_tensor(3.0), 2).shape == [2]


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid_matches_numpy_with_gradients(indexing):
    a, b, c = signed(2), signed(3, seed=1), signed(4, seed=2)
    got = opsdk.meshgrid(opsdk.to_tensor(a), opsdk.to_tensor(b), opsdk.to_tensor(c),
                         indexing=indexing)
    for g, w in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
        np.testing.assert_array_equal(g.numpy(), w)
    assert_gradients(lambda x, y: [t ** 2 for t in opsdk.meshgrid([x, y], indexing=indexing)],
                     [a, b])


def test_meshgrid_accepts_0d_inputs_and_checks_dtypes_and_ranks():
    g = opsdk.meshgrid(opsdk.to_tensor(1.0), opsdk.to_tensor([3.0, 4.0, 5.0]))
    assert [t.shape for t in g] == [[1, 3], [1, 3]]
    with pytest.raises(DTypeError, match="meshgrid: every input must have one dtype"):
        opsdk.meshgrid(opsdk.ones([2]), opsdk.ones([2], dtype="int64"))
    with pytest.raises(ShapeError, match="meshgrid: every input must be 0-d or 1-D"):
        opsdk.meshgrid(opsdk.ones([2, 2]))
    with pytest.raises(OpArgumentError, match="meshgrid: expected: at least one tensor"):
        opsdk.meshgrid()


def test_roll_and_rot90_errors():
    with pytest.raises(OpArgumentError, match="roll: 'shifts' and 'axis' must have one entry"):
        opsdk.roll(opsdk.ones([2, 3]), [1, 1], [1])
    with pytest.raises(OpArgumentError, match="roll: without 'axis', 'shifts' must be one int"):
        opsdk.roll(opsdk.ones([2, 3]), [1, 2])
    with pytest.raises(OpArgumentError, match="roll: a 0-d tensor has no axis"):
        opsdk.roll(opsdk.to_tensor(1.0), 1, 0)
    with pytest.raises(ShapeError, match="rot90: expected: a tensor with at least 2 dims"):
        opsdk.rot90(opsdk.ones([2]))
    with pytest.raises(OpArgumentError, match="rot90: the two 'axes' must differ"):
        opsdk.rot90(opsdk.ones([2, 2]), 1, [1, -1])
    with pytest.raises(OpArgumentError, match="rot90: argument 'k' must be an int"):
        opsdk.rot90(opsdk.ones([2, 2]), 1.5)
    with pytest.raises(OpArgumentError, match="rot90: argument 'axes' out of range"):
        opsdk.rot90(opsdk.ones([2, 2]), 1, [0, 2])


@settings(max_examples=40, deadline=None)
@given(shape=shapes(min_dims=0, max_dims=3, max_side=3), data=st.data())
def test_roll_and_repeat_interleave_on_any_shape(shape, data):
    a = signed(*shape, seed=data.draw(st.integers(0, 99)))
    shift = data.draw(st.integers(-4, 4))
    np.testing.assert_array_equal(opsdk.roll(opsdk.to_tensor(a), shift).numpy(), np.roll(a, shift))
    reps = data.draw(st.integers(1, 3))
    np.testing.assert_array_equal(opsdk.repeat_interleave(opsdk.to_tensor(a), reps).numpy(),
                                  np.repeat(a, reps))
    if a.size <= 8:
        assert_gradients(lambda x: opsdk.repeat_interleave(opsdk.roll(x, shift), reps) * 1.5, [a])


PADDLE_CASES = {
    "roll_flat": (lambda P, x: P.roll(x, 1), [signed(2, 3)]),
    "roll_axes": (lambda P, x: P.roll(x, [1, -1], [0, 1]), [signed(2, 3)]),
    "rot90": (lambda P, x: P.rot90(x), [signed(2, 3)]),
    "rot90_k3": (lambda P, x: P.rot90(x, -1, [1, 2]), [signed(2, 3, 2)]),
    "repeat_interleave": (lambda P, x: P.repeat_interleave(x, 2, 1), [signed(2, 3)]),
    "repeat_interleave_counts": (lambda P, x: P.repeat_interleave(x, P.to_tensor([2, 0, 1]), 1),
                                 [signed(2, 3)]),
    "repeat_interleave_flat": (lambda P, x: P.repeat_interleave(x, 3), [signed(2, 2)]),
    "meshgrid": (lambda P, x, y: P.meshgrid(x, y), [signed(2), signed(3, seed=1)]),
    "meshgrid_xy": (lambda P, x, y: P.meshgrid(x, y, indexing="xy"),
                    [signed(2), signed(3, seed=1)]),
    "meshgrid_0d": (lambda P, x, y: P.meshgrid([x, y]), [np.array(1.5), signed(3, seed=1)]),
}


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    fns = lambda P, x: [P.roll(x, 1), P.rot90(x), P.repeat_interleave(x, 2, 0)]  # noqa: E731
    assert_same_as_paddle(fns, [np.array([[1, 0], [1, 1]])], dtypes=[dtype], diff=())


@pytest.mark.torch
def test_match_torch():
    torch = __import__("torch")
    a = signed(2, 3)
    assert_same_as_torch(lambda P, x: P.roll(x, [1, 2], [0, 1]), lambda x: x.roll((1, 2), (0, 1)),
                         [a])
    assert_same_as_torch(lambda P, x: P.rot90(x, 1, [0, 1]), lambda x: x.rot90(1, (0, 1)), [a])
    assert_same_as_torch(lambda P, x: P.repeat_interleave(x, P.to_tensor([1, 3]), 0),
                         lambda x: x.repeat_interleave(torch.tensor([1, 3]), 0), [a])
