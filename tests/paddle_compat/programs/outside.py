"""Behaviours found by running Paddle code written outside the project (issue 26): grad-mode
decorators, retained gradients, index outputs' flags, create_graph flags, in-place ops that
change a tensor's shape, the arguments Paddle refuses, values at special points."""
import numpy as np

from ..harness import attempt
from . import program


def _leaf(paddle, values, dtype="float32"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


@program(item="26")
def set_grad_enabled_decorator_restores_the_mode(paddle):
    @paddle.set_grad_enabled(False)
    def double(x):
        return x * 2

    y = double(_leaf(paddle, [1.0]))
    return {"inside": y.stop_gradient, "after": paddle.is_grad_enabled()}


@program(item="26", differs=(["second_call"], "Paddle's set_grad_enabled decorator runs only "
                                              "its first call in the mode"))
def set_grad_enabled_decorator_second_call(paddle):
    @paddle.set_grad_enabled(False)
    def double(x):
        return x * 2

    x = _leaf(paddle, [1.0])
    first = double(x).stop_gradient
    return {"first": first, "second_call": double(x).stop_gradient,
            "after": paddle.is_grad_enabled()}


@program(item="26")
def retained_grad_over_two_backwards(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * 3
    y.retain_grads()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward(retain_graph=True)
    first = y.grad.numpy()
    (y * 2).sum().backward()
    return {"y_grad": first, "y_grad_after": y.grad, "x_grad": x.grad}


@program(item="26")
def sort_index_outputs_flags(paddle):
    x = _leaf(paddle, [3.0, 1.0, 2.0, 1.0])
    v, i = paddle.topk(x, 2)
    k = paddle.kthvalue(x, 2)[1]
    with paddle.no_grad():
        quiet = paddle.argsort(x)
    return {"argsort": paddle.argsort(x), "topk": i, "v": v, "kth": k, "quiet": quiet,
            "argmax": paddle.argmax(x)}


@program(item="26")
def grad_of_itself_with_create_graph(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (g,) = paddle.grad([x], [x], create_graph=True)
    (g3,) = paddle.grad([(x * 3).sum()], [x], create_graph=True)
    g3.sum().backward()
    return {"g": g, "g3": g3, "x_grad": x.grad}


@program(item="26")
def double_backward_through_x_to_the_first(paddle):
    x = _leaf(paddle, [0.0, 2.0, -1.0], dtype="float64")
    (g,) = paddle.grad((x ** 1).sum(), x, create_graph=True)
    g.sum().backward()
    return {"g": g, "x_grad": x.grad}


@program(item="26")
def pow_second_derivative_at_special_values(paddle):
    out = {}
    for p in (0.5, 1.5, 2.5, 3.0, -0.5):
        x = _leaf(paddle, [-np.inf, np.inf, 0.0, 1.0, -2.0, np.nan], dtype="float64")
        (g,) = paddle.grad((x ** p).sum(), x, create_graph=True)
        (h,) = paddle.grad(g.sum(), x)
        out[str(p)] = [g, h]
    return out


@program(item="26")
def var_and_std_of_a_0d_tensor(paddle):
    out = {}
    for name in ("var", "std"):
        x = _leaf(paddle, 3.0, dtype="float64")
        y = getattr(paddle, name)(x, unbiased=True)
        (g,) = paddle.grad(y, x, create_graph=True)
        (h,) = paddle.grad(g, x)
        out[name] = [y, g, h.numpy()]
    return out


@program(item="26")
def cumsum_inplace_without_axis_flattens(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    r = x.cumsum_()
    return {"x": x, "same": r is x}


@program(item="26")
def assign_into_another_shape(paddle):
    dst = paddle.zeros([2, 3])
    r = paddle.assign(paddle.to_tensor([1.0, 2.0, 3.0]), dst)
    src = _leaf(paddle, [[1.0], [2.0]])
    out = paddle.assign(src, paddle.zeros([2, 3]))
    out.sum().backward()
    return {"dst": dst, "same": r is dst, "out": out, "src_grad": src.grad}


@program(item="26")
def grad_arguments_paddle_refuses(paddle):
    def run(case):
        x = _leaf(paddle, [1.0, 2.0])
        y = x * x
        if case == "only_inputs":
            return paddle.grad(y.sum(), x, only_inputs=False)
        if case == "dup_inputs":
            return paddle.grad(y.sum(), [x, x])
        if case == "dup_outputs":
            s = y.sum()
            return paddle.grad([s, s], [x])
        if case == "numpy_grad":
            return y.backward(np.ones(2, "float32"))
        if case == "numpy_grad_tensors":
            return paddle.autograd.backward([y], [np.ones(2, "float32")])
        if case == "grad_tensors_length":
            return paddle.autograd.backward([y, x * 3], [paddle.ones([2])])
        return paddle.grad([y], [x], grad_outputs=[paddle.ones([2]), paddle.ones([2])])

    cases = ("only_inputs", "dup_inputs", "dup_outputs", "numpy_grad", "numpy_grad_tensors",
             "grad_tensors_length", "grad_outputs_length")
    return {c: attempt(run, c) for c in cases}


@program(item="26", differs=(["creation"], "paddle.ones(..., stop_gradient=False) is accepted "
                                           "(the seed articles use it)"))
def creation_with_stop_gradient_keyword(paddle):
    return {"creation": attempt(lambda: paddle.ones([1], stop_gradient=False).stop_gradient),
            "to_tensor": paddle.to_tensor([1.0], stop_gradient=False).stop_gradient}


@program(item="26", differs=(["kind"], "Tensor.gradient() is an ndarray subclass that also has "
                                       "numpy() (the seed articles call it)"))
def gradient_is_an_ndarray(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    g = x.gradient()
    return {"is_ndarray": isinstance(g, np.ndarray), "kind": type(g).__name__, "value": g}


@program(item="26", differs=(["a_grad"], "a PyLayer's saved tensor written in place: Paddle's "
                                         "backward uses the new values (a wrong gradient), "
                                         "opsdk refuses"))
def pylayer_saved_tensor_written_in_place(paddle):
    class Square(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return 2 * x * dy

    a = _leaf(paddle, [1.0, 2.0])
    x = a * 1
    y = Square.apply(x)
    x.add_(paddle.ones([2]))

    def run():
        y.sum().backward()
        return a.grad
    return {"a_grad": attempt(run)}


@program(item="26", differs=(["shape"], "advanced indexing of size-0 tensors: Paddle's shapes "
                                        "are wrong there (and some such indexes crash it)"))
def advanced_index_of_a_size_0_tensor(paddle):
    t = paddle.zeros([0, 2])
    return {"shape": list(t[:, None, [0]].shape)}
