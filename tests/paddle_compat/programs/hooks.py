"""Tensor hooks (item 6): leaf hooks under paddle.grad, hooks on PyLayer outputs, remove()."""
from ..harness import attempt
from . import program


def _leaf(paddle, values):
    return paddle.to_tensor(values, stop_gradient=False)


@program(item="6")
def leaf_hook_not_applied_under_paddle_grad(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    x.register_hook(lambda g: g * 10)
    (g,) = paddle.grad((x * x).sum(), x)
    return {"g": g.numpy(), "x_grad": x.grad}


@program(item="6")
def leaf_hook_applied_under_backward(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    x.register_hook(lambda g: g * 10)
    (x * x).sum().backward()
    return {"x_grad": x.grad.numpy()}


@program(item="6")
def interior_hook_applied_under_paddle_grad(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * 3
    y.register_hook(lambda g: g * 2)
    (g,) = paddle.grad((y * y).sum(), x)
    return {"g": g.numpy()}


def _double_layer(paddle):
    class Double(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return dy * 2
    return Double


@program(item="26", differs=(["x_grad"], "a hook on a PyLayer's output: Paddle calls it but "
                                         "drops the gradient it returns; opsdk uses it"))
def hook_on_pylayer_output_is_called(paddle):
    seen = []
    x = _leaf(paddle, [1.0, 2.0])
    y = _double_layer(paddle).apply(x)
    y.register_hook(lambda g: seen.append(g.numpy().tolist()) or g * 100)
    y.sum().backward()
    return {"seen": seen, "x_grad": x.grad.numpy()}


@program(item="26")
def pylayer_output_retains_its_gradient(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = _double_layer(paddle).apply(x)
    y.retain_grads()
    (y * y).sum().backward()
    return {"y_grad": y.grad.numpy(), "x_grad": x.grad.numpy()}


@program(item="6")
def handle_remove_returns_true_then_false(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    h = x.register_hook(lambda g: g * 2)
    return {"first": h.remove(), "second": h.remove()}


@program(item="6")
def removed_hook_not_called(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * 1.0
    h = y.register_hook(lambda g: g * 5)
    h.remove()
    y.sum().backward()
    return {"x_grad": x.grad.numpy()}


@program(item="6")
def interior_hook_changes_upstream_not_own_grad(paddle):
    x = _leaf(paddle, [0.0, 1.0, 2.0, 3.0])
    y = _leaf(paddle, [4.0, 5.0, 6.0, 7.0])
    w = x + y
    w.retain_grads()
    w.register_hook(lambda g: g * 2)
    z = _leaf(paddle, [1.0, 2.0, 3.0, 4.0])
    o = z.matmul(w)
    o.backward()
    return {"w_grad": w.grad.numpy(), "x_grad": x.grad.numpy(), "z_grad": z.grad.numpy()}


@program(item="6")
def several_hooks_chain(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    w = x * 1.0
    for _ in range(3):
        w.register_hook(lambda g: g * 2)
    w.sum().backward()
    return {"x_grad": x.grad.numpy()}


@program(item="6")
def hook_returning_none_keeps_grad(paddle):
    seen = []
    x = _leaf(paddle, [1.0, 2.0])
    y = x * 4.0
    y.register_hook(lambda g: seen.append(g.numpy().tolist()))
    y.sum().backward()
    return {"seen": seen, "x_grad": x.grad.numpy()}


@program(item="6")
def register_hook_on_stop_gradient_tensor_raises(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return {"out": attempt(lambda: x.register_hook(lambda g: g) and None)}


@program(item="6")
def leaf_hook_accumulated_across_two_paths(paddle):
    x = _leaf(paddle, [0.0, 1.0, 2.0, 4.0])
    x.register_hook(lambda g: g * 2)
    y = _leaf(paddle, [4.0, 5.0, 6.0, 7.0])
    z = _leaf(paddle, [1.0, 2.0, 3.0, 4.0])
    o = (x + y).matmul(x + z)
    o.backward()
    return {"x_grad": x.grad.numpy()}


@program(item="6")
def hook_sees_create_graph_grad(paddle):
    x = _leaf(paddle, [2.0])
    y = x * x
    y.register_hook(lambda g: g * 3)
    (g,) = paddle.grad(y * y, x, create_graph=True)
    return {"g": g.numpy()}
