"""The backward engine: seeding, accumulation, retain_graph, stop_gradient, hooks, deep graphs."""
import warnings

import numpy as np
import pytest

import opsdk
from opsdk.errors import BackwardError, GraphFreedError, OpsdkWarning, UnsupportedError


def leaf(values, dtype="float32"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


# -- seeding and accumulation ----------------------------------------------------------------
def test_backward_of_a_scalar_fills_the_leaf_grads():
    x = leaf([1.0, 2.0, 3.0])
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_backward_of_a_non_scalar_seeds_with_ones():
    x = leaf([1.0, 2.0])
    (x * x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_backward_with_grad_tensor_weights_the_outputs():
    x = leaf([1.0, 2.0])
    (x * x).backward(opsdk.to_tensor([10.0, 100.0]))
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 400.0])


def test_backward_with_a_grad_tensor_of_the_wrong_shape_names_both_shapes():
    x = leaf([1.0, 2.0])
    with pytest.raises(BackwardError, match=r"grad_tensor.*expected: \[2\]; got: \[3\]"):
        (x * x).backward(opsdk.to_tensor([1.0, 1.0, 1.0]))


def test_gradients_accumulate_across_backward_calls():
    x = leaf([1.0, 2.0])
    (x * x).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])


def test_a_tensor_used_twice_gets_the_sum_of_both_paths():
    x = leaf([3.0])
    y = x * 2.0
    (y * y + y).backward()
    # d/dx (4x^2 + 2x) = 8x + 2
    assert x.grad.item() == 26.0


def test_gradient_reaches_every_leaf_of_a_diamond_once_per_path():
    a, b = leaf([2.0]), leaf([5.0])
    s = a + b
    (s * a * b).backward()
    # f = (a + b) a b: df/da = 2ab + b^2, df/db = a^2 + 2ab
    assert a.grad.item() == 45.0 and b.grad.item() == 24.0


def test_leaf_grad_is_a_leaf_that_reports_stop_gradient_false_as_in_paddle():
    x = leaf([1.0])
    (x * 3.0).backward()
    assert not x.grad.stop_gradient and x.grad.is_leaf


def test_gradient_dtype_is_the_leaf_dtype():
    x = leaf([1.0], "float64")
    (x * 3.0).backward()
    assert x.grad.dtype == np.float64


def test_autograd_backward_runs_from_several_outputs_at_once():
    x = leaf([1.0, 2.0])
    opsdk.autograd.backward([(x * 2.0).sum(), (x * x).sum()])
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 6.0])


def test_multi_output_op_with_one_output_used_gets_zeros_for_the_other():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, _ = opsdk.split(x, 2)
    (a * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0, 0.0, 0.0])


# -- stop_gradient ---------------------------------------------------------------------------
def test_stop_gradient_tensor_gets_no_grad_but_passes_its_value():
    a = opsdk.to_tensor(2.0, stop_gradient=False)
    b = opsdk.to_tensor(5.0, stop_gradient=True)
    (a * b).backward()
    assert a.grad.item() == 5.0 and b.grad is None


def test_result_of_ops_on_stop_gradient_tensors_needs_no_gradient():
    x = opsdk.to_tensor([1.0])
    assert (x * 2.0 + 1.0).stop_gradient


def test_stop_gradient_set_on_an_intermediate_cuts_the_path():
    x = leaf([1.0])
    y = x * 2.0
    y.stop_gradient = True
    z = y * 3.0 + x
    z.backward()
    assert x.grad.item() == 1.0


def test_detach_cuts_the_path_but_keeps_the_values():
    x = leaf([2.0])
    y = x * x
    z = y.detach()
    (z * 3.0 + x).backward()
    assert z.stop_gradient and not y.stop_gradient
    assert z.numpy().tolist() == [4.0] and x.grad.item() == 1.0


def test_backward_on_a_tensor_that_needs_no_gradient_warns_and_does_nothing():
    x = opsdk.to_tensor([1.0, 2.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x * x).sum().backward()
    assert x.grad is None
    assert any(issubclass(w.category, OpsdkWarning) and "stop_gradient" in str(w.message)
               for w in caught)


# -- retain_graph ----------------------------------------------------------------------------
def test_second_backward_through_a_freed_graph_names_retain_graph_true():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(GraphFreedError, match=r"retain_graph=True"):
        y.backward()


def test_freed_graph_error_names_the_op():
    x = leaf([1.0, 2.0])
    y = opsdk.sin(x)
    y.sum().backward()
    with pytest.raises(GraphFreedError, match=r"'(sin|sum)'"):
        y.sum().backward()


def test_retain_graph_allows_a_second_backward_that_accumulates():
    x = leaf([1.0, 2.0, 3.0])
    y = (x ** 2).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0, 12.0])


# -- clearing gradients ----------------------------------------------------------------------
def test_clear_gradient_sets_the_grad_to_zeros():
    x = leaf([1.0, 2.0])
    (x * x).sum().backward()
    x.clear_gradient()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])


def test_clear_gradient_without_set_to_zero_drops_the_grad():
    x = leaf([1.0])
    (x * 2.0).backward()
    x.clear_gradient(set_to_zero=False)
    assert x.grad is None


def test_clear_grad_takes_no_set_to_zero_as_in_paddle():
    x = leaf([1.0])
    (x * 2.0).backward()
    with pytest.raises(TypeError):
        x.clear_grad(set_to_zero=False)
    x.clear_grad()
    assert x.grad.numpy().tolist() == [0.0]


def test_backward_after_clear_gradient_starts_from_zero():
    x = leaf([1.0])
    (x * 2.0).backward()
    x.clear_gradient()
    (x * 5.0).backward()
    assert x.grad.item() == 5.0


# -- hooks -----------------------------------------------------------------------------------
def test_leaf_hook_can_replace_the_gradient():
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: g * 2.0)
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 6.0])


def test_hook_returning_none_leaves_the_gradient_unchanged():
    x = leaf([1.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.numpy().copy()))
    (x * 3.0).backward()
    assert x.grad.item() == 3.0 and seen[0].tolist() == [3.0]


def test_leaf_hook_runs_once_with_the_sum_of_all_paths():
    x = leaf([1.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.item()))
    (x * 2.0 + x * 3.0).backward()
    assert seen == [5.0]


def test_removed_hook_no_longer_runs():
    x = leaf([1.0])
    handle = x.register_hook(lambda g: g * 100.0)
    handle.remove()
    (x * 3.0).backward()
    assert x.grad.item() == 3.0


def test_hook_on_an_intermediate_sees_and_can_change_its_gradient():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    seen = []
    y.register_hook(lambda g: seen.append(g.numpy().copy()))
    y.register_hook(lambda g: g * 0.0 + 1.0)
    (y * y).sum().backward()
    np.testing.assert_array_equal(seen[0], [4.0, 8.0])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_removed_hook_on_an_intermediate_no_longer_runs():
    x = leaf([1.0])
    y = x * 2.0
    y.register_hook(lambda g: g * 100.0).remove()
    (y * 3.0).backward()
    assert x.grad.item() == 6.0


def test_register_hook_on_a_stop_gradient_tensor_is_an_error():
    with pytest.raises(BackwardError, match=r"register_hook.*stop_gradient=True"):
        opsdk.to_tensor([1.0]).register_hook(lambda g: g)


def test_retain_grads_keeps_the_gradient_of_an_intermediate():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.retain_grads()
    (y * y).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [4.0, 8.0])


def test_intermediate_grad_is_not_kept_by_default():
    x = leaf([1.0])
    y = x * 2.0
    (y * y).backward()
    assert y.grad is None


# -- graph shape -----------------------------------------------------------------------------
def test_is_leaf_and_grad_fn_describe_the_graph():
    x = leaf([1.0])
    y = x * 2.0
    assert x.is_leaf and x.grad_fn is None
    assert not y.is_leaf and y.grad_fn is not None


def test_a_very_deep_chain_runs_without_recursion_errors():
    x = leaf([1.0])
    y = x
    for _ in range(5000):
        y = y * 1.0
    y.backward()
    assert x.grad.item() == 1.0


def test_gradient_of_a_long_composition_matches_the_chain_rule():
    x = leaf([0.3], "float64")
    y = x
    for _ in range(50):
        y = opsdk.sin(y)
    y.backward()
    # d/dx sin^n(x) = prod over the chain of cos(previous value)
    v, expected = 0.3, 1.0
    for _ in range(50):
        expected *= np.cos(v)
        v = np.sin(v)
    assert x.grad.item() == pytest.approx(expected, rel=1e-12)


def test_backward_from_an_output_and_a_later_output_built_from_it_counts_both():
    x = leaf([1.0], "float64")
    a = opsdk.sin(x * 2.0)
    b = a * 3.0
    opsdk.autograd.backward([a, b])
    # d/dx (a + 3a) = 4 * 2 cos(2x)
    assert x.grad is not None and x.grad.item() == pytest.approx(8 * np.cos(2.0))


class _FirstOnly(opsdk.autograd.PyLayer):
    """a + b whose backward gives no gradient to b (as a rule that declares b non-differentiable)."""

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, g):
        return g, None


def test_a_none_gradient_still_lets_a_shared_upstream_node_run():
    # exp(x) feeds both inputs; the None for b once left exp's node waiting for good, and x.grad
    # came back None: a silently lost gradient
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    e = opsdk.exp(x)
    _FirstOnly.apply(e * 2, e * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([1.0, 2.0]), rtol=1e-6)


def test_a_none_gradient_settles_a_chain_above_it_under_opsdk_grad():
    x = opsdk.to_tensor([0.5, -1.0], dtype="float64", stop_gradient=False)
    e = opsdk.exp(x)
    (dx,) = opsdk.grad(_FirstOnly.apply(opsdk.sin(e) * 2, opsdk.tanh(e * 3)).sum(), [x])
    np.testing.assert_allclose(dx.numpy(), 2 * np.cos(np.exp([0.5, -1.0])) * np.exp([0.5, -1.0]))


def test_only_none_gradients_reach_a_leaf_leaves_it_without_a_gradient():
    x = opsdk.to_tensor([1.0], stop_gradient=False)
    w = opsdk.to_tensor([1.0], stop_gradient=False)
    _FirstOnly.apply(w * 1, opsdk.exp(x) * 3).sum().backward()
    assert x.grad is None and w.grad is not None


def test_backward_through_a_rule_on_complex_values_is_refused_not_wrong():
    # the rules are for real values: on complex ones they would miss the conjugate Paddle's
    # convention takes (grad_x of x * y is grad * conj(y)), a wrong gradient
    x = opsdk.to_tensor(np.array([1 + 2j, 3 - 1j]), stop_gradient=False)
    y = opsdk.to_tensor(np.array([2 - 1j, 1 + 1j]))
    with pytest.raises(UnsupportedError, match="backward through 'multiply' on complex values"):
        (x * y).abs().sum().backward()


def test_a_pylayer_s_own_backward_may_take_complex_gradients():
    class Conjugate(opsdk.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return opsdk.to_tensor(np.conj(x.numpy()))

        @staticmethod
        def backward(ctx, dy):
            return opsdk.to_tensor(np.conj(dy.numpy()))

    x = opsdk.to_tensor(np.array([1 + 2j]), stop_gradient=False)
    (dx,) = opsdk.grad([Conjugate.apply(x)], [x], grad_outputs=[opsdk.to_tensor(np.array([1j]))])
    np.testing.assert_allclose(dx.numpy(), [-1j])
