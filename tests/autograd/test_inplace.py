"""In-place updates: leaves under no_grad, version counters that catch a saved tensor modified
before backward, and in-place ops inside the graph."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import InplaceModifiedError, LeafInplaceError


def leaf(values, dtype="float32"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


# -- leaves ----------------------------------------------------------------------------------
@pytest.mark.parametrize("update", [
    lambda w: w.add_(1.0), lambda w: w.multiply_(2.0), lambda w: w.tanh_(),
    lambda w: w.__setitem__(0, 1.0),
], ids=["add_", "multiply_", "tanh_", "setitem"])
def test_in_place_update_of_a_leaf_that_needs_grad_is_refused_outside_no_grad(update):
    w = leaf([1.0])
    with pytest.raises(LeafInplaceError, match=r"no_grad") as info:
        update(w)
    assert isinstance(info.value, ValueError)  # Paddle raises ValueError there


@pytest.mark.parametrize("update", [
    lambda w: w.__isub__(1.0), lambda w: w.__iadd__(1.0), lambda w: w.__imul__(2.0),
    lambda w: w.__itruediv__(2.0)], ids=["-=", "+=", "*=", "/="])
def test_augmented_assignment_on_a_leaf_that_needs_grad_rebinds_it_as_in_paddle(update):
    w = leaf([1.0])
    r = update(w)
    assert r is not w and not r.is_leaf and not r.stop_gradient
    assert w.numpy().tolist() == [1.0]  # the leaf itself is untouched


def test_augmented_assignment_in_the_graph_gives_the_out_of_place_gradient():
    w = leaf([2.0])
    x = w
    x += 1.0
    x *= w
    x.backward()
    assert w.grad.item() == 5.0  # d/dw (w + 1) w = 2w + 1


def test_in_place_update_under_no_grad_keeps_the_leaf_a_leaf_that_needs_grad():
    w = leaf([1.0])
    (w * w).backward()
    with opsdk.no_grad():
        w -= 0.1 * w.grad
    assert w.is_leaf and not w.stop_gradient
    assert w.numpy().tolist() == pytest.approx([0.8])


def test_in_place_update_under_no_grad_keeps_the_same_tensor_object_and_dtype():
    w = leaf([1.0])
    before = w
    with opsdk.no_grad():
        w *= 3
    assert w is before and w.dtype == np.float32


def test_leaf_updated_in_place_takes_part_in_the_next_backward():
    w = leaf([0.0])
    for _ in range(2):
        loss = (w - 3.0) ** 2
        loss.backward()
        with opsdk.no_grad():
            w -= 0.1 * w.grad
        w.clear_gradient()
    # 0 -> 0.6 -> 1.08
    assert w.item() == pytest.approx(1.08)


def test_in_place_updates_bump_the_version():
    w = leaf([1.0])
    v0 = w._version
    with opsdk.no_grad():
        w += 1.0
        w[0] = 2.0
    assert w._version == v0 + 2


# -- version counters ------------------------------------------------------------------------
def test_backward_through_a_saved_tensor_modified_in_place_names_the_op():
    x = leaf([1.0, 2.0])
    a = x * 1.0
    b = a * a
    with opsdk.no_grad():
        a += 1.0
    with pytest.raises(InplaceModifiedError, match=r"'multiply' saved a tensor.*modified in "
                       r"place.*expected: version 0; got: version 1"):
        b.sum().backward()


@pytest.mark.parametrize("op, name", [(opsdk.sin, "sin"), (opsdk.cos, "cos"), (opsdk.log, "log"),
                                      (lambda t: t ** 3, "pow")])
def test_modifying_the_input_of_an_op_that_reads_it_is_caught(op, name):
    x = leaf([1.0, 2.0])
    a = x * 1.0
    y = op(a)
    with opsdk.no_grad():
        a *= 2.0
    with pytest.raises(InplaceModifiedError, match=f"'{name}'"):
        y.sum().backward()


@pytest.mark.parametrize("op, name", [(opsdk.exp, "exp"), (opsdk.tanh, "tanh"),
                                      (opsdk.sqrt, "sqrt"), (opsdk.sigmoid, "sigmoid")])
def test_modifying_the_output_of_an_op_that_reads_it_is_caught(op, name):
    x = leaf([1.0, 2.0])
    y = op(x * 1.0)
    with opsdk.no_grad():
        y *= 2.0
    with pytest.raises(InplaceModifiedError, match=f"'{name}'"):
        y.sum().backward()


F = opsdk.nn.functional
# ops whose Paddle backward reads their output (checked against Paddle 3.3.1: after
# y.scale_(2.0) its backward raises RuntimeError), though opsdk's own rules may read other
# values: opsdk refuses there too
PADDLE_READS_OUTPUT = {
    "relu": F.relu, "relu6": F.relu6, "elu": F.elu, "selu": F.selu,
    "hardsigmoid": F.hardsigmoid, "silu": F.silu, "layer_norm": lambda t: F.layer_norm(t.reshape([1, 3]), [3]),
    "group_norm": lambda t: F.group_norm(t.reshape([1, 3, 1]), 3),
    "cumprod": lambda t: opsdk.cumprod(t, 0), "logcumsumexp": opsdk.logcumsumexp,
    "max": lambda t: opsdk.max(t, keepdim=True), "amin": lambda t: opsdk.amin(t, keepdim=True),
    "logsumexp": lambda t: opsdk.logsumexp(t, keepdim=True), "median": opsdk.median,
    "prod": lambda t: opsdk.prod(t, keepdim=True), "var": lambda t: opsdk.var(t, keepdim=True),
    "std": lambda t: opsdk.std(t, keepdim=True),
    "norm": lambda t: opsdk.linalg.norm(t, keepdim=True),
    "dist": lambda t: opsdk.dist(t, opsdk.ones([3])),
    "divide by a constant tensor": lambda t: t / opsdk.to_tensor([1.0, 2.0, 4.0]),
}
# and ops whose Paddle backward does not read it, though opsdk's composition might
PADDLE_LEAVES_OUTPUT = {
    "softsign": F.softsign, "swish": F.swish, "leaky_relu": F.leaky_relu,
    "hardtanh": F.hardtanh, "celu": F.celu,
    "number ** tensor": lambda t: 2.0 ** t, "divide by a number": lambda t: t / 2.0,
    "instance_norm": lambda t: F.instance_norm(t.reshape([1, 1, 3])),
}


@pytest.mark.parametrize("name", sorted(PADDLE_READS_OUTPUT))
def test_writing_the_output_of_an_op_whose_paddle_backward_reads_it_is_refused(name):
    x = leaf([0.3, 0.5, 0.7])
    y = PADDLE_READS_OUTPUT[name](x * 1.0)
    y.scale_(2.0)
    with pytest.raises(InplaceModifiedError, match="reads its own output"):
        y.sum().backward()


@pytest.mark.parametrize("name", sorted(PADDLE_LEAVES_OUTPUT))
def test_writing_the_output_of_an_op_whose_paddle_backward_does_not_read_it_is_allowed(name):
    x = leaf([0.3, 0.5, 0.7])
    fn = PADDLE_LEAVES_OUTPUT[name]
    (expected,) = opsdk.grad([fn(x * 1.0).sum()], [x])
    y = fn(x * 1.0)
    y.scale_(2.0)
    y.sum().backward()
    # scale_ in the graph doubles the gradient
    np.testing.assert_allclose(x.grad.numpy(), 2 * expected.numpy(), rtol=1e-6)


def test_relu_in_place_then_exp_in_place_is_refused_as_in_paddle():
    x = leaf([-1.0, 0.5, 2.0])
    u = x * 3.0
    F.relu_(u)
    u.exp_()
    with pytest.raises(InplaceModifiedError, match="'relu'"):
        u.sum().backward()


def test_modifying_a_saved_leaf_under_no_grad_is_caught_at_backward():
    w = leaf([2.0])
    y = w * w
    with opsdk.no_grad():
        w += 1.0
    with pytest.raises(InplaceModifiedError, match=r"'multiply'"):
        y.backward()


def test_modifying_a_tensor_that_was_not_saved_is_allowed():
    x = leaf([1.0, 2.0])
    a = x * 1.0
    b = a + 1.0  # add keeps no input for backward
    with opsdk.no_grad():
        a += 5.0
    b.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])


def test_in_place_change_through_a_detached_alias_is_caught_at_backward():
    x = leaf([1.0, 2.0])
    a = x * 1.0
    b = a * a
    d = a.detach()
    d += 1.0
    with pytest.raises(InplaceModifiedError):
        b.sum().backward()


def test_in_place_change_through_a_reshaped_view_is_caught_at_backward():
    x = leaf([1.0, 2.0])
    a = x * 1.0
    b = a * a
    v = a.reshape([2, 1])
    with opsdk.no_grad():
        v += 1.0
    with pytest.raises(InplaceModifiedError):
        b.sum().backward()


# -- in-place inside the graph ----------------------------------------------------------------
def test_in_place_add_on_an_intermediate_is_differentiated():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y += x
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_in_place_multiply_on_an_intermediate_is_differentiated():
    x = leaf([1.0, 2.0])
    y = x + 0.0
    y *= x
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_in_place_op_with_a_tensor_that_needs_grad_on_a_plain_tensor_joins_the_graph():
    x = leaf([2.0])
    acc = opsdk.zeros([1])
    acc += x * x
    acc.backward()
    assert not acc.stop_gradient and x.grad.item() == 4.0


def test_abs_keeps_its_gradient_sign_from_forward_so_a_later_write_is_harmless():
    x = leaf([-1.0, 2.0])
    a = x * 1.0
    y = opsdk.abs(a)
    with opsdk.no_grad():
        a *= -1.0
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [-1.0, 1.0])


def test_in_place_op_keeps_the_tensor_dtype():
    y = opsdk.to_tensor([1.0], dtype="float16")
    y += opsdk.to_tensor([1.0], dtype="float64")
    assert y.dtype == np.float16
