"""paddle.grad and backward: no_grad_vars (item 1), graph retention (item 2), allow_unused
(item 3), and the ordinary uses around them."""
import numpy as np

from ..harness import attempt
from . import program


def _leaf(paddle, values, dtype="float32"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


@program(item="1")
def grad_no_grad_vars_blocks_flow(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * x
    z = y * x
    (g,) = paddle.grad([z], [x], no_grad_vars=[y])
    return {"g": g}


@program(item="1")
def grad_no_grad_vars_single_tensor(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    a = x * 2.0
    b = a + x * x
    (g,) = paddle.grad(b.sum(), x, no_grad_vars=a)
    return {"g": g}


@program(item="1")
def grad_no_grad_vars_on_input_path_of_two(paddle):
    x = _leaf(paddle, [0.5, -1.0])
    w = _leaf(paddle, [2.0, 3.0])
    h = x * w
    out = (h * h + w).sum()
    gx, gw = paddle.grad(out, [x, w], no_grad_vars=[h], allow_unused=True)
    return {"gx": gx, "gw": gw}


@program(item="2")
def grad_twice_without_retain_graph(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = (x * x).sum()
    (g1,) = paddle.grad(y, x)
    second = attempt(lambda: paddle.grad(y, x)[0])
    return {"g1": g1, "second": second}


@program(item="2")
def grad_then_backward_without_retain_graph(paddle):
    x = _leaf(paddle, [1.0, 3.0])
    y = (x * x * x).sum()
    (g,) = paddle.grad(y, x)
    after = attempt(y.backward)
    return {"g": g, "after": after, "x_grad": x.grad}


@program(item="2")
def grad_retain_graph_false_frees(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = (x.exp()).sum()
    paddle.grad(y, x, retain_graph=False)
    return {"second": attempt(lambda: paddle.grad(y, x)[0])}


@program(item="2")
def backward_twice_raises(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    return {"second": attempt(y.backward), "grad": x.grad}


@program(item="2")
def backward_retain_graph_then_again(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = paddle.sum(x ** 2)
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    return {"first": first, "second": x.grad}


@program(item="2")
def grad_create_graph_keeps_graph(paddle):
    x = _leaf(paddle, [2.0])
    y = x ** 3
    (d1,) = paddle.grad(y, x, create_graph=True)
    (d2,) = paddle.grad(d1, x)
    again = attempt(lambda: paddle.grad(y, x)[0])
    return {"d1": d1, "d2": d2, "again": again}


@program(item="3")
def grad_allow_unused_stop_gradient_input(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    c = paddle.to_tensor([3.0, 4.0])
    y = (x * c).sum()
    out = paddle.grad(y, [x, c], allow_unused=True)
    return {"gx": out[0], "gc": out[1]}


@program(item="3")
def grad_stop_gradient_input_without_allow_unused(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    c = paddle.to_tensor([3.0, 4.0])
    y = (x * c).sum()
    return {"out": attempt(lambda: paddle.grad(y, [x, c]))}


@program(item="3")
def grad_allow_unused_unreached_input(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    u = _leaf(paddle, [5.0])
    y = (x * x).sum()
    gx, gu = paddle.grad(y, [x, u], allow_unused=True)
    return {"gx": gx, "gu": gu}


@program(item="3")
def grad_unused_input_raises(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    u = _leaf(paddle, [5.0])
    y = (x * x).sum()
    return {"out": attempt(lambda: paddle.grad(y, [x, u]))}


@program(item="grad")
def grad_leaves_dot_grad_alone(paddle):
    x = _leaf(paddle, [2.0])
    y = x * x + 3 * x
    dx = paddle.grad(outputs=[y], inputs=[x])[0]
    return {"dx": dx, "x_grad": x.grad}


@program(item="grad")
def grad_outputs_weights(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = x * x
    (g,) = paddle.grad(y, x, grad_outputs=paddle.to_tensor([1.0, 0.5, -1.0]))
    return {"g": g}


@program(item="grad")
def grad_multiple_outputs_sum(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y1 = (x * x).sum()
    y2 = (x * 3.0).sum()
    (g,) = paddle.grad([y1, y2], [x])
    return {"g": g}


@program(item="grad")
def grad_non_scalar_output_seeds_ones(paddle):
    x = _leaf(paddle, [[1.0, 2.0], [3.0, 4.0]])
    (g,) = paddle.grad(x * x, x)
    return {"g": g}


@program(item="grad")
def grad_third_order(paddle):
    x = _leaf(paddle, [1.5], "float64")
    y = x ** 4
    (d1,) = paddle.grad(y, x, create_graph=True)
    (d2,) = paddle.grad(d1, x, create_graph=True)
    (d3,) = paddle.grad(d2, x)
    return {"d1": d1, "d2": d2, "d3": d3}


@program(item="grad")
def grad_of_grad_mixed_partials(paddle):
    x = _leaf(paddle, [1.0, 2.0], "float64")
    w = _leaf(paddle, [3.0, -1.0], "float64")
    y = (x * x * w).sum()
    (gx,) = paddle.grad(y, x, create_graph=True)
    (gw,) = paddle.grad(gx.sum(), w)
    return {"gx": gx, "gw": gw}


@program(item="grad")
def backward_accumulates(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    paddle.sum(x ** 2).backward()
    first = x.grad.numpy().copy()
    paddle.sum(x ** 2).backward()
    return {"first": first, "second": x.grad}


@program(item="grad")
def backward_non_scalar_seeds_ones(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * x).backward()
    return {"g": x.grad}


@program(item="grad")
def backward_with_grad_tensor(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * 3.0
    y.backward(paddle.to_tensor([2.0, -1.0]))
    return {"g": x.grad}


@program(item="grad")
def autograd_backward_several_roots(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y1 = (x * x).sum()
    y2 = (x * 4.0).sum()
    paddle.autograd.backward([y1, y2])
    return {"g": x.grad}


@program(item="grad")
def autograd_backward_with_grad_tensors(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = x * x
    paddle.autograd.backward([y], [paddle.to_tensor([1.0, 10.0])])
    return {"g": x.grad}


@program(item="grad")
def grad_through_detach_is_cut(paddle):
    x = _leaf(paddle, [2.0])
    y = x * x
    z = y.detach()
    out = z * 3 + x
    out.backward()
    return {"x_grad": x.grad, "z": z}


@program(item="grad")
def grad_broadcast_reduces_to_input_shape(paddle):
    x = _leaf(paddle, [[1.0], [2.0]])
    b = _leaf(paddle, [1.0, 2.0, 3.0])
    (x * b).sum().backward()
    return {"x_grad": x.grad, "b_grad": b.grad}


@program(item="grad")
def grad_float64_kept(paddle):
    x = _leaf(paddle, [1.0, 2.0], "float64")
    (x.sin() * x).sum().backward()
    return {"g": x.grad}
