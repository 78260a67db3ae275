"""Grad modes (no_grad on generators: item 12) and clearing gradients (item 13)."""
from ..harness import attempt
from . import program


def _leaf(paddle, values):
    return paddle.to_tensor(values, stop_gradient=False)


@program(item="12")
def no_grad_decorator_on_generator(paddle):
    x = _leaf(paddle, [1.0, 2.0])

    @paddle.no_grad()
    def gen():
        for k in range(2):
            yield x * (k + 1)

    outs = list(gen())
    return {"sg": [o.stop_gradient for o in outs], "values": outs}


@program(item="12")
def no_grad_generator_keeps_mode_between_yields(paddle):
    x = _leaf(paddle, [1.0])

    @paddle.no_grad()
    def gen():
        yield paddle.is_grad_enabled()
        yield paddle.is_grad_enabled()

    g = gen()
    first = next(g)
    outside = paddle.is_grad_enabled()
    y = x * 2
    second = next(g)
    return {"first": first, "outside": outside, "y_sg": y.stop_gradient, "second": second}


@program(item="12")
def no_grad_decorator_on_function(paddle):
    x = _leaf(paddle, [1.0, 2.0])

    @paddle.no_grad()
    def f(t):
        return t * 2

    y = f(x)
    return {"y_sg": y.stop_gradient, "mode_after": paddle.is_grad_enabled()}


@program(item="12", differs=([""], "opsdk also takes the bare @no_grad (PyTorch's spelling); "
                                  "Paddle raises TypeError"))
def no_grad_bare_decorator(paddle):
    x = _leaf(paddle, [1.0, 2.0])

    @paddle.no_grad
    def f(t):
        return t * 2

    return {"y_sg": f(x).stop_gradient}


@program(item="12")
def no_grad_context(paddle):
    x = _leaf(paddle, [2.0])
    with paddle.no_grad():
        y = x * x
        inside = paddle.is_grad_enabled()
    return {"y_sg": y.stop_gradient, "inside": inside, "after": paddle.is_grad_enabled()}


@program(item="12")
def enable_grad_inside_no_grad(paddle):
    x = _leaf(paddle, [2.0])
    with paddle.no_grad():
        with paddle.enable_grad():
            y = x * x
    y.backward()
    return {"y_sg": y.stop_gradient, "x_grad": x.grad}


@program(item="12")
def set_grad_enabled_false_then_true(paddle):
    x = _leaf(paddle, [2.0])
    with paddle.set_grad_enabled(False):
        a = x * 2
    with paddle.set_grad_enabled(True):
        b = x * 2
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient}


@program(item="12")
def no_grad_exception_restores_mode(paddle):
    def body():
        with paddle.no_grad():
            raise KeyError("inside")
    raised = attempt(body)
    return {"raised": raised, "enabled": paddle.is_grad_enabled()}


@program(item="13")
def clear_grad_set_to_zero_is_type_error(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    return {"out": attempt(lambda: x.clear_grad(set_to_zero=False)), "grad": x.grad}


@program(item="13", differs=(["grad"], "Paddle 3.3.1 ignores set_to_zero passed by keyword "
                                      "(the gradient is zeroed; clear_gradient(False) gives "
                                      "None); opsdk honours the keyword, as Paddle documents"))
def clear_gradient_set_to_zero_false_gives_none(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    x.clear_gradient(set_to_zero=False)
    return {"grad": x.grad}


@program(item="13")
def clear_gradient_positional_false_gives_none(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    x.clear_gradient(False)
    return {"grad": x.grad}


@program(item="13")
def clear_gradient_default_zeros(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    x.clear_gradient()
    return {"grad": x.grad}


@program(item="13")
def clear_grad_default_zeros(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    x.clear_grad()
    (x * 3).sum().backward()
    return {"grad": x.grad}


@program(item="13")
def optimizer_clear_grad_set_to_zero_false(paddle):
    w = paddle.create_parameter([2], "float32")
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    (w * w).sum().backward()
    opt.clear_grad(set_to_zero=False)
    return {"grad": w.grad}


@program(item="13")
def layer_clear_gradients(paddle):
    lin = paddle.nn.Linear(2, 1)
    lin(paddle.to_tensor([[1.0, 2.0]])).sum().backward()
    lin.clear_gradients()
    return {"w_grad": lin.weight.grad, "b_grad": lin.bias.grad}
