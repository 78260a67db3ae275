"""opsdk.grad: returned (not accumulated) gradients, create_graph to third order, allow_unused,
retain_graph, grad_outputs, gradients with respect to intermediates."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import BackwardError, GradArgumentError, GraphFreedError


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def test_grad_returns_a_list_and_leaves_dot_grad_untouched():
    x = leaf([2.0])
    result = opsdk.grad(x * x + 3.0 * x, x)
    assert isinstance(result, list) and len(result) == 1
    assert result[0].item() == 7.0 and x.grad is None


def test_grad_accepts_lists_of_outputs_and_inputs():
    x, y = leaf([1.0]), leaf([2.0])
    gx, gy = opsdk.grad([x * y, x + y], [x, y])
    assert gx.item() == 3.0 and gy.item() == 2.0


def test_first_order_result_is_not_differentiable_without_create_graph():
    x = leaf([2.0])
    (g,) = opsdk.grad(x ** 3, x)
    assert g.stop_gradient


def test_create_graph_gives_a_differentiable_gradient_for_second_order():
    x = leaf([2.0])
    (g,) = opsdk.grad(x ** 3, x, create_graph=True)
    (h,) = opsdk.grad(g, x)
    assert not g.stop_gradient
    assert g.item() == 12.0 and h.item() == 12.0


def test_create_graph_to_third_order():
    x = leaf([2.0])
    (g1,) = opsdk.grad(x ** 4, x, create_graph=True)
    (g2,) = opsdk.grad(g1, x, create_graph=True)
    (g3,) = opsdk.grad(g2, x)
    # 4x^3, 12x^2, 24x at x = 2
    assert (g1.item(), g2.item(), g3.item()) == (32.0, 48.0, 48.0)


def test_third_order_of_a_composition_matches_the_closed_form():
    x = leaf([0.7])
    (g1,) = opsdk.grad(opsdk.sin(x) * opsdk.exp(x), x, create_graph=True)
    (g2,) = opsdk.grad(g1, x, create_graph=True)
    (g3,) = opsdk.grad(g2, x)
    # (sin x e^x)''' = 2 e^x (cos x - sin x)
    assert g3.item() == pytest.approx(2 * np.exp(0.7) * (np.cos(0.7) - np.sin(0.7)), rel=1e-12)


def test_mixed_second_derivative_through_two_inputs():
    x, y = leaf([2.0]), leaf([3.0])
    (gx,) = opsdk.grad(x * x * y, x, create_graph=True)
    (gxy,) = opsdk.grad(gx, y)
    assert gxy.item() == 4.0


def test_second_order_result_can_feed_backward():
    x = leaf([1.5])
    (g,) = opsdk.grad(x ** 3, x, create_graph=True)
    (g * g).backward()
    # d/dx (3x^2)^2 = 36 x^3
    assert x.grad.item() == pytest.approx(36 * 1.5 ** 3)


def test_unused_input_is_an_error_without_allow_unused():
    x, y = leaf([1.0]), leaf([2.0])
    with pytest.raises(BackwardError, match=r"inputs\[1\].*allow_unused=True"):
        opsdk.grad(x * 2.0, [x, y])


def test_allow_unused_returns_none_for_an_unused_input():
    x, y = leaf([1.0]), leaf([2.0])
    gx, gy = opsdk.grad(x * 2.0, [x, y], allow_unused=True)
    assert gx.item() == 2.0 and gy is None


def test_grad_keeps_the_graph_whatever_retain_graph_says_as_in_paddle():
    x = leaf([1.0])
    z = opsdk.exp(x)
    opsdk.grad(z, x)
    (g,) = opsdk.grad(z, x, retain_graph=False)
    z.backward()
    assert g.item() == x.grad.item() == pytest.approx(np.e)
    with pytest.raises(GraphFreedError, match=r"retain_graph=True"):
        z.backward()  # backward() frees the graph, as in Paddle


def test_retain_graph_keeps_the_graph_for_another_grad():
    x = leaf([1.0])
    z = x * x
    opsdk.grad(z, x, retain_graph=True)
    (g,) = opsdk.grad(z, x)
    assert g.item() == 2.0


def test_create_graph_retains_the_graph_by_default():
    x = leaf([1.0])
    z = x * x
    opsdk.grad(z, x, create_graph=True)
    (g,) = opsdk.grad(z, x)
    assert g.item() == 2.0


def test_grad_outputs_weight_each_output():
    x = leaf([1.0, 2.0])
    (g,) = opsdk.grad(x * x, x, grad_outputs=opsdk.to_tensor([3.0, 5.0], dtype="float64"))
    np.testing.assert_array_equal(g.numpy(), [6.0, 20.0])


def test_grad_outputs_of_the_wrong_shape_name_both_shapes():
    x = leaf([1.0, 2.0])
    with pytest.raises(BackwardError, match=r"grad_outputs\[0\].*expected: \[2\]; got: \[3\]"):
        opsdk.grad(x * x, x, grad_outputs=opsdk.to_tensor([1.0, 1.0, 1.0]))


def test_a_gradient_differing_only_by_size_1_dims_is_read_in_the_tensors_shape():
    # Paddle's kernels read a [1] gradient of a 0-d loss as the loss's (paddle.grad and
    # autograd.backward); other shapes stay refused. Tensor.backward asserts the exact shape
    x = leaf([1.0, 2.0, 3.0], "float32")
    loss = opsdk.matmul(x, x)
    (g,) = opsdk.grad(loss, x, grad_outputs=opsdk.to_tensor([2.0]), create_graph=True)
    np.testing.assert_array_equal(g.numpy(), [4.0, 8.0, 12.0])
    (gg,) = opsdk.grad(g.sum(), x)
    np.testing.assert_array_equal(gg.numpy(), [4.0, 4.0, 4.0])
    with pytest.raises(GradArgumentError, match=r"expected: \[\]; got: \[1, 1\]"):
        loss.backward(opsdk.to_tensor([[1.0]]), retain_graph=True)
    assert x.grad is None
    opsdk.autograd.backward([x * 2.0], [opsdk.ones([1, 3])])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])
    with pytest.raises(BackwardError, match=r"grad_tensors\[0\].*expected: \[3\]; got: \[2, 3\]"):
        opsdk.autograd.backward([x * 2.0], [opsdk.ones([2, 3])])


def test_tensor_backward_asserts_the_exact_shape_of_grad_tensor():
    # Paddle 3.3.1's Tensor.backward asserts grad_tensor.shape == self.shape before anything
    # else (AssertionError "Tensor shape not match"), also for size-1 dims and for a tensor
    # that needs no gradient
    x = leaf([1.0, 2.0])
    for bad in ([1.0, 2.0, 3.0], [[1.0, 2.0]], [1.0]):
        with pytest.raises(AssertionError, match=r"grad_tensor.*expected: \[2\]"):
            (x * 2.0).backward(opsdk.to_tensor(bad, dtype="float64"))
    assert x.grad is None
    with pytest.raises(AssertionError, match=r"expected: \[\]; got: \[1\]"):
        opsdk.to_tensor(1.0).backward(opsdk.to_tensor([1.0]))
    (x * 2.0).backward(opsdk.to_tensor([1.0, -1.0], dtype="float64"))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, -2.0])


@pytest.mark.paddle
def test_tensor_backward_grad_tensor_shapes_as_paddle():
    paddle = pytest.importorskip("paddle")
    for fw in (paddle, opsdk):
        x = fw.to_tensor([1.0, 2.0], stop_gradient=False)
        with pytest.raises(AssertionError):
            (x * 2.0).backward(fw.to_tensor([[1.0, 1.0]]))
        loss = (x * x).sum()
        with pytest.raises(AssertionError):
            loss.backward(fw.to_tensor([1.0]))
        loss.backward(fw.to_tensor(3.0))
        np.testing.assert_array_equal(x.grad.numpy(), [6.0, 12.0])


def test_grad_refuses_arguments_by_assertions_before_looking_at_the_graph():
    # Paddle asserts on the arguments first: these raise AssertionError even though no input
    # needs a gradient
    x = opsdk.ones([2])
    for args, kwargs, msg in [((None, None), {}, "'outputs' must be a Tensor"),
                              ((1, x), {}, "'outputs' must be a Tensor"),
                              (([1], [x]), {}, r"outputs\[0\] must be a Tensor"),
                              (([x], [1]), {}, r"inputs\[0\] must be a Tensor"),
                              (([], [x]), {}, "'outputs' cannot be empty"),
                              (([x, x * 2], [x], [x]), {}, "one entry of 'grad_outputs'"),
                              (([x], [x]), {"no_grad_vars": [1]}, r"no_grad_vars\[0\]"),
                              (([x], [x]), {"no_grad_vars": 1}, "'no_grad_vars' must be")]:
        with pytest.raises(AssertionError, match=msg):
            opsdk.grad(*args, **kwargs)


def test_grad_outputs_count_must_match_outputs():
    x = leaf([1.0])
    # an AssertionError too, as Paddle's
    with pytest.raises(GradArgumentError, match=r"one entry of 'grad_outputs' per tensor \(2\); got: 1"):
        opsdk.grad([x * 2.0, x * 3.0], x, grad_outputs=[opsdk.to_tensor([1.0])])
    assert issubclass(GradArgumentError, (AssertionError, BackwardError))


def test_gradients_paddle_refuses_are_refused():
    x = leaf([1.0, 2.0])
    y = x * x
    with pytest.raises(GradArgumentError, match="must be Tensors or None; got: ndarray"):
        y.backward(np.ones(2, "float32"))
    with pytest.raises(GradArgumentError, match="one entry of 'grad_tensors' per tensor"):
        opsdk.autograd.backward([y, x * 3], [opsdk.ones([2])])
    with pytest.raises(GradArgumentError, match="only_inputs=False"):
        opsdk.grad(y.sum(), x, only_inputs=False)
    with pytest.raises(BackwardError, match="'inputs' holds one tensor twice"):
        opsdk.grad(y.sum(), [x, x])


def test_grad_with_respect_to_an_intermediate_tensor():
    x = leaf([2.0])
    y = x * 3.0
    (gy,) = opsdk.grad(y * y, y)
    assert gy.item() == 12.0 and x.grad is None


def test_grad_with_respect_to_an_input_that_needs_no_gradient_is_an_error():
    x = opsdk.to_tensor([1.0])
    y = leaf([1.0])
    with pytest.raises(BackwardError, match=r"inputs\[0\] has stop_gradient=True"):
        opsdk.grad(x * y, x)


def test_grad_of_an_output_that_needs_no_gradient_is_an_error():
    x = leaf([1.0])
    with pytest.raises(BackwardError, match=r"outputs\[0\] has stop_gradient=True"):
        opsdk.grad(opsdk.to_tensor([1.0]), x)


def test_grad_arguments_must_be_tensors():
    with pytest.raises(GradArgumentError, match=r"'inputs' must be a Tensor or a list of Tensors"):
        opsdk.grad(leaf([1.0]) * 2.0, 3.0)


def test_grad_result_has_the_input_dtype():
    x = leaf([1.0], "float32")
    (g,) = opsdk.grad((x * 2.0).sum(), x)
    assert g.dtype == np.float32


def test_grad_of_an_output_and_a_later_output_built_from_it_counts_both():
    x = leaf([1.0])
    a = opsdk.sin(x * 2.0)
    (g,) = opsdk.grad([a, a * 3.0], x)
    assert g.item() == pytest.approx(8 * np.cos(2.0))


def test_second_order_from_several_first_order_gradients_at_once():
    x, y = leaf([[1.0, 2.0]]), leaf([[3.0]])
    out = opsdk.concat([x, y * y], axis=1) ** 2
    gx, gy = opsdk.grad(out.sum(), [x, y], create_graph=True)
    hx, hy = opsdk.grad([gx, gy], [x, y], allow_unused=True)
    # gx = 2x, gy = 4y^3
    np.testing.assert_array_equal(hx.numpy(), [[2.0, 2.0]])
    np.testing.assert_array_equal(hy.numpy(), [[108.0]])


def test_a_retained_gradient_is_replaced_by_each_backward_not_summed():
    # Paddle 3.3.1: y.grad holds the last backward's gradient; leaves accumulate
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 3
    y.retain_grads()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward(retain_graph=True)
    assert y.grad.numpy().tolist() == [6.0, 12.0]
    assert x.grad.numpy().tolist() == [36.0, 72.0]
    (y * 2).sum().backward()
    assert y.grad.numpy().tolist() == [2.0, 2.0]


def test_create_graph_gradients_report_stop_gradient_false_even_when_constant():
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    (g,) = opsdk.grad([x], [x], create_graph=True)
    assert not g.stop_gradient and g.is_leaf and g.numpy().tolist() == [1.0, 1.0]
    (g3,) = opsdk.grad([(x * 3).sum()], [x], create_graph=True)
    assert not g3.stop_gradient and not g3.is_leaf
    g3.sum().backward()  # reaches nothing: x.grad stays None, as in Paddle
    assert x.grad is None


def test_the_double_grad_of_x_to_the_first_reaches_x_with_zeros():
    # Paddle's pow gradient reads x, so the second backward gives x zeros, not None
    x = opsdk.to_tensor([0.0, 2.0, float("inf"), float("nan")], stop_gradient=False)
    (g,) = opsdk.grad((x ** 1).sum(), x, create_graph=True)
    g.sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 0.0, 0.0, 0.0]
