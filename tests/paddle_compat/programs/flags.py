"""stop_gradient, is_leaf, dtype and shape flags (item 5 and the ordinary rules around it)."""
import numpy as np

from ..harness import attempt
from . import program


def _flags(t):
    return {"stop_gradient": t.stop_gradient, "is_leaf": t.is_leaf,
            "dtype": str(t.dtype).split(".")[-1], "shape": list(t.shape)}


@program(item="5")
def int_tensor_keeps_stop_gradient_false(paddle):
    x = paddle.to_tensor([1, 2, 3], stop_gradient=False)
    return {"x": _flags(x)}


@program(item="5")
def int_tensor_set_stop_gradient_false(paddle):
    x = paddle.to_tensor([1, 2, 3])
    x.stop_gradient = False
    return {"x": _flags(x)}


@program(item="5")
def grad_of_leaf_reports_stop_gradient_false(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    return {"grad": _flags(x.grad), "value": x.grad}


@program(item="5")
def grad_create_graph_result_flags(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (g,) = paddle.grad((x * x * x).sum(), x, create_graph=True)
    return {"g": _flags(g), "value": g.numpy()}


@program(item="5")
def grad_without_create_graph_result_flags(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (g,) = paddle.grad((x * x).sum(), x)
    return {"g": _flags(g)}


@program(item="5")
def pylayer_output_cast_to_int_keeps_stop_gradient_false(paddle):
    class ToInt(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return paddle.cast(x, "int64")

        @staticmethod
        def backward(ctx, dy):
            return paddle.cast(dy, "float32")

    x = paddle.to_tensor([1.5, 2.5], stop_gradient=False)
    y = ToInt.apply(x)
    return {"y": _flags(y), "value": y.numpy()}


@program(item="5")
def cast_float_to_int_flags(paddle):
    x = paddle.to_tensor([1.5, 2.5], stop_gradient=False)
    y = paddle.cast(x, "int32")
    return {"y": _flags(y)}


@program(item="5")
def comparison_result_flags(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return {"gt": _flags(x > 1.5), "eq": _flags(x == 1.0)}


@program(item="5")
def argmax_result_flags(paddle):
    x = paddle.to_tensor([[1.0, 3.0], [4.0, 2.0]], stop_gradient=False)
    return {"a": _flags(paddle.argmax(x, axis=1))}


@program(item="flags")
def default_stop_gradient_flags(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0])
    b = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    c = a + b
    d = a * 2
    return {"a": _flags(a), "b": _flags(b), "c": _flags(c), "d": _flags(d)}


@program(item="flags")
def stop_gradient_settable_after_creation(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    before = x.stop_gradient
    x.stop_gradient = False
    return {"before": before, "after": x.stop_gradient, "leaf": x.is_leaf}


@program(item="flags")
def stop_gradient_true_blocks(paddle):
    a = paddle.to_tensor(2.0, stop_gradient=False)
    b = paddle.to_tensor(5.0, stop_gradient=True)
    c = a * b
    c.backward()
    return {"a_grad": a.grad, "b_grad": b.grad, "c": _flags(c)}


@program(item="flags")
def non_leaf_setting_stop_gradient_true_prunes(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.stop_gradient = True
    z = y * x
    z.sum().backward()
    return {"x_grad": x.grad, "y": _flags(y)}


@program(item="flags")
def intermediate_grad_is_none_without_retain(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.sum().backward()
    return {"y_grad": y.grad, "x_grad": x.grad}


@program(item="flags")
def retain_grads_keeps_intermediate(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    (y * y).sum().backward()
    return {"y_grad": y.grad, "x_grad": x.grad}


@program(item="flags")
def detach_flags_and_sharing(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 3
    d = y.detach()
    return {"d": _flags(d), "value": d}


@program(item="flags")
def clone_keeps_graph(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = x.clone()
    (c * c).sum().backward()
    return {"c": _flags(c), "x_grad": x.grad}


@program(item="flags")
def astype_keeps_graph(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x.astype("float64")
    (y * y).sum().backward()
    return {"y": _flags(y), "x_grad": x.grad}


@program(item="flags")
def python_float_defaults_float32_int_int64(paddle):
    return {"f": _flags(paddle.to_tensor(1.5)), "i": _flags(paddle.to_tensor(3)),
            "fl": _flags(paddle.to_tensor([1.0, 2.0])), "il": _flags(paddle.to_tensor([1, 2])),
            "b": _flags(paddle.to_tensor([True, False]))}


@program(item="flags")
def numpy_float64_input_keeps_float64(paddle):
    return {"x": _flags(paddle.to_tensor(np.array([1.0, 2.0])))}


@program(item="flags")
def scalar_tensor_shape_is_empty(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    s = x.sum()
    return {"s": _flags(s), "m": _flags(x.mean()), "item": s.item()}


@program(item="flags")
def parameter_flags(paddle):
    w = paddle.create_parameter([2, 3], "float32")
    return {"w": _flags(w), "trainable": w.trainable}


@program(item="flags")
def parameter_stop_gradient_true_is_not_trainable(paddle):
    w = paddle.create_parameter([2], "float32")
    w.stop_gradient = True
    return {"trainable": w.trainable, "w": _flags(w)}


@program(item="flags", differs=([""], "Paddle's CPU build has no float16 multiply kernel and "
                                     "raises; opsdk computes in float16"))
def float16_dtype_kept(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float16", stop_gradient=False)
    (x * x).sum().backward()
    return {"g": _flags(x.grad), "value": x.grad.astype("float32")}


@program(item="flags")
def backward_on_int_tensor_raises(paddle):
    x = paddle.to_tensor([1, 2, 3])
    return {"out": attempt(lambda: (x * 2).sum().backward())}


@program(item="flags")
def gradient_method_returns_numpy(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = x.gradient()
    (x * x).sum().backward()
    g = x.gradient()
    return {"before": before, "g": g, "ndarray": isinstance(g, np.ndarray)}


@program(item="flags")
def is_tensor_and_type(paddle):
    x = paddle.to_tensor([1.0])
    return {"is_tensor": paddle.is_tensor(x), "list": paddle.is_tensor([1.0]),
            "isinstance": isinstance(x, paddle.Tensor)}
