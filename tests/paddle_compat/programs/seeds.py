"""The seed documents' examples (/work/shared/seeds/), as differential programs."""
import numpy as np

from ..harness import attempt
from . import program


# -- seed 000 --------------------------------------------------------------------------------
@program(item="seed")
def seed000_first_example(paddle):
    paddle.disable_static()
    w = paddle.to_tensor([2.0], stop_gradient=False)
    x = paddle.to_tensor([3.0])
    y = w * x
    loss = y ** 2
    loss.backward()
    return {"grad": w.gradient(), "loss": loss}


@program(item="seed")
def seed000_sum_of_squares(paddle):
    w = paddle.ones([1], dtype='float32')
    w.stop_gradient = False
    x = paddle.full([1], 2., dtype='float32')
    y = w * x
    loss = paddle.sum(y ** 2)
    loss.backward()
    return {"grad": w.gradient(), "y": y, "loss": loss}


@program(item="seed")
def seed000_higher_order(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy_dx = paddle.grad(outputs=y, inputs=x, create_graph=True)[0]
    d2y_dx2 = paddle.grad(outputs=dy_dx, inputs=x, retain_graph=True)[0]
    return {"d1": dy_dx, "d2": d2y_dx2}


@program(item="seed")
def seed000_embedding_sparse_rows(paddle):
    emb = paddle.nn.Embedding(num_embeddings=10000, embedding_dim=128)
    ids = paddle.to_tensor([[1, 3, 5]])
    e = emb(ids)
    loss = e.sum()
    loss.backward()
    g = emb.weight.grad.numpy()
    return {"shape": list(e.shape), "rows": sorted(np.flatnonzero(g.any(axis=1)).tolist()),
            "row_sum": g[[1, 3, 5]].sum(), "total": g.sum()}


@program(item="seed", differs=(["backward", "grad"], "docs/paddle.md, PyLayer: backward may return one "
                               "gradient per forward argument (None for the non-Tensors); "
                               "Paddle raises ValueError for the seed's `return grad_input, None`"))
def seed000_custom_op_pylayer(paddle):
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

    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = CustomOp.apply(x, 2.0)
    out = attempt(lambda: y.sum().backward())
    return {"y": y, "backward": out, "grad": x.grad}


@program(item="seed")
def seed000_clip_and_adam(paddle):
    model = paddle.nn.Linear(2, 1)
    model.weight.set_value(np.asarray([[3.0], [4.0]], dtype="float32"))
    model.bias.set_value(np.asarray([0.0], dtype="float32"))
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=5.0)
    opt = paddle.optimizer.Adam(parameters=model.parameters(), grad_clip=clip)
    loss = (model(paddle.to_tensor([[10.0, 20.0]])) ** 2).sum()
    loss.backward()
    opt.step()
    return {"w": model.weight, "b": model.bias, "grad": model.weight.grad}


@program(item="seed")
def seed000_no_grad_decorator(paddle):
    @paddle.no_grad()
    def evaluate(t):
        return t * 2

    x = paddle.to_tensor([1.0], stop_gradient=False)
    return {"sg": evaluate(x).stop_gradient}


@program(item="seed")
def seed000_nan_check(paddle):
    loss = paddle.to_tensor(float("nan"))
    return {"isnan": bool(paddle.isnan(loss)), "finite": bool(paddle.isfinite(loss))}


# -- seed 001 --------------------------------------------------------------------------------
@program(item="seed")
def seed001_stop_gradient_defaults(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0])
    b = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    before = x.stop_gradient
    x.stop_gradient = False
    return {"a": a.stop_gradient, "b": b.stop_gradient, "before": before,
            "after": x.stop_gradient}


@program(item="seed")
def seed001_square(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x ** 2
    loss = paddle.sum(y)
    loss.backward()
    return {"x": x, "y": y, "loss": loss, "grad": x.grad}


@program(item="seed")
def seed001_two_inputs(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
    z = x ** 2 + 4 * y
    loss = paddle.sum(z)
    loss.backward()
    return {"x_grad": x.grad, "y_grad": y.grad}


@program(item="seed")
def seed001_sum_vs_mean(paddle):
    x1 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.sum(x1 ** 2).backward()
    x2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    loss_mean = paddle.mean(x2 ** 2)
    loss_mean.backward()
    return {"sum": x1.grad, "mean": x2.grad, "mean_shape": list(loss_mean.shape)}


@program(item="seed")
def seed001_grad_attribute(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    y.backward()
    return {"grad": x.grad}


@program(item="seed")
def seed001_stop_gradient_blocks(paddle):
    a = paddle.to_tensor(2.0, stop_gradient=False)
    b = paddle.to_tensor(5.0, stop_gradient=True)
    c = a * b
    c.backward()
    return {"a": a.grad, "b": b.grad}


@program(item="seed")
def seed001_accumulation_and_clear(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.sum(x ** 2).backward()
    first = x.grad.numpy()
    paddle.sum(x ** 2).backward()
    second = x.grad.numpy()
    x.clear_gradient()
    return {"first": first, "second": second, "cleared": x.grad}


@program(item="seed", differs=([""], "the seed's loop runs under opsdk (x op= y under no_grad "
                                    "updates w in place, docs/paddle.md Engine); under Paddle "
                                    "w -= ... rebinds w to a tensor with stop_gradient=True, "
                                    "so w.grad is None at once"))
def seed001_manual_gradient_descent(paddle):
    w = paddle.to_tensor([0.0], stop_gradient=False)
    learning_rate = 0.1
    trace = []
    for step in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()
        with paddle.no_grad():
            w -= learning_rate * w.grad
        trace.append([w.numpy(), loss.numpy(), w.grad.numpy()])
        w.clear_gradient()
    return {"trace": trace, "leaf": w.is_leaf}


@program(item="seed")
def seed001_sgd_create_parameter(paddle):
    w = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    trace = []
    for step in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        trace.append([w.numpy(), loss.numpy()])
    return {"trace": trace}


@program(item="seed")
def seed001_linear_regression(paddle):
    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]], dtype="float32")
    y_true = paddle.to_tensor([[3.0], [5.0], [7.0], [9.0]], dtype="float32")
    w = paddle.create_parameter(shape=[1, 1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.1))
    b = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    optimizer = paddle.optimizer.SGD(learning_rate=0.01, parameters=[w, b])
    losses = []
    for step in range(100):
        y_pred = paddle.matmul(x, w) + b
        loss = paddle.mean((y_pred - y_true) ** 2)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        if step % 20 == 0:
            losses.append(float(loss.numpy()))
    return {"losses": losses, "w": w, "b": b}


@program(item="seed")
def seed001_paddle_grad(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    dx = paddle.grad(outputs=[y], inputs=[x])[0]
    return {"dx": dx, "x_grad": x.grad}


@program(item="seed")
def seed001_higher_order(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy_dx = paddle.grad(outputs=[y], inputs=[x], create_graph=True)[0]
    d2y_dx2 = paddle.grad(outputs=[dy_dx], inputs=[x])[0]
    return {"d1": dy_dx, "d2": d2y_dx2}


@program(item="seed")
def seed001_no_grad(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    with paddle.no_grad():
        y = x * x
    return {"y_sg": y.stop_gradient}


@program(item="seed")
def seed001_detach(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x
    z = y.detach()
    out = z * 3
    res = attempt(out.backward)
    return {"x_grad": x.grad, "y_sg": y.stop_gradient, "z_sg": z.stop_gradient,
            "backward": "raised" if res is not None else None}


@program(item="seed")
def seed001_retain_graph(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.sum(x ** 2)
    y.backward(retain_graph=True)
    first = x.grad.numpy()
    y.backward()
    return {"first": first, "second": x.grad}


@program(item="seed")
def seed001_gradient_check(paddle):
    eps = 1e-4
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    y.backward()
    auto_grad = x.grad.numpy()[0]
    x_plus, x_minus = 2.0 + eps, 2.0 - eps
    numeric = ((x_plus * x_plus + 3 * x_plus) - (x_minus * x_minus + 3 * x_minus)) / (2 * eps)
    return {"auto": float(auto_grad), "close": abs(auto_grad - numeric) < 1e-3}


@program(item="seed")
def seed001_forgot_stop_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.sum(x ** 2)
    res = attempt(y.backward)
    return {"grad": x.grad, "backward": "raised" if res is not None else None}


# -- seed 003 (PyTorch examples, in Paddle spelling) ----------------------------------------
@program(item="seed")
def seed003_square_plus_three(paddle):
    x = paddle.to_tensor([1.0], stop_gradient=False)
    y = x ** 2 + 3
    y.backward()
    return {"grad": x.grad}


@program(item="seed")
def seed003_accumulation_two_paths(paddle):
    a = paddle.to_tensor(np.asarray([0.5, -1.0, 2.0], dtype="float32"), stop_gradient=False)
    b = a * 2
    c = a + 1
    loss = (b * c).sum()
    loss.backward()
    return {"grad": a.grad}


@program(item="seed")
def seed003_second_derivative(paddle):
    x = paddle.to_tensor([1.0], stop_gradient=False)
    y = x ** 3
    (g1,) = paddle.grad(y, x, create_graph=True)
    (g2,) = paddle.grad(g1, x)
    return {"g1": g1, "g2": g2}


@program(item="seed")
def seed003_custom_relu_function(paddle):
    class MyFunction(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, inp):
            ctx.save_for_backward(inp)
            return inp.clip(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            (inp,) = ctx.saved_tensor()
            return grad_output * (inp > 0).astype("float32")

    x = paddle.to_tensor([-1.0, 0.0, 2.0], stop_gradient=False)
    MyFunction.apply(x).sum().backward()
    return {"grad": x.grad}


@program(item="seed")
def seed003_two_layer_network(paddle):
    x = paddle.to_tensor([[1.0, -2.0]])
    t = paddle.to_tensor([[0.5]])
    W1 = paddle.to_tensor([[0.1, 0.2], [0.3, -0.4]], stop_gradient=False)
    b1 = paddle.to_tensor([0.01, 0.02], stop_gradient=False)
    W2 = paddle.to_tensor([[0.5], [-0.6]], stop_gradient=False)
    b2 = paddle.to_tensor([0.1], stop_gradient=False)
    h = paddle.nn.functional.relu(paddle.matmul(x, W1) + b1)
    y = paddle.matmul(h, W2) + b2
    L = ((y - t) ** 2).sum()
    L.backward()
    return {"grads": [W1.grad, b1.grad, W2.grad, b2.grad]}


@program(item="seed")
def seed003_clip_grad_norm(paddle):
    model = paddle.nn.Linear(2, 2)
    model.weight.set_value(np.asarray([[1.0, 2.0], [3.0, 4.0]], dtype="float32"))
    (model(paddle.to_tensor([[5.0, 6.0]])) ** 2).sum().backward()
    total = paddle.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    return {"total": total, "w_grad": model.weight.grad}


@program(item="seed")
def seed003_grad_stats(paddle):
    model = paddle.nn.Linear(2, 2)
    model.weight.set_value(np.asarray([[1.0, 2.0], [3.0, 4.0]], dtype="float32"))
    model.bias.set_value(np.asarray([0.0, 1.0], dtype="float32"))
    (model(paddle.to_tensor([[5.0, 6.0], [1.0, -1.0]])) ** 2).sum().backward()
    return {name: [p.grad.mean(), p.grad.std()] for name, p in model.named_parameters()}


@program(item="seed")
def seed003_dynamic_loss(paddle):
    F = paddle.nn.functional
    output = paddle.to_tensor([[0.2, 0.8], [0.6, 0.4]], stop_gradient=False)
    out = {}
    for label in (1, 0):
        if label == 1:
            loss = F.cross_entropy(output, paddle.to_tensor([1, 0]))
        else:
            loss = F.mse_loss(output, paddle.to_tensor([[0.0, 1.0], [1.0, 0.0]]))
        loss.backward()
        out[str(label)] = output.grad.numpy()
    return out
