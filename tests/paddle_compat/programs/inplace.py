"""In-place ops: `x += 1` on a leaf (item 8), in-place variants, inplace_version, assign,
numpy() copies (item 4), version-counter errors."""
import numpy as np

from ..harness import attempt
from . import program

# docs/paddle.md, Engine: "x op= y" outside the graph
IADD_IN_PLACE = ("opsdk updates x in place for x op= y under no_grad or when nothing involved "
                 "needs a gradient (the seed programs' `w -= lr * w.grad` changes the parameter "
                 "itself); Paddle has no __iadd__ and rebinds x to a new tensor there too")


def _leaf(paddle, values):
    return paddle.to_tensor(np.asarray(values, dtype="float32"), stop_gradient=False)


@program(item="8")
def iadd_on_grad_leaf_rebinds_to_non_leaf(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    orig = x
    x += 1
    x.sum().backward()
    return {"x": x, "same_object": x is orig, "orig_grad": orig.grad}


@program(item="8")
def imul_on_grad_leaf_rebinds(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    orig = x
    x *= 3
    (x * x).sum().backward()
    return {"x": x, "orig_grad": orig.grad}


@program(item="8")
def add_inplace_method_on_grad_leaf_raises(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    return {"out": attempt(lambda: x.add_(paddle.to_tensor([1.0, 1.0])) and None), "x": x}


@program(item="8", differs=(["w.stop_gradient"], IADD_IN_PLACE))
def iadd_under_no_grad_updates_leaf(paddle):
    w = _leaf(paddle, [0.0])
    loss = (w - 3.0) ** 2
    loss.backward()
    with paddle.no_grad():
        w -= 0.1 * w.grad
    return {"w": w, "leaf": w.is_leaf}


@program(item="8")
def iadd_on_non_leaf_keeps_graph(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * 2
    y += 1
    (y * y).sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="8", differs=(["alias_sees.value"], IADD_IN_PLACE))
def iadd_on_constant(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    y = x
    x += 1
    return {"x": x, "alias_sees": y}


@program(item="inplace")
def inplace_variants_on_constant(paddle):
    out = {}
    for name, args in (("tanh_", ()), ("exp_", ()), ("scale_", (2.0,)), ("zero_", ()),
                       ("fill_", (7.0,)), ("clip_", (0.0, 1.5)), ("sqrt_", ()),
                       ("add_", "t"), ("subtract_", "t"), ("multiply_", "t")):
        x = paddle.to_tensor([0.5, 2.0])
        if args == "t":
            args = (paddle.to_tensor([1.0, 3.0]),)
        r = getattr(x, name)(*args)
        out[name] = {"x": x.numpy(), "returns_self": r is x}
    return out


@program(item="inplace")
def inplace_variant_in_graph_gradient(paddle):
    x = _leaf(paddle, [0.5, 1.0])
    y = x * 2
    y.tanh_()
    y.sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="inplace")
def inplace_scale_in_graph(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * x
    y.scale_(3.0)
    y.sum().backward()
    return {"x_grad": x.grad}


@program(item="inplace")
def inplace_exp_then_backward_uses_new_value(paddle):
    x = _leaf(paddle, [0.0, 1.0])
    y = x + 0
    y.exp_()
    (y * 2).sum().backward()
    return {"x_grad": x.grad}


@program(item="inplace")
def inplace_version_counts(paddle):
    x = paddle.to_tensor(np.ones((2, 3), dtype="float32"))
    v0 = x.inplace_version
    d1 = x.detach()
    x[0] = 1.5
    v1 = x.inplace_version
    d2 = x.detach()
    x[0] = 3
    return {"v0": v0, "v1": v1, "d1": d1.inplace_version, "d2": d2.inplace_version,
            "x": x.inplace_version}


@program(item="inplace")
def inplace_version_after_methods(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    x.add_(paddle.to_tensor([1.0, 1.0]))
    x.scale_(2.0)
    return {"v": x.inplace_version}


@program(item="inplace")
def modified_saved_tensor_raises_runtime_error(paddle):
    a = paddle.ones([4, 2, 3], dtype="float32")
    a.stop_gradient = False
    b = a ** 2
    c = b ** 2
    b.detach()[1:2] = 3.3
    d = b ** 2
    loss = paddle.nn.functional.relu(c + d)
    return {"out": attempt(lambda: loss.sum().backward())}


@program(item="inplace")
def setitem_on_leaf_needing_grad_raises(paddle):
    x = _leaf(paddle, [1.0, 2.0])

    def write():
        x[0] = 5.0
    return {"out": attempt(write)}


@program(item="inplace")
def setitem_on_non_leaf_gradient(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = x * 2
    y[1] = 0.0
    (y * y).sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="inplace")
def set_value_on_parameter(paddle):
    w = paddle.create_parameter([2], "float32")
    w.set_value(np.asarray([1.5, -2.0], dtype="float32"))
    return {"w": w}


@program(item="names")
def assign_copies_with_gradient(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = paddle.assign(x * 2)
    (y * y).sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="names")
def assign_numpy_and_output(paddle):
    out = paddle.zeros([2], dtype="float32")
    r = paddle.assign(np.asarray([3.0, 4.0], dtype="float32"), output=out)
    return {"r": r, "out": out, "same": r is out, "list": paddle.assign([1.0, 2.0])}


@program(item="4")
def numpy_returns_a_copy_before_set_value(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    snap = x.numpy()
    x.set_value(np.asarray([9.0, 9.0], dtype="float32"))
    return {"snap": snap, "x": x}


@program(item="4")
def numpy_snapshot_survives_optimizer_step(paddle):
    w = paddle.create_parameter([2], "float32",
                                default_initializer=paddle.nn.initializer.Constant(1.0))
    snap = w.numpy()
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    return {"snap": snap, "w": w}


@program(item="4")
def numpy_write_does_not_change_tensor(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    a = x.numpy()
    a[0] = 100.0
    return {"x": x}


@program(item="inplace")
def zero_and_fill_on_grad_leaf_raise(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    return {"zero": attempt(lambda: x.zero_() and None),
            "fill": attempt(lambda: x.fill_(1.0) and None)}


@program(item="inplace")
def inplace_under_no_grad_on_leaf(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    with paddle.no_grad():
        x.add_(paddle.to_tensor([1.0, 1.0]))
        x.scale_(2.0)
    return {"x": x, "leaf": x.is_leaf}
