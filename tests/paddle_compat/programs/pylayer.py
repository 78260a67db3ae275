"""PyLayer (item 7 and the PyLayerContext names): keyword tensors, error families, ctx API."""
import numpy as np

from ..harness import attempt
from . import program


def _leaf(paddle, values, dtype="float64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


def _tanh_layer(paddle):
    class Tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))
    return Tanh


@program(item="7")
def pylayer_tensor_as_keyword(paddle):
    class Scale(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, factor=2.0):
            ctx.factor = factor
            return x1 * factor

        @staticmethod
        def backward(ctx, dy):
            return dy * ctx.factor

    x = _leaf(paddle, [1.0, 2.0])
    y = Scale.apply(x1=x, factor=3.0)
    y.sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="7")
def pylayer_backward_wrong_count_is_value_error(paddle):
    class Add(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, dy):
            return dy

    a, b = _leaf(paddle, [1.0]), _leaf(paddle, [2.0])
    z = Add.apply(a, b)
    return {"out": attempt(z.backward)}


@program(item="7")
def pylayer_backward_returns_int_is_value_error(paddle):
    class Twice(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x + x

        @staticmethod
        def backward(ctx, dy):
            return 1

    x = _leaf(paddle, [1.0, 2.0])
    z = Twice.apply(x)
    return {"out": attempt(lambda: z.mean().backward())}


@program(item="7")
def pylayer_forward_returning_none_is_value_error(paddle):
    class Nothing(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return None

        @staticmethod
        def backward(ctx, dy):
            return dy

    return {"out": attempt(lambda: Nothing.apply(_leaf(paddle, [1.0])) and None)}


@program(item="7")
def pylayer_forward_returning_int_is_value_error(paddle):
    class One(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    return {"out": attempt(lambda: One.apply(_leaf(paddle, [1.0])) and None)}


@program(item="7")
def pylayer_forward_mixed_outputs(paddle):
    class Mixed(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return [1, 2, x * 2]

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    x = _leaf(paddle, [1.0, 2.0])
    out = Mixed.apply(x)
    out[2].sum().backward()
    return {"n": len(out), "first": out[0], "x_grad": x.grad}


@program(item="7")
def pylayer_missing_forward_is_not_implemented(paddle):
    class NoForward(paddle.autograd.PyLayer):
        @staticmethod
        def backward(ctx, dy):
            return dy

    return {"out": attempt(lambda: NoForward.apply(_leaf(paddle, [1.0])) and None)}


@program(item="7")
def pylayer_inplace_version_error_is_runtime_error(paddle):
    class Identity(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy

    data = paddle.ones([2, 3], dtype="float64")
    data.stop_gradient = False
    b = data ** 2
    c = b ** 2
    Identity.apply(b)
    loss = paddle.nn.functional.relu(c)
    return {"out": attempt(lambda: loss.sum().backward())}


@program(item="7")
def pylayer_identity_on_leaf_is_value_error(paddle):
    class Identity(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = _leaf(paddle, [1.0, 2.0])
    return {"out": attempt(lambda: Identity.apply(x).mean())}


@program(item="7")
def pylayer_backward_swapped_shapes_match(paddle):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 5

        @staticmethod
        def backward(ctx, dy1, dy2):
            return dy2 * 2, dy1 * 2

    x = _leaf(paddle, [1.0, 2.0])
    y = Two.apply(x)
    return {"out": attempt(lambda: (y[0] + y[1]).mean().backward())}


@program(item="7")
def pylayer_multiple_outputs_gradient(paddle):
    Tanh = _tanh_layer(paddle)

    class Pair(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b, a + b

        @staticmethod
        def backward(ctx, d1, d2):
            a, b = ctx.saved_tensor()
            return d1 * b + d2, d1 * a + d2

    a, b = _leaf(paddle, [1.0, 2.0]), _leaf(paddle, [3.0, -1.0])
    p, s = Pair.apply(Tanh.apply(a), b)
    (p.sum() + (s * s).sum()).backward()
    return {"a_grad": a.grad, "b_grad": b.grad, "p": p, "s": s}


ONE_GRAD_PER_ARGUMENT = ("DESIGN.md: backward may return one gradient per forward argument "
                         "(None for the non-Tensors); Paddle accepts only one per Tensor input "
                         "and raises ValueError")


@program(item="7", differs=([""], ONE_GRAD_PER_ARGUMENT))
def pylayer_non_tensor_args_and_none_grad(paddle):
    class Power(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.save_for_backward(x)
            ctx.alpha = alpha
            return x ** alpha

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensor()
            return ctx.alpha * (x ** (ctx.alpha - 1)) * grad_output, None

    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = Power.apply(x, 2.0)
    y.sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="7")
def pylayer_double_backward(paddle):
    class Cube(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return 3 * x * x * dy

    x = _leaf(paddle, [2.0])
    (g,) = paddle.grad(Cube.apply(x), x, create_graph=True)
    (h,) = paddle.grad(g, x)
    return {"g": g.numpy(), "h": h.numpy()}


@program(item="7")
def pylayer_backward_returns_none_for_only_input(paddle):
    class NoGrad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return None

    x = _leaf(paddle, [1.0, 2.0])
    NoGrad.apply(x).sum().backward()
    return {"x_grad": x.grad}


@program(item="7")
def pylayer_output_flags(paddle):
    Tanh = _tanh_layer(paddle)
    x = _leaf(paddle, [0.5])
    y = Tanh.apply(x)
    c = paddle.to_tensor([0.5])
    yc = Tanh.apply(c)
    return {"y_sg": y.stop_gradient, "y_leaf": y.is_leaf, "yc_sg": yc.stop_gradient}


@program(item="names", differs=(["x_grad.value", "a_leaf"],
                               "an input marked with mark_not_inplace and returned comes back "
                               "graph-connected in opsdk (x.grad 3, the derivative); Paddle "
                               "returns a new leaf cut from the graph, so the gradient through "
                               "it is lost (x.grad 2)"))
def pylayer_mark_not_inplace(paddle):
    class Both(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x, x + x

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + 2 * g2

    x = _leaf(paddle, [1.0])
    a, b = Both.apply(x)
    (a + b).sum().backward()
    return {"x_grad": x.grad, "a_leaf": a.is_leaf, "a_sg": a.stop_gradient}


@program(item="names")
def pylayer_materialize_grads_zero_vs_none(paddle):
    seen = {}

    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.mark_not_inplace(x)
            ctx.set_materialize_grads(materialize)
            return x * 1.0, x + x

        @staticmethod
        def backward(ctx, g1, g2):
            seen[len(seen)] = None if g2 is None else g2.numpy().tolist()
            return g1

    for flag in (True, False):
        x = _leaf(paddle, [1.0])
        Two.apply(x, flag)[0].backward()
    return {"seen": [seen[0], seen[1]]}


@program(item="names")
def pylayer_set_grad_in_dtype_consistent_false(paddle):
    seen = {}

    class Keep(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            ctx.set_grad_in_dtype_consistent(False)
            return y

        @staticmethod
        def backward(ctx, dy):
            seen["dtype"] = str(dy.dtype).split(".")[-1]
            (y,) = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    class ToHalf(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return paddle.tanh(x)

        @staticmethod
        def backward(ctx, dy):
            return paddle.cast(dy, "float16")

    x = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]], stop_gradient=False)
    ToHalf.apply(Keep.apply(x)).sum().backward()
    return {"dy_dtype": seen["dtype"], "x_grad_dtype": str(x.grad.dtype).split(".")[-1]}


@program(item="names")
def pylayer_grad_dtype_cast_back_by_default(paddle):
    seen = {}

    class Plain(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            seen["dtype"] = str(dy.dtype).split(".")[-1]
            return dy * 2

    class ToHalf(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return paddle.cast(dy, "float16")

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    ToHalf.apply(Plain.apply(x)).sum().backward()
    return {"dy_dtype": seen["dtype"], "x_grad": x.grad}


@program(item="names")
def pylayer_mark_non_differentiable(paddle):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x + x
            b = x + x + x
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            return gb

    x = _leaf(paddle, [1.0])
    a, b = Two.apply(x)
    b.sum().backward()
    return {"a_sg": a.stop_gradient, "x_grad": x.grad}


@program(item="names", differs=([""], "opsdk drops a gradient backward returns for an input "
                                     "with stop_gradient=True (as PyTorch: op packs compute "
                                     "every gradient); Paddle raises ValueError"))
def pylayer_saved_tensor_and_needs_input_grad_free_api(paddle):
    class Mul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, dz):
            x, y = ctx.saved_tensor()
            return dz * y, dz * x

    x = _leaf(paddle, [2.0, 3.0])
    y = paddle.to_tensor(np.asarray([4.0, 5.0]))
    Mul.apply(x, y).sum().backward()
    return {"x_grad": x.grad, "y_grad": y.grad}


@program(item="7")
def pylayer_apply_list_input_keyword(paddle):
    class Cat(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, func1):
            return func1(x1)

        @staticmethod
        def backward(ctx, dy):
            return paddle.split(dy, 3)

    xs = [_leaf(paddle, [[1.0, 2.0]]), _leaf(paddle, [[3.0, 4.0]]), _leaf(paddle, [[5.0, 6.0]])]
    z = Cat.apply(x1=xs, func1=paddle.concat)
    return {"z": z, "flags": z.stop_gradient}
