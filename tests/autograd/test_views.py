"""Views share memory with their base in grad mode and under no_grad (as in Paddle), and an
in-place write in grad mode keeps every graph right: the reproducers of issues 13 and 14."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import InplaceModifiedError, LeafInplaceError, ViewInplaceError


def leaf(values):
    return opsdk.to_tensor(np.asarray(values, "float64"), stop_gradient=False)


# -- which ops make views, which copy (Paddle 3.3.1) -------------------------------------------
def test_a_write_through_the_result_of_flip_never_reaches_the_input():
    x = leaf([1.0, 2.0, 3.0])
    y = (x * x).sum()
    v = x.flip(0)
    with opsdk.no_grad():
        v[0] = 100.0
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("make", [
    lambda y: y.flip(0), lambda y: opsdk.split(y, 3)[0], lambda y: opsdk.chunk(y, 3)[1],
    lambda y: opsdk.broadcast_to(y, [2, 3]), lambda y: opsdk.tile(y, [1]),
    lambda y: opsdk.cast(y, "float64"), lambda y: y[[0, 1]], lambda y: opsdk.concat([y]),
    lambda y: y.clone()], ids=["flip", "split", "chunk", "broadcast_to", "tile", "cast",
                               "index_list", "concat", "clone"])
def test_ops_that_copy_in_paddle_copy(make):
    y = leaf([1.0, 2.0, 3.0]) * 1.0
    out = make(y)
    with opsdk.no_grad():
        out[...] = -7.0
    np.testing.assert_array_equal(y.numpy(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("make", [
    lambda y: y.reshape([3, 1]), lambda y: y[0:2], lambda y: y[1], lambda y: y[None],
    lambda y: y[...], lambda y: y.unsqueeze(0), lambda y: opsdk.unbind(y.reshape([3, 1]), 0)[1],
    lambda y: y.detach(), lambda y: y.reshape([1, 3]).transpose([1, 0]),
    lambda y: y.flatten()], ids=["reshape", "slice", "int", "none", "ellipsis", "unsqueeze",
                                  "unbind", "detach", "transpose", "flatten"])
def test_views_share_memory_in_both_directions(make):
    y = leaf([1.0, 2.0, 3.0]) * 1.0
    out = make(y)
    with opsdk.no_grad():
        out[...] = -7.0
    assert (y.numpy() == -7.0).any()
    y2 = leaf([1.0, 2.0, 3.0]) * 1.0
    out2 = make(y2)
    with opsdk.no_grad():
        y2[...] = 5.0
    assert (out2.numpy() == 5.0).all()


def test_a_view_sees_a_write_into_its_base_in_grad_mode():
    y = leaf([1.0, 2.0, 3.0]) * 1
    v = y[0:2]
    y[0] = 50.0
    np.testing.assert_array_equal(v.numpy(), [50.0, 2.0])


def test_squeeze_that_changes_nothing_still_returns_a_new_tensor():
    x = leaf([1.0, 2.0])
    y = x.squeeze()
    assert y is not x and not y.is_leaf


# -- version counting shared by a base and its views -------------------------------------------
def test_a_view_and_its_base_share_the_inplace_version():
    y = leaf([1.0, 2.0, 3.0]) * 1
    v = y[0:2]
    with opsdk.no_grad():
        v.add_(1.0)
    assert y.inplace_version == v.inplace_version == 1
    with opsdk.no_grad():
        y.add_(1.0)
    assert y.inplace_version == v.inplace_version == 2


def test_backward_through_a_saved_view_whose_base_was_written_raises():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    v = y[0:2]
    z = v * v
    with opsdk.no_grad():
        y[2] = 10.0
    with pytest.raises(InplaceModifiedError) as info:
        z.sum().backward()
    assert isinstance(info.value, RuntimeError)  # what Paddle raises


def test_a_write_under_no_grad_leaves_the_graph_of_a_view_as_it_was():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    v = y[0:2]
    with opsdk.no_grad():
        y[0] = 50.0
    v.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 0.0])


# -- in-place writes in grad mode keep the graphs right ------------------------------------------
def test_a_write_into_the_base_in_grad_mode_reroutes_the_views_gradient():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    v = y[0:2]
    y[0] = 50.0
    v.sum().backward()
    # v is now [50, x1]: Paddle answers [1, 1, 0], the gradient of the values v no longer holds
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 0.0])


def test_an_in_place_op_through_a_view_reaches_the_base_gradient():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    v = y[0:2]
    v.scale_(2.0)
    np.testing.assert_array_equal(y.numpy(), [2.0, 4.0, 3.0])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 1.0])


def test_an_assignment_through_a_view_reaches_the_base_gradient():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    v = y.reshape([3, 1])
    v[0, 0] = x[1] * 3
    np.testing.assert_array_equal(y.numpy(), [6.0, 2.0, 3.0])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 4.0, 1.0])


def test_an_in_place_op_on_the_base_reaches_the_views_gradient():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    v = y[0:2]
    y.scale_(2.0)
    np.testing.assert_array_equal(v.numpy(), [2.0, 4.0])
    v.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 0.0])


def test_a_value_that_needs_grad_written_into_a_view_of_a_constant_gives_it_a_graph():
    x = leaf([1.0, 2.0, 3.0])
    c = opsdk.zeros([3], "float64")
    v = c[0:2]
    v[0] = x[2] * 2
    assert not c.stop_gradient and not v.stop_gradient
    np.testing.assert_array_equal(c.numpy(), [6.0, 0.0, 0.0])
    c.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 2.0])


def test_overlapping_assignment_within_one_tensor():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    y[0:2] = y[1:3] * 1
    np.testing.assert_array_equal(y.numpy(), [2.0, 3.0, 3.0])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 2.0])


def test_views_of_views_are_rerouted_too():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    y = x * 1
    row = y[1]
    elem = row[0]
    row.multiply_(10.0)
    assert elem.item() == 30.0
    elem.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 0.0], [10.0, 0.0]])


def test_in_place_op_in_grad_mode_on_an_intermediate_is_differentiated_to_second_order():
    x = leaf([0.5, 1.5])
    y = x * 1
    y.tanh_()
    (g,) = opsdk.grad(y.sum(), x, create_graph=True)
    (h,) = opsdk.grad(g.sum(), x)
    t = np.tanh([0.5, 1.5])
    np.testing.assert_allclose(g.numpy(), 1 - t ** 2)
    np.testing.assert_allclose(h.numpy(), -2 * t * (1 - t ** 2))


def test_an_op_that_reads_its_output_refuses_backward_after_a_write_into_it():
    x = leaf([1.0, 2.0])
    y = x.exp()
    y.add_(1.0)
    with pytest.raises(InplaceModifiedError, match="'exp'"):
        y.sum().backward()


def test_multiply_in_place_keeps_the_old_value_for_its_own_gradient():
    x, w = leaf([1.0, 2.0, 3.0]), leaf([2.0, 2.0, 2.0])
    y = x * 1
    y.multiply_(w)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 2.0, 3.0])


def test_fill_and_zero_in_grad_mode_leave_a_zero_gradient_as_in_paddle():
    x = leaf([1.0, -2.0])
    y = x * 2
    y.fill_(3.0)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])
    z = x * 2
    z.zero_()
    assert not z.stop_gradient and z.numpy().tolist() == [0.0, 0.0]


# -- views of leaves, views made under no_grad -------------------------------------------------
def test_constants_written_through_a_view_of_a_leaf_are_new_values_of_the_leaf():
    x = leaf([1.0, 2.0, 3.0])
    v = x[0:2]
    v[0] = 5.0
    v.add_(1.0)
    assert x.is_leaf and x.numpy().tolist() == [6.0, 3.0, 3.0]
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [12.0, 6.0, 6.0])


def test_a_value_that_needs_grad_written_through_a_view_of_a_leaf_is_refused():
    x, w = leaf([1.0, 2.0, 3.0]), leaf([1.0])
    v = x[0:2]
    with pytest.raises(LeafInplaceError):
        v[0] = w * 2


def test_a_view_made_under_no_grad_refuses_a_write_in_grad_mode_that_needs_a_gradient():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    with opsdk.no_grad():
        v = y[0:2]
    with pytest.raises(ViewInplaceError, match="no_grad"):
        v[0] = x[2] * 2


def test_reshape_in_place_keeps_memory_and_the_views_of_the_tensor():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    y = x * 1
    v = y[0:2]
    y.reshape_([2, 2])
    assert y.shape == [2, 2]
    y.multiply_(2.0)
    np.testing.assert_array_equal(v.numpy(), [2.0, 4.0])
    v.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 0.0, 0.0])


def test_shares_memory_follows_the_whole_base_chain_through_as_strided():
    from opsdk.functional.views import shares_memory
    owner = np.arange(12.0)
    inner = owner[2:]
    strided = np.lib.stride_tricks.as_strided(inner, (3,), (16,))  # .base: a DummyArray
    assert shares_memory(strided, owner) and shares_memory(strided, inner)
    assert not shares_memory(np.arange(3.0), owner)


def test_a_diagonal_built_with_as_strided_is_a_view_with_version_counting():
    # an imported array's memory belongs to a capsule, so diagonal takes its as_strided path
    z = opsdk.from_dlpack(np.arange(9.0).reshape(3, 3))
    d = opsdk.diagonal(z[1:])
    assert d._base is z
    with opsdk.no_grad():
        d[0] = 100.0
    assert z.numpy()[1, 0] == 100.0
    assert z.inplace_version == d.inplace_version == 1
