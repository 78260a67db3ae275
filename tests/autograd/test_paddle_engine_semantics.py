"""Engine and tensor semantics as PaddlePaddle 3.3.1 has them (the reproducers of issue 14)."""
import numpy as np
import pytest

import opsdk
from opsdk.autograd import PyLayer
from opsdk.errors import (BackwardReturnError, GraphFreedError, InplaceModifiedError,
                          PyLayerError)


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(np.asarray(values, dtype), stop_gradient=False)


# -- opsdk.grad --------------------------------------------------------------------------------
def test_no_grad_vars_block_the_gradient_through_them():
    x = leaf([1.0, 2.0])
    y = x * x
    (g,) = opsdk.grad(y * x, x, no_grad_vars=[y])
    np.testing.assert_array_equal(g.numpy(), [1.0, 4.0])


def test_no_grad_vars_on_a_leaf_and_on_one_output_of_a_split():
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    a, b = opsdk.split(x * w, 2)
    gx, gw = opsdk.grad((a * 2 + b * 3).sum(), [x, w], no_grad_vars=[b])
    np.testing.assert_array_equal(gx.numpy(), [6.0, 0.0])
    (gx,) = opsdk.grad((x * w).sum(), [x], no_grad_vars=[w])
    np.testing.assert_array_equal(gx.numpy(), [3.0, 4.0])


def test_grad_without_retain_graph_keeps_the_graph_for_grad_and_backward():
    x = leaf([1.0, 2.0])
    y = opsdk.exp(x).sum()
    g1 = opsdk.grad(y, x)[0]
    g2 = opsdk.grad(y, x)[0]
    y.backward()
    np.testing.assert_allclose(g1.numpy(), np.exp([1.0, 2.0]))
    np.testing.assert_allclose(g2.numpy(), x.grad.numpy())
    with pytest.raises(GraphFreedError):
        opsdk.grad(y, x)  # backward() freed it


def test_allow_unused_answers_none_for_an_input_with_stop_gradient():
    x, w = leaf([1.0, 2.0]), opsdk.to_tensor([3.0])
    gx, gw = opsdk.grad((x * 2).sum(), [x, w], allow_unused=True)
    assert gw is None and gx.numpy().tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match=r"inputs\[1\].*stop_gradient=True"):
        opsdk.grad((x * 2).sum(), [x, w])


def test_grad_results_are_fresh_writable_tensors():
    x = leaf([1.0, 2.0])
    go = opsdk.to_tensor([1.0, 1.0], dtype="float64")
    (g,) = opsdk.grad(x + 0.0, x, grad_outputs=go)
    g += 1
    assert go.numpy().tolist() == [1.0, 1.0] and g.numpy().tolist() == [2.0, 2.0]
    (g,) = opsdk.grad(x + 0.0, x, grad_outputs=go, create_graph=True)
    assert g is not go
    with opsdk.no_grad():
        g += 1
    assert go.numpy().tolist() == [1.0, 1.0]


def test_two_inputs_with_one_gradient_get_two_buffers():
    a, b = leaf([1.0]), leaf([2.0])
    ga, gb = opsdk.grad(a + b, [a, b])
    assert not np.shares_memory(ga._data, gb._data)


# -- flags ---------------------------------------------------------------------------------------
def test_integer_tensor_keeps_stop_gradient_false_when_asked():
    x = opsdk.to_tensor([1, 2])
    x.stop_gradient = False
    assert not x.stop_gradient


def test_grad_and_create_graph_results_report_stop_gradient_false():
    x = leaf([1.0, 2.0])
    (x * 2).sum().backward()
    assert not x.grad.stop_gradient and x.grad.is_leaf
    (g,) = opsdk.grad((x * x).sum(), x, create_graph=True)
    assert not g.stop_gradient
    (g1,) = opsdk.grad((x * x).sum(), x)
    assert g1.stop_gradient


class Double(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def test_a_pylayer_output_cast_to_int_keeps_stop_gradient_false():
    y = Double.apply(leaf([1.0, 2.0])).astype("int64")
    assert not y.stop_gradient


# -- hooks -----------------------------------------------------------------------------------------
def test_a_leaf_hook_is_not_applied_under_grad_but_under_backward():
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: g * 10)
    (g,) = opsdk.grad((x * x).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [2.0, 4.0])
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 40.0])


def test_a_non_leaf_hook_is_applied_under_grad():
    x = leaf([1.0, 2.0])
    z = x * 1
    z.register_hook(lambda g: g * 10)
    (g,) = opsdk.grad((z * z).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [20.0, 40.0])


def test_a_hook_on_a_pylayer_output_is_called_and_its_gradient_used():
    # Paddle calls it too, but drops the gradient it returns (docs/paddle.md)
    seen = []
    x = leaf([1.0, 2.0])
    y = Double.apply(x)
    y.register_hook(lambda g: seen.append(g.numpy().tolist()) or g * 10)
    y.sum().backward()
    assert seen == [[1.0, 1.0]]
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 20.0])


def test_a_pylayer_output_keeps_its_retained_gradient():
    x = leaf([1.0, 2.0])
    y = Double.apply(x)
    y.retain_grads()
    (y * y).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [4.0, 8.0])


def test_handle_remove_returns_true_then_false():
    x = leaf([1.0])
    h = x.register_hook(lambda g: g)
    assert h.remove() is True and h.remove() is False


# -- PyLayer -----------------------------------------------------------------------------------
class Wrong(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, dy):
        return dy


def test_pylayer_errors_are_also_the_builtin_exceptions_paddle_raises():
    with pytest.raises(ValueError) as info:
        Wrong.apply(leaf([1.0]), leaf([2.0])).sum().backward()
    assert isinstance(info.value, BackwardReturnError)

    class NoneForward(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return None

        @staticmethod
        def backward(ctx, dy):
            return dy
    with pytest.raises(ValueError) as info:
        NoneForward.apply(leaf([1.0]))
    assert isinstance(info.value, PyLayerError)


class Saving(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * x


def test_pylayer_version_error_is_a_runtime_error():
    b = leaf([1.0, 2.0]) * 1
    y = Saving.apply(b)
    b.add_(1.0)
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert isinstance(info.value, InplaceModifiedError)


def test_pylayer_saving_a_view_of_a_tensor_modified_before_forward_runs():
    x = leaf([1.0, 2.0, 3.0])
    base = x * 1
    with opsdk.no_grad():
        base.add_(1.0)  # before the forward: the saved view's version is taken after this
    v = base[0:2]
    Saving.apply(v).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 3.0, 0.0])


# -- in-place, no_grad, clear_grad -------------------------------------------------------------
def test_augmented_add_on_a_leaf_rebinds_and_in_place_methods_raise():
    x = leaf([1.0])
    leaf_x = x
    x += 1
    assert x is not leaf_x and not x.is_leaf and leaf_x.item() == 1.0
    with pytest.raises(ValueError):
        leaf_x.add_(opsdk.to_tensor([1.0], dtype="float64"))


def test_no_grad_decorates_a_generator_function():
    @opsdk.no_grad()
    def gen(x):
        for _ in range(2):
            yield x * 2, opsdk.is_grad_enabled()

    x = leaf([1.0])
    for y, enabled in gen(x):
        # as Paddle's decorator: no_grad from the first next() until the generator ends, so the
        # loop body between yields runs in it too
        assert y.stop_gradient and not enabled and not opsdk.is_grad_enabled()
    assert opsdk.is_grad_enabled()
    g = gen(x)
    next(g)
    g.close()  # a generator closed early gives the mode back too
    assert opsdk.is_grad_enabled()


def test_clear_grad_takes_no_set_to_zero_but_clear_gradient_does():
    x = leaf([1.0])
    (x * 2).sum().backward()
    with pytest.raises(TypeError):
        x.clear_grad(set_to_zero=False)
    x.clear_gradient(False)
    assert x.grad is None


# -- numpy(), assign, scale, in-place names ----------------------------------------------------
def test_numpy_returns_a_copy():
    x = opsdk.to_tensor([1.0, 2.0])
    snap = x.numpy()
    x.set_value(np.array([5.0, 6.0], dtype="float32"))
    assert snap.tolist() == [1.0, 2.0]


def test_assign_copies_with_gradient_and_writes_into_output():
    x = leaf([1.0, 2.0])
    out = opsdk.zeros([2], dtype="float64")
    r = opsdk.assign(x * 3, out)
    assert r is out and not out.stop_gradient
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    assert opsdk.assign(3.0).shape == [1] and opsdk.assign([1, 2]).dtype == np.int64
    assert not opsdk.assign(x).stop_gradient


def test_scale_and_its_in_place_variant():
    x = leaf([1.0, 2.0])
    np.testing.assert_array_equal(opsdk.scale(x, 2.0, 1.0).numpy(), [3.0, 5.0])
    np.testing.assert_array_equal(opsdk.scale(x, 2.0, 1.0, bias_after_scale=False).numpy(),
                                  [4.0, 6.0])
    assert opsdk.scale(opsdk.to_tensor([1, 2]), 2.5).dtype == np.int64
    y = x * 2
    y.scale_(3.0)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 6.0])


@pytest.mark.parametrize("name", ["tanh_", "exp_", "sqrt_", "add_", "subtract_", "multiply_",
                                  "clip_", "zero_", "fill_", "scale_", "abs_", "square_"])
def test_in_place_variants_exist_as_methods_and_return_the_tensor(name):
    x = opsdk.to_tensor([0.5, 1.5])
    args = {"add_": (1.0,), "subtract_": (1.0,), "multiply_": (2.0,), "clip_": (0.0, 1.0),
            "fill_": (3.0,), "scale_": (2.0,)}.get(name, ())
    assert getattr(x, name)(*args) is x


def test_module_level_in_place_functions():
    x = opsdk.to_tensor([0.5])
    assert opsdk.tanh_(x) is x and x.item() == pytest.approx(np.tanh(0.5))


def test_inplace_version_counts_writes():
    x = opsdk.to_tensor([1.0])
    assert x.inplace_version == 0
    x.add_(1.0)
    x[0] = 3.0
    assert x.inplace_version == 2
