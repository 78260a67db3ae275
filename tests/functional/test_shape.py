"""Shape ops: values against NumPy, gradients to second order against the oracle (each op is
followed by a square, so the second order runs through the op's own backward), errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.gradients import assert_gradients
from helpers.samples import signed


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


VALUE_CASES = {
    "reshape": (lambda t: opsdk.reshape(t, [3, 4]), lambda a: a.reshape(3, 4)),
    "reshape_infer": (lambda t: opsdk.reshape(t, [-1, 2]), lambda a: a.reshape(-1, 2)),
    "reshape_zero_keeps_dim": (lambda t: opsdk.reshape(t, [0, -1]), lambda a: a.reshape(2, 6)),
    "transpose": (lambda t: opsdk.transpose(t, [2, 0, 1]), lambda a: a.transpose(2, 0, 1)),
    "transpose_negative": (lambda t: opsdk.transpose(t, [-1, 0, 1]),
                           lambda a: a.transpose(2, 0, 1)),
    "T": (lambda t: t.T, lambda a: a.T),
    "moveaxis": (lambda t: opsdk.moveaxis(t, 0, -1), lambda a: np.moveaxis(a, 0, -1)),
    "moveaxis_many": (lambda t: opsdk.moveaxis(t, [0, 1], [2, 0]),
                      lambda a: np.moveaxis(a, [0, 1], [2, 0])),
    "flatten": (lambda t: opsdk.flatten(t), lambda a: a.reshape(-1)),
    "flatten_range": (lambda t: opsdk.flatten(t, 1, 2), lambda a: a.reshape(2, 6)),
    "unsqueeze": (lambda t: opsdk.unsqueeze(t, [0, 4]), lambda a: a[None, :, :, :, None]),
    "unsqueeze_last": (lambda t: opsdk.unsqueeze(t, -1), lambda a: a[..., None]),
    "flip": (lambda t: opsdk.flip(t, [0, 2]), lambda a: a[::-1, :, ::-1]),
    "tile": (lambda t: opsdk.tile(t, [2, 1, 1]), lambda a: np.tile(a, (2, 1, 1))),
    "expand": (lambda t: opsdk.expand(t[:, :1], [2, 3, 2]),
               lambda a: np.broadcast_to(a[:, :1], (2, 3, 2))),
    "broadcast_to_new_axis": (lambda t: opsdk.broadcast_to(t, [2, 2, 3, 2]),
                              lambda a: np.broadcast_to(a, (2, 2, 3, 2))),
    "concat": (lambda t: opsdk.concat([t, t * 2], axis=1), lambda a: np.concatenate([a, a * 2], 1)),
    "concat_negative": (lambda t: opsdk.concat([t, t], axis=-1),
                        lambda a: np.concatenate([a, a], -1)),
    "stack": (lambda t: opsdk.stack([t, t + 1], axis=1), lambda a: np.stack([a, a + 1], 1)),
    "stack_last": (lambda t: opsdk.stack([t, t], axis=-1), lambda a: np.stack([a, a], -1)),
}


@pytest.mark.parametrize("op, ref", VALUE_CASES.values(), ids=VALUE_CASES.keys())
def test_shape_op_values_match_numpy(op, ref):
    a = signed(2, 3, 2)
    got, want = op(opsdk.to_tensor(a)), ref(a)
    assert got.shape == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)


def test_squeeze_without_axis_removes_every_size_one_axis():
    assert opsdk.squeeze(opsdk.ones([1, 2, 1, 3])).shape == [2, 3]


def test_squeeze_with_axis_removes_only_those_of_size_one():
    assert opsdk.squeeze(opsdk.ones([1, 2, 1]), axis=[0, 1]).shape == [2, 1]


def test_split_into_equal_parts_and_given_sizes():
    x = opsdk.to_tensor(np.arange(6.0).reshape(1, 6))
    assert [p.shape for p in opsdk.split(x, 3, axis=1)] == [[1, 2]] * 3
    parts = opsdk.split(x, [1, -1, 2], axis=-1)
    assert [p.numpy().tolist() for p in parts] == [[[0.0]], [[1.0, 2.0, 3.0]], [[4.0, 5.0]]]


def test_chunk_and_unbind_split_along_an_axis():
    x = opsdk.to_tensor(np.arange(6.0).reshape(2, 3))
    assert [c.shape for c in opsdk.chunk(x, 3, axis=1)] == [[2, 1]] * 3
    rows = opsdk.unbind(x, axis=0)
    assert [r.numpy().tolist() for r in rows] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_expand_as_takes_the_other_tensors_shape():
    assert opsdk.expand_as(opsdk.ones([1, 3]), opsdk.zeros([4, 3])).shape == [4, 3]


def test_t_transposes_a_matrix_and_leaves_a_vector():
    assert opsdk.t(opsdk.ones([2, 3])).shape == [3, 2]
    assert opsdk.t(opsdk.ones([3])).shape == [3]


# -- gradients against the oracle ------------------------------------------------------------
W = signed(2, 3, 2, seed=7)


def weighted(t):
    """A fixed non-uniform weighting, so a gradient routed to the wrong element shows."""
    return t * opsdk.to_tensor(W.reshape(t.shape))


GRADIENT_CASES = {
    "reshape": lambda x: weighted(opsdk.reshape(x, [3, 4])) ** 2,
    "transpose": lambda x: weighted(opsdk.transpose(x, [1, 2, 0])) ** 2,
    "moveaxis": lambda x: weighted(opsdk.moveaxis(x, 2, 0)) ** 2,
    "flatten": lambda x: weighted(opsdk.flatten(x, 0, 1)) ** 2,
    "squeeze": lambda x: weighted(opsdk.squeeze(opsdk.unsqueeze(x, 1), 1)) ** 2,
    "unsqueeze": lambda x: weighted(opsdk.unsqueeze(x, [0, -1])) ** 2,
    "flip": lambda x: weighted(opsdk.flip(x, [1])) ** 2,
    "tile": lambda x: opsdk.tile(x, [1, 2, 1]) ** 3,
    "expand": lambda x: opsdk.expand(x[:, :1], [2, 4, 2]) ** 3,
    "broadcast_to": lambda x: opsdk.broadcast_to(x, [3, 2, 3, 2]) ** 3,
    "concat": lambda x: opsdk.concat([x, x[:, :2] * 3.0], axis=1) ** 3,
    "stack": lambda x: opsdk.stack([x, x * x], axis=-1) ** 2,
    "split_all_parts": lambda x: [p ** (i + 2) for i, p in enumerate(opsdk.split(x, [1, 2], 1))],
    "split_one_part_used": lambda x: opsdk.split(x, 3, axis=1)[2] ** 3,
    "unbind": lambda x: opsdk.unbind(x, axis=2)[0] * opsdk.unbind(x, axis=2)[1],
}


@pytest.mark.parametrize("fn", GRADIENT_CASES.values(), ids=GRADIENT_CASES.keys())
def test_gradients_match_central_differences_to_second_order(fn):
    assert_gradients(fn, [signed(2, 3, 2)])


def test_concat_sends_each_input_its_own_slice_of_the_gradient():
    a, b = leaf(np.zeros((2, 1))), leaf(np.zeros((2, 2)))
    w = opsdk.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="float64")
    ga, gb = opsdk.grad((opsdk.concat([a, b], axis=1) * w).sum(), [a, b])
    np.testing.assert_array_equal(ga.numpy(), [[1.0], [4.0]])
    np.testing.assert_array_equal(gb.numpy(), [[2.0, 3.0], [5.0, 6.0]])


def test_split_part_without_gradient_contributes_zeros():
    x = leaf(np.ones((4,)))
    first, _ = opsdk.split(x, 2)
    (g,) = opsdk.grad(first.sum(), x)
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 0.0, 0.0])


def test_broadcast_to_gradient_sums_the_copies():
    x = leaf([[1.0], [2.0]])
    (g,) = opsdk.grad(opsdk.broadcast_to(x, [3, 2, 4]).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [[12.0], [12.0]])


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_shape_ops_keep_the_dtype_forward_and_backward(dtype):
    x = leaf(np.ones((2, 3)), dtype)
    y = opsdk.concat([opsdk.transpose(x, [1, 0]), opsdk.reshape(x, [3, 2])], axis=0)
    y.sum().backward()
    assert y.dtype == np.dtype(dtype) and x.grad.dtype == np.dtype(dtype)


@settings(max_examples=15, deadline=None)
@given(st.permutations([0, 1, 2]))
def test_transpose_then_inverse_permutation_is_identity_and_so_is_its_gradient(perm):
    a = signed(2, 3, 4)
    x = leaf(a)
    inverse = list(np.argsort(perm))
    y = opsdk.transpose(opsdk.transpose(x, list(perm)), inverse)
    (g,) = opsdk.grad((y * opsdk.to_tensor(a)).sum(), x)
    np.testing.assert_array_equal(y.numpy(), a)
    np.testing.assert_array_equal(g.numpy(), a)


# -- errors --------------------------------------------------------------------------------
def test_reshape_to_a_different_size_names_both_sizes():
    with pytest.raises(ShapeError, match=r"reshape:.*\[2, 3\] \(6 elements\).*got: \[4, 2\]"):
        opsdk.reshape(opsdk.ones([2, 3]), [4, 2])


def test_transpose_with_a_bad_permutation_is_an_error():
    with pytest.raises(ShapeError, match=r"transpose: argument 'perm'.*got: \[0, 0\]"):
        opsdk.transpose(opsdk.ones([2, 3]), [0, 0])


def test_transpose_with_an_axis_out_of_range_is_an_error():
    with pytest.raises(ShapeError, match=r"transpose: argument 'perm'"):
        opsdk.transpose(opsdk.ones([2, 3]), [0, 3])


def test_concat_of_mismatched_shapes_names_the_shapes():
    with pytest.raises(ShapeError, match=r"concat: shapes \[\[2, 3\], \[3, 2\]\]"):
        opsdk.concat([opsdk.ones([2, 3]), opsdk.ones([3, 2])])


def test_concat_of_nothing_is_an_error():
    with pytest.raises(OpArgumentError, match=r"concat: expected: a non-empty list"):
        opsdk.concat([])


def test_stack_of_different_shapes_is_an_error():
    with pytest.raises(ShapeError, match=r"stack: every tensor must have the same shape"):
        opsdk.stack([opsdk.ones([2]), opsdk.ones([3])])


def test_split_that_does_not_divide_is_an_error():
    with pytest.raises(ShapeError, match=r"split: axis 1 of size 3 does not divide into 2"):
        opsdk.split(opsdk.ones([2, 3]), 2, axis=1)


def test_split_sections_that_do_not_add_up_are_an_error():
    with pytest.raises(ShapeError, match=r"split: section sizes must add up to 3.*\[1, 1\]"):
        opsdk.split(opsdk.ones([2, 3]), [1, 1], axis=1)


def test_broadcast_to_an_incompatible_shape_names_both_shapes():
    with pytest.raises(ShapeError, match=r"broadcast_to:.*\[2, 3\].*got: \[4, 3\]"):
        opsdk.broadcast_to(opsdk.ones([2, 3]), [4, 3])


def test_moveaxis_with_unequal_axis_counts_is_an_error():
    with pytest.raises(ShapeError, match=r"moveaxis: expected: as many destination axes"):
        opsdk.moveaxis(opsdk.ones([2, 3]), [0, 1], [1])


@pytest.mark.parametrize("call", [
    lambda x: opsdk.squeeze(x, 4), lambda x: opsdk.unsqueeze(x, 5),
    lambda x: opsdk.concat([x, x], axis=2), lambda x: opsdk.stack([x, x], axis=-4),
    lambda x: opsdk.split(x, 1, axis=3), lambda x: opsdk.flip(x, 2),
], ids=["squeeze", "unsqueeze", "concat", "stack", "split", "flip"])
def test_axis_out_of_range_is_an_error_naming_the_op(call):
    with pytest.raises(OpArgumentError, match=r"argument 'axis' out of range; expected: in"):
        call(opsdk.ones([2, 3]))


def test_broadcast_tensors_shapes_and_gradients_summed_back():
    a = opsdk.to_tensor([[1.0], [2.0]], stop_gradient=False)
    b = opsdk.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    ra, rb = opsdk.broadcast_tensors([a, b])
    assert ra.shape == rb.shape == [2, 3]
    (ra * opsdk.to_tensor([1.0, 2.0, 3.0]) + rb * 2).sum().backward()
    assert a.grad.numpy().tolist() == [[6.0], [6.0]]
    assert b.grad.numpy().tolist() == [4.0, 4.0, 4.0]
    assert_gradients(lambda x, y: opsdk.broadcast_tensors([x, y])[0] * 2
                     + opsdk.broadcast_tensors([x, y])[1] ** 2, [signed(2, 1), signed(3)])


def test_broadcast_tensors_outputs_all_report_a_gradient_as_paddle():
    # one op with several outputs: the output of an input that needs no gradient reports
    # stop_gradient=False too, and an output left out of backward contributes nothing
    c = opsdk.to_tensor([[1.0], [2.0]], stop_gradient=False)
    rc, rd = opsdk.broadcast_tensors([c, opsdk.ones([3])])
    assert (rc.stop_gradient, rd.stop_gradient) == (False, False)
    rc.sum().backward()
    assert c.grad.numpy().tolist() == [[3.0], [3.0]]


def test_broadcast_tensors_refuses_what_paddle_refuses():
    with pytest.raises(ShapeError, match="broadcast_tensors: the shapes do not broadcast"):
        opsdk.broadcast_tensors([opsdk.ones([2, 3]), opsdk.ones([3, 2])])
    with pytest.raises(DTypeError, match="must share one dtype"):
        opsdk.broadcast_tensors([opsdk.ones([2]), opsdk.ones([2], dtype="float64")])
    with pytest.raises(OpArgumentError, match="must be a list of Tensors; got: Tensor"):
        opsdk.broadcast_tensors(opsdk.ones([2]))


def test_unstack_gives_copies_with_gradients():
    x = opsdk.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    parts = opsdk.unstack(x, axis=-1)
    assert [p.shape for p in parts] == [[2], [2], [2]]
    parts[0][0] = 50.0
    assert x.numpy()[0, 0] == 0.0
    (parts[1] * 2 + parts[2]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 2.0, 1.0], [0.0, 2.0, 1.0]])
    with pytest.raises(OpArgumentError, match="num"):
        opsdk.unstack(x, num=3)


def test_flatten_refuses_a_stop_axis_before_the_start_axis_as_paddle():
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: P.flatten(P.ones([2, 3, 4]), start_axis=2, stop_axis=1),
                            ValueError)
    assert_raises_as_paddle(lambda P: P.flatten(P.ones([2, 3, 4]), start_axis=-1, stop_axis=0),
                            ValueError)
    assert_raises_as_paddle(lambda P: P.flatten(P.ones([2, 3, 4]), start_axis=3), ValueError)
    assert opsdk.flatten(opsdk.ones([2, 3, 4]), start_axis=1, stop_axis=-2).shape == [2, 3, 4]


@pytest.mark.parametrize("perm", [[1, 0], [0, 1], [0], [-2, 0]])
def test_transpose_by_a_perm_of_the_leading_axes_matches_paddle(perm):
    from helpers.frameworks import assert_same_as_paddle
    assert_same_as_paddle(lambda P, x: P.transpose(x, perm) * P.arange(4, dtype="float64"),
                          [np.arange(24.0).reshape([2, 3, 4])])


def test_transpose_still_refuses_a_perm_that_is_not_of_the_leading_axes():
    # Paddle reads past its count array for these (its answer varies from run to run)
    with pytest.raises(ShapeError, match="transpose: argument 'perm'"):
        opsdk.transpose(opsdk.ones([2, 3, 4]), [2, 0])


@pytest.mark.parametrize("in_shape, shape", [
    ([0, 4], [2, 0, -1]), ([0, 4], [0, -1]), ([0, 4], [-1, 0]), ([0, 4], [2, 2, 0, -1]),
    ([2, 0, 3], [-1, 3, 0]), ([3, 0], [0, 3, -1]), ([0, 0, 4], [0, 0, -1]), ([0, 4], [-1, 2]),
    ([0, 4], [-1])])
def test_reshape_of_a_tensor_without_elements_infers_minus_one_as_paddle(in_shape, shape):
    from helpers.frameworks import assert_same_as_paddle
    assert_same_as_paddle(lambda P, x: P.reshape(x, shape) * 2.0, [np.zeros(in_shape)])


@pytest.mark.parametrize("in_shape, shape", [
    ([0, 4], [0, 0, -1]), ([0, 4], [3, 0, -1]), ([0, 0, 4], [0, -1]), ([0, 0], [-1, 0])])
def test_reshape_of_a_tensor_without_elements_refuses_what_paddle_refuses(in_shape, shape):
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: P.reshape(P.zeros(in_shape), shape), ValueError)


@pytest.mark.parametrize("shape", [[2, 3], (2, 3), [-1, 3], [0, 3], [3, 2]])
def test_reshape_to_the_tensors_own_shape_gives_the_tensor_as_paddle(shape):
    from helpers.frameworks import import_paddle
    paddle = import_paddle()
    got = {}
    for P in (paddle, opsdk):
        x = P.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
        y = P.reshape(x, shape)
        (y * y).sum().backward()
        got[P.__name__] = (y.is_leaf, list(y.shape), x.grad.numpy().tolist())
    assert got["opsdk"] == got["paddle"]
