"""The seed documents' core-autograd examples, run as written with ``import opsdk as paddle``.

Each test is one example of /work/shared/seeds/*.txt (seed number and section in its name);
the assertions are the mathematically right values, which win where an article printed a
wrong number. Examples that need nn, optimizer, create_parameter, Embedding or amp live in
the tests of those modules. Seed 003 writes PyTorch; its examples appear here in Paddle spelling.
"""
import warnings

import numpy as np
import pytest

import opsdk as paddle


# -- seed 000: PaddlePaddle自动微分机制原理解析 ------------------------------------------------
def test_seed000_first_example_gradient_is_36_not_the_printed_12():
    paddle.disable_static()
    w = paddle.to_tensor([2.0], stop_gradient=False)
    x = paddle.to_tensor([3.0])
    y = w * x
    loss = y ** 2
    loss.backward()
    print(w.gradient())
    # d/dw (wx)^2 = 2 w x^2 = 36; the article prints 12 and the maths wins
    np.testing.assert_array_equal(w.gradient(), [36.0])


def test_seed000_sum_of_squares_gradient_is_8_with_values_as_computed():
    w = paddle.ones([1], dtype='float32', stop_gradient=False)
    x = paddle.full([1], 2., dtype='float32')
    y = w * x
    loss = paddle.sum(y ** 2)
    loss.backward()
    assert y.numpy().tolist() == [2.0] and loss.item() == 4.0
    np.testing.assert_array_equal(w.gradient(), [8.0])


def test_seed000_sum_of_squares_runs_as_written_with_gradient_numpy():
    w = paddle.ones([1], dtype='float32', stop_gradient=False)
    x = paddle.full([1], 2., dtype='float32')
    loss = paddle.sum((w * x) ** 2)
    loss.backward()
    print(w.gradient().numpy())
    np.testing.assert_array_equal(w.gradient().numpy(), [8.0])


def test_seed000_paddle_grad_first_and_second_derivative_of_cube_are_12():
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy_dx = paddle.grad(outputs=y, inputs=x, create_graph=True)[0]
    d2y_dx2 = paddle.grad(outputs=dy_dx, inputs=x, retain_graph=True)[0]
    print(dy_dx.numpy())
    print(d2y_dx2.numpy())
    assert dy_dx.numpy().tolist() == [12.0] and d2y_dx2.numpy().tolist() == [12.0]


def test_seed000_pylayer_custom_power_op_gives_alpha_x_to_the_alpha_minus_1():
    class CustomOp(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.save_for_backward(x)
            ctx.alpha = alpha
            return x ** alpha

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensor()
            alpha = ctx.alpha
            grad_input = alpha * (x ** (alpha - 1)) * grad_output
            return grad_input, None

    x = paddle.to_tensor([3.0], stop_gradient=False)
    y = CustomOp.apply(x, 2.0)
    y.backward()
    assert y.numpy().tolist() == [9.0] and x.grad.numpy().tolist() == [6.0]


# -- seed 001: 自动微分入门 -----------------------------------------------------------------
def show_tensor(name, tensor):
    print(f"\n{name}")
    print("-" * 60)
    print(tensor)
    print("shape:", tensor.shape)
    print("dtype:", tensor.dtype)
    print("stop_gradient:", tensor.stop_gradient)


def show_grad(name, tensor):
    print(f"\n{name}.grad")
    print("-" * 60)
    print(tensor.grad)


def test_seed001_print_helpers_show_shape_dtype_stop_gradient_and_grad(capsys):
    paddle.seed(2026)
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.sum(x * 2.0).backward()
    show_tensor("x", x)
    show_grad("x", x)
    out = capsys.readouterr().out
    assert "shape: paddle.Size([3])" in out and "dtype: paddle.float32" in out and "stop_gradient: False" in out
    assert "[2., 2., 2.]" in out


def test_seed001_user_tensors_default_to_stop_gradient_true():
    a = paddle.to_tensor([1.0, 2.0, 3.0])
    b = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    print("a.stop_gradient:", a.stop_gradient)
    print("b.stop_gradient:", b.stop_gradient)
    assert a.stop_gradient is True and b.stop_gradient is False


def test_seed001_stop_gradient_can_be_changed_after_creation():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    print(x.stop_gradient)
    x.stop_gradient = False
    print(x.stop_gradient)
    assert x.stop_gradient is False


def test_seed001_square_sum_gives_loss_14_and_grad_2x():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x ** 2
    loss = paddle.sum(y)
    loss.backward()
    print("x:", x)
    print("y:", y)
    print("loss:", loss)
    print("x.grad:", x.grad)
    assert y.numpy().tolist() == [1.0, 4.0, 9.0] and loss.item() == 14.0
    assert x.grad.numpy().tolist() == [2.0, 4.0, 6.0]


def test_seed001_two_inputs_get_2x_and_4():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
    z = x ** 2 + 4 * y
    loss = paddle.sum(z)
    loss.backward()
    print("x.grad:", x.grad)
    print("y.grad:", y.grad)
    assert x.grad.numpy().tolist() == [2.0, 4.0, 6.0]
    assert y.grad.numpy().tolist() == [4.0, 4.0, 4.0]


def test_seed001_mean_loss_is_0d():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x ** 2
    loss = paddle.mean(y)
    loss.backward()
    assert loss.shape == [] and loss.item() == pytest.approx(14.0 / 3.0)


def test_seed001_sum_and_mean_give_different_gradients():
    x1 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    loss_sum = paddle.sum(x1 ** 2)
    loss_sum.backward()
    print("sum grad:", x1.grad)

    x2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    loss_mean = paddle.mean(x2 ** 2)
    loss_mean.backward()
    print("mean grad:", x2.grad)
    assert x1.grad.numpy().tolist() == [2.0, 4.0, 6.0]
    np.testing.assert_allclose(x2.grad.numpy(), [2 / 3, 4 / 3, 6 / 3], rtol=1e-6)


def test_seed001_grad_of_x_squared_plus_3x_at_2_is_7():
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    y.backward()
    print("x.grad:", x.grad)
    assert x.grad.numpy().tolist() == [7.0]


def test_seed001_stop_gradient_true_factor_gets_no_grad():
    a = paddle.to_tensor(2.0, stop_gradient=False)
    b = paddle.to_tensor(5.0, stop_gradient=True)
    c = a * b
    c.backward()
    print("a.grad:", a.grad)
    print("b.grad:", b.grad)
    assert a.grad.item() == 5.0 and b.grad is None


def test_seed001_gradients_accumulate_to_twice_after_two_backwards():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    loss1 = paddle.sum(x ** 2)
    loss1.backward()
    print("after first backward:", x.grad)
    first = x.grad.numpy().tolist()
    loss2 = paddle.sum(x ** 2)
    loss2.backward()
    print("after second backward:", x.grad)
    assert first == [2.0, 4.0, 6.0] and x.grad.numpy().tolist() == [4.0, 8.0, 12.0]
    x.clear_gradient()
    assert x.grad.numpy().tolist() == [0.0, 0.0, 0.0]


def test_seed001_hand_written_gradient_descent_moves_w_toward_3():
    w = paddle.to_tensor([0.0], stop_gradient=False)
    learning_rate = 0.1
    history = []
    for step in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()

        with paddle.no_grad():
            w -= learning_rate * w.grad

        print("step:", step, "w:", w.numpy(), "loss:", loss.numpy(), "grad:", w.grad.numpy())
        history.append((w.item(), loss.item(), w.grad.item()))
        w.clear_gradient()
    # w_k = 3 - 3 * 0.8^(k+1); loss and grad are taken before the update
    for k, (wk, lk, gk) in enumerate(history):
        before = 3 - 3 * 0.8 ** k
        assert wk == pytest.approx(3 - 3 * 0.8 ** (k + 1), rel=1e-5)
        assert lk == pytest.approx((before - 3) ** 2, rel=1e-5)
        assert gk == pytest.approx(2 * (before - 3), rel=1e-5)
    assert history[0] == pytest.approx((0.6, 9.0, -6.0))
    assert w.is_leaf and not w.stop_gradient


def test_seed001_paddle_grad_returns_7_and_leaves_x_grad_none():
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    dx = paddle.grad(outputs=[y], inputs=[x])[0]
    print("dx:", dx)
    print("x.grad:", x.grad)
    assert dx.numpy().tolist() == [7.0] and x.grad is None


def test_seed001_create_graph_gives_12_and_12_for_x_cubed():
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy_dx = paddle.grad(outputs=[y], inputs=[x], create_graph=True)[0]
    d2y_dx2 = paddle.grad(outputs=[dy_dx], inputs=[x])[0]
    print("dy_dx:", dy_dx)
    print("d2y_dx2:", d2y_dx2)
    assert dy_dx.item() == 12.0 and d2y_dx2.item() == 12.0


def test_seed001_no_grad_result_has_stop_gradient_true():
    x = paddle.to_tensor([2.0], stop_gradient=False)
    with paddle.no_grad():
        y = x * x
    print("y.stop_gradient:", y.stop_gradient)
    assert y.stop_gradient is True


def test_seed001_detach_keeps_the_value_and_cuts_the_gradient():
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x
    z = y.detach()
    out = z * 3
    with warnings.catch_warnings():
        # out depends on nothing that needs a gradient: backward has nothing to do
        warnings.simplefilter("ignore")
        out.backward()
    print("x.grad:", x.grad)
    print("y.stop_gradient:", y.stop_gradient)
    print("z.stop_gradient:", z.stop_gradient)
    assert x.grad is None and y.stop_gradient is False and z.stop_gradient is True
    assert out.item() == 12.0


def test_seed001_retain_graph_allows_a_second_backward_that_accumulates():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.sum(x ** 2)
    y.backward(retain_graph=True)
    print("first grad:", x.grad)
    first = x.grad.numpy().tolist()
    y.backward()
    print("second grad:", x.grad)
    assert first == [2.0, 4.0, 6.0] and x.grad.numpy().tolist() == [4.0, 8.0, 12.0]


def test_seed001_numeric_gradient_check_agrees_with_autograd():
    eps = 1e-4
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    y.backward()
    auto_grad = x.grad.numpy()[0]
    x_plus = 2.0 + eps
    x_minus = 2.0 - eps
    f_plus = x_plus * x_plus + 3 * x_plus
    f_minus = x_minus * x_minus + 3 * x_minus
    numeric_grad = (f_plus - f_minus) / (2 * eps)
    print("auto_grad:", auto_grad)
    print("numeric_grad:", numeric_grad)
    assert auto_grad == 7.0 and numeric_grad == pytest.approx(7.0, rel=1e-8)


def test_seed001_error1_forgetting_stop_gradient_leaves_grad_none_with_a_warning():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.sum(x ** 2)
    with pytest.warns(paddle.errors.OpsdkWarning, match="stop_gradient"):
        y.backward()
    print(x.grad)
    assert x.grad is None


def test_seed001_error3_update_outside_no_grad_makes_a_new_tensor_not_an_update():
    w = paddle.to_tensor([1.0], stop_gradient=False)
    param = w
    (w * w).backward()
    learning_rate = 0.1
    w -= learning_rate * w.grad  # as in Paddle: w is rebound to a new tensor in the graph
    assert not w.is_leaf and param.is_leaf and param.item() == 1.0
    with paddle.no_grad():
        param -= learning_rate * param.grad  # the right way updates the parameter itself
    assert param.item() == pytest.approx(0.8)


def test_seed001_error4_numpy_leaves_the_graph():
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 2
    y_np = y.numpy()
    loss_np = (y_np ** 2).mean()
    assert not isinstance(loss_np, paddle.Tensor)
    loss = paddle.mean(y ** 2)
    assert not loss.stop_gradient and loss.item() == pytest.approx(loss_np)


def test_seed001_debug_helper_prints_the_autograd_state(capsys):
    def debug_autograd(name, tensor):
        print(f"{name}:")
        print("  shape:", tensor.shape)
        print("  dtype:", tensor.dtype)
        print("  stop_gradient:", tensor.stop_gradient)
        print("  grad:", tensor.grad)

    w = paddle.to_tensor([[0.5]], stop_gradient=False)
    loss = paddle.mean((w * 2.0 - 3.0) ** 2)
    loss.backward()
    debug_autograd("w", w)
    print("loss:", loss.numpy())
    out = capsys.readouterr().out
    assert "shape: paddle.Size([1, 1])" in out and "stop_gradient: False" in out and "[[-8.]]" in out


# -- seed 003: 反向传播 (PyTorch examples in Paddle spelling) ----------------------------------
def test_seed003_grad_of_x_squared_plus_3_at_1_is_2():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    y = x ** 2 + 3
    y.backward()
    assert x.grad.item() == 2.0


def test_seed003_a_variable_used_twice_accumulates_both_paths():
    a = paddle.randn([3])
    a.stop_gradient = False
    b = a * 2
    c = a + 1
    loss = (b + c).sum()
    loss.backward()
    # dl/da = dl/db * db/da + dl/dc * dc/da = 2 + 1
    assert a.grad.numpy().tolist() == [3.0, 3.0, 3.0]


def test_seed003_second_derivative_of_x_cubed_at_1_is_6():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    y = x ** 3
    grad1 = paddle.grad(y, x, create_graph=True)
    grad2 = paddle.grad(grad1, x)
    assert grad1[0].item() == 3.0 and grad2[0].item() == 6.0


def test_seed003_gradient_rule_table_matmul_bias_and_relu():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    w = paddle.to_tensor([[0.5, -1.0], [1.5, 2.0]], stop_gradient=False)
    b = paddle.to_tensor([0.1, -20.0], stop_gradient=False)
    z = paddle.matmul(x, w) + b
    a = paddle.maximum(z, paddle.zeros_like(z))  # ReLU
    da = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    a.backward(da)
    dz = da.numpy() * (z.numpy() > 0)
    np.testing.assert_allclose(x.grad.numpy(), dz @ w.numpy().T)
    np.testing.assert_allclose(w.grad.numpy(), x.numpy().T @ dz)
    np.testing.assert_allclose(b.grad.numpy(), dz.sum(axis=0))


def test_seed003_two_layer_network_gradients_follow_the_chain_rule():
    x = paddle.to_tensor([[1.0], [2.0]])
    t = paddle.to_tensor([[0.5]])
    w1 = paddle.to_tensor([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], stop_gradient=False)
    b1 = paddle.to_tensor([[0.1], [0.2], [0.3]], stop_gradient=False)
    w2 = paddle.to_tensor([[1.0, -1.0, 2.0]], stop_gradient=False)
    b2 = paddle.to_tensor([[0.5]], stop_gradient=False)
    h = paddle.matmul(w1, x) + b1
    y = paddle.matmul(w2, h) + b2
    loss = paddle.sum((y - t) ** 2)
    loss.backward()
    dy = 2 * (y.numpy() - t.numpy())
    dh = w2.numpy().T @ dy
    np.testing.assert_allclose(w2.grad.numpy(), dy @ h.numpy().T, rtol=1e-6)
    np.testing.assert_allclose(b2.grad.numpy(), dy, rtol=1e-6)
    np.testing.assert_allclose(w1.grad.numpy(), dh @ x.numpy().T, rtol=1e-6)
    np.testing.assert_allclose(b1.grad.numpy(), dh, rtol=1e-6)


def test_seed003_gradient_check_compares_analytic_and_numeric_gradients():
    def f(v):
        return v ** 3 - 2 * v

    def grad_check(f, x, eps=1e-5):
        xt = paddle.to_tensor(x, dtype="float64", stop_gradient=False)
        analytic_grad = paddle.grad(paddle.sum(f(xt)), xt)[0].numpy()
        numeric_grad = (f(x + eps) - f(x - eps)) / (2 * eps)
        return np.allclose(analytic_grad, numeric_grad, rtol=1e-3)

    assert grad_check(f, np.array([0.5, -1.0, 2.0]))


def test_seed003_custom_clamp_function_passes_the_gradient_where_the_input_is_positive():
    class MyFunction(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clip(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensor()
            return grad_output * (input > 0).astype("float32")

    x = paddle.to_tensor([-1.0, 0.0, 2.0], stop_gradient=False)
    y = MyFunction.apply(x)
    y.sum().backward()
    assert y.numpy().tolist() == [0.0, 0.0, 2.0]
    assert x.grad.numpy().tolist() == [0.0, 0.0, 1.0]
