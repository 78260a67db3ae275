"""Fresh material (issue 26's acceptance): 80 small programs written from Paddle's API docs and
the seed articles on autograd, without reading opsdk or the other program modules first. Each
is user code of the kind the docs show; weights are set explicitly so nothing depends on a
random stream."""
import os
import tempfile

import numpy as np

from ..harness import attempt
from . import program

ITEM = "fresh"


# --- autograd basics (the seed articles' examples) -------------------------------------------

@program(item=ITEM)
def fr_square_sum_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x ** 2
    loss = paddle.sum(y)
    loss.backward()
    return {"y": y, "loss": loss, "grad": x.grad, "x": x}


@program(item=ITEM)
def fr_stop_gradient_blocks(paddle):
    a = paddle.to_tensor(2.0, stop_gradient=False)
    b = paddle.to_tensor(5.0, stop_gradient=True)
    c = a * b
    c.backward()
    return {"ga": a.grad, "gb": b.grad, "c": c, "c_sg": c.stop_gradient}


@program(item=ITEM)
def fr_default_stop_gradient(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0])
    b = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    before = a.stop_gradient
    a.stop_gradient = False
    c = paddle.ones([2]) * paddle.zeros([2])
    return {"before": before, "after": a.stop_gradient, "b": b.stop_gradient,
            "c": c.stop_gradient, "ab": (a + b).stop_gradient}


@program(item=ITEM)
def fr_grad_accumulates(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.sum(x ** 2).backward()
    first = x.grad.numpy().copy()
    paddle.sum(x ** 2).backward()
    return {"first": first, "second": x.grad}


@program(item=ITEM)
def fr_clear_gradient_zero(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3).sum().backward()
    x.clear_gradient()
    after_default = x.grad
    (x * 3).sum().backward()
    x.clear_gradient(False)
    return {"after_default": after_default, "after_false": x.grad}


@program(item=ITEM, differs=(
        ["after", "grad2", "first"],
        ("docs/paddle.md, In place and views: under no_grad `w -= ...` updates w in "
         "place in opsdk; Paddle rebinds w to a new stop_gradient tensor")))
def fr_manual_sgd_no_grad(paddle):
    w = paddle.to_tensor([0.0], stop_gradient=False)
    first = w
    loss = (w - 3.0) ** 2
    loss.backward()
    with paddle.no_grad():
        w -= 0.1 * w.grad
    after = {"same": w is first, "w": w, "grad": w.grad, "first_grad": first.grad}
    ((w - 3.0) ** 2).backward()
    return {"after": after, "grad2": w.grad, "first": first}


@program(item=ITEM)
def fr_create_parameter_sgd(paddle):
    w = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    losses = []
    for _ in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss.numpy().item())
    return {"w": w, "losses": losses, "grad": w.grad, "sg": w.stop_gradient}


@program(item=ITEM)
def fr_linear_regression(paddle):
    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]], dtype="float32")
    y_true = paddle.to_tensor([[3.0], [5.0], [7.0], [9.0]], dtype="float32")
    w = paddle.create_parameter([1, 1], "float32",
                                default_initializer=paddle.nn.initializer.Constant(0.5))
    b = paddle.create_parameter([1], "float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=[w, b])
    for _ in range(100):
        loss = paddle.mean((paddle.matmul(x, w) + b - y_true) ** 2)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return {"w": w, "b": b, "loss": loss}


@program(item=ITEM)
def fr_paddle_grad_returns(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    grads = paddle.grad(outputs=[y], inputs=[x])
    return {"dx": grads[0], "x_grad": x.grad, "type": type(grads).__name__, "n": len(grads)}


@program(item=ITEM)
def fr_second_order_cube(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy_dx = paddle.grad(outputs=[y], inputs=[x], create_graph=True)[0]
    d2y_dx2 = paddle.grad(outputs=[dy_dx], inputs=[x])[0]
    return {"dy": dy_dx, "d2y": d2y_dx2, "x_grad": x.grad}


@program(item=ITEM)
def fr_no_grad_context(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    with paddle.no_grad():
        y = x * x
    z = x * x
    return {"y": y, "z_sg": z.stop_gradient, "enabled": paddle.is_grad_enabled()}


@program(item=ITEM)
def fr_detach_cuts_graph(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x
    z = y.detach()
    out = z * 3
    r = attempt(out.backward)
    return {"x_grad": x.grad, "y_sg": y.stop_gradient, "z_sg": z.stop_gradient,
            "out": out, "raised": r}


@program(item=ITEM)
def fr_detach_shares_values(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    d = y.detach()
    d[0] = 10.0
    return {"y": y, "d": d, "d_leaf": d.is_leaf}


@program(item=ITEM)
def fr_retain_graph_twice(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.sum(x ** 2)
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    return {"first": first, "second": x.grad}


@program(item=ITEM)
def fr_backward_twice_raises(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.sum(x * x)
    y.backward()
    r = attempt(y.backward)
    return {"raised": r, "grad": x.grad}


@program(item=ITEM)
def fr_nonscalar_backward(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x ** 2
    y.backward()
    return {"grad": x.grad}


@program(item=ITEM)
def fr_grad_outputs(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * x
    g = paddle.grad(y, x, grad_outputs=paddle.to_tensor([3.0, 4.0]))[0]
    return {"g": g}


@program(item=ITEM)
def fr_allow_unused(paddle):
    x = paddle.to_tensor([1.0], stop_gradient=False)
    z = paddle.to_tensor([5.0], stop_gradient=False)
    y = x * 4
    gs = paddle.grad([y], [x, z], retain_graph=True, allow_unused=True)
    r = attempt(paddle.grad, [y], [x, z])
    return {"gx": gs[0], "gz": gs[1], "raised": r}


@program(item=ITEM)
def fr_no_grad_vars(paddle):
    x = paddle.to_tensor([3.0], stop_gradient=False)
    h = x * 2
    y = h * h + x
    g = paddle.grad(y, x, no_grad_vars=[h])[0]
    return {"g": g}


@program(item=ITEM)
def fr_grad_sums_outputs(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y1 = x * 2
    y2 = x ** 3
    g = paddle.grad([y1, y2], [x])[0]
    return {"g": g, "g_sg": g.stop_gradient}


@program(item=ITEM)
def fr_mixed_second_order(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    f = paddle.sum(x * x * w)
    gx = paddle.grad(f, x, create_graph=True)[0]
    gxw = paddle.grad(paddle.sum(gx), w)[0]
    return {"gx": gx, "gxw": gxw, "gx_sg": gx.stop_gradient}


# --- hooks ------------------------------------------------------------------------------------

@program(item=ITEM)
def fr_hook_doc_example(paddle):
    x = paddle.to_tensor([0.0, 1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.to_tensor([4.0, 5.0, 6.0, 7.0], stop_gradient=False)
    z = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    x.register_hook(lambda g: g * 2)
    w = x + y
    w.register_hook(lambda g: g * 2)
    o = z.matmul(w)
    o.backward()
    return {"w_grad": w.grad, "x_grad": x.grad, "y_grad": y.grad, "o": o}


@program(item=ITEM)
def fr_hook_remove(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    h = x.register_hook(lambda g: g * 3)
    removed = h.remove()
    (x * x).sum().backward()
    return {"grad": x.grad, "removed": removed}


@program(item=ITEM)
def fr_hook_captures_intermediate(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    captured = []
    y = x * 2
    y.register_hook(lambda g: captured.append(g.numpy().copy()))
    (y ** 2).sum().backward()
    return {"captured": captured, "x_grad": x.grad, "y_grad": y.grad}


@program(item=ITEM)
def fr_hook_on_stop_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    r = attempt(x.register_hook, lambda g: g)
    return {"raised": r}


# --- PyLayer --------------------------------------------------------------------------------

@program(item=ITEM)
def fr_pylayer_tanh(paddle):
    class CusTanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    out = CusTanh.apply(x)
    out.mean().backward()
    return {"out": out, "grad": x.grad}


@program(item=ITEM)
def fr_pylayer_nontensor_arg(paddle):
    class CustomPow(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.save_for_backward(x)
            ctx.alpha = alpha
            return x ** alpha

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensor()
            return ctx.alpha * (x ** (ctx.alpha - 1)) * grad_output

    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = CustomPow.apply(x, 2.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item=ITEM)
def fr_pylayer_mark_non_differentiable(paddle):
    class Func(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x + x
            b = x + x + x
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            return 3 * grad_b

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a, b = Func.apply(x)
    b.sum().backward()
    return {"a": a, "b": b, "grad": x.grad}


@program(item=ITEM)
def fr_pylayer_materialize_false(paddle):
    class Func(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x + x + x, x + x

        @staticmethod
        def backward(ctx, grad, grad2):
            ctx.grad2_none = grad2 is None
            return grad

    x = paddle.to_tensor([1.0, 4.0], stop_gradient=False)
    y1, y2 = Func.apply(x)
    y1.sum().backward()
    return {"y1": y1, "y2": y2, "grad": x.grad}


# --- tensor creation, dtypes, shapes -----------------------------------------------------------

@program(item=ITEM)
def fr_to_tensor_dtypes(paddle):
    ts = [paddle.to_tensor(1), paddle.to_tensor(1.0), paddle.to_tensor([True, False]),
          paddle.to_tensor(np.array([1.0], dtype=np.float64)),
          paddle.to_tensor(np.array([1], dtype=np.int32)), paddle.to_tensor([1, 2.5])]
    return {"dtypes": [str(t.dtype) for t in ts], "shapes": [t.shape for t in ts],
            "tensors": ts}


@program(item=ITEM)
def fr_default_dtype(paddle):
    before = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    try:
        x = paddle.to_tensor(1.5)
        y = paddle.ones([2])
        z = paddle.to_tensor([1, 2])
    finally:
        paddle.set_default_dtype(before)
    return {"before": before, "x": x, "y": y, "z": z, "restored": paddle.get_default_dtype()}


@program(item=ITEM)
def fr_creation_funcs(paddle):
    return {"zeros": paddle.zeros([2, 3]), "ones_i": paddle.ones([2], dtype="int32"),
            "full": paddle.full([2], 7), "full_f": paddle.full([2], 7.0),
            "arange": paddle.arange(0, 5, 2), "arange_f": paddle.arange(0.0, 1.0, 0.25),
            "linspace": paddle.linspace(0, 1, 5), "eye": paddle.eye(2, 3),
            "like": paddle.full_like(paddle.zeros([2], dtype="int64"), 3)}


@program(item=ITEM)
def fr_shape_attributes(paddle):
    x = paddle.zeros([2, 3, 4])
    return {"shape": x.shape, "type": type(x.shape).__name__, "ndim": x.ndim,
            "size": x.size, "numel": paddle.numel(x), "len": len(x), "dim": x.dim()}


@program(item=ITEM)
def fr_cast_dtypes(paddle):
    x = paddle.to_tensor([1.5, -2.5], stop_gradient=False)
    i = x.astype("int32")
    h = paddle.cast(x, "float16")
    d = x.astype(paddle.float64)
    d.sum().backward()
    return {"i": i, "h": h, "d": d, "dtypes": [str(t.dtype) for t in (i, h, d)],
            "grad": x.grad}


@program(item=ITEM)
def fr_zero_dim(paddle):
    s = paddle.to_tensor(3.0)
    v = paddle.to_tensor([1.0, 2.0]).sum()
    return {"s_shape": s.shape, "v_shape": v.shape, "item": v.item(), "float": float(s),
            "int": int(paddle.to_tensor(7)), "ndim": s.ndim}


@program(item=ITEM)
def fr_dtype_promotion(paddle):
    i = paddle.to_tensor([1, 2])
    f = paddle.to_tensor([1.0, 2.0])
    d = paddle.to_tensor([1.0, 2.0], dtype="float64")
    return {"i_plus_float": i + 2.5, "i_times_int": i * 3, "f_plus_d": attempt(lambda: f + d),
            "i_div": i / 2, "i_plus_f": attempt(lambda: i + f),
            "i32_i64": attempt(lambda: i.astype("int32") + i)}


# --- indexing and in-place --------------------------------------------------------------------

@program(item=ITEM)
def fr_slice_grad(paddle):
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    x.stop_gradient = False
    y = x[1:, ::2]
    y.sum().backward()
    return {"y": y, "grad": x.grad, "row": x[-1], "elem": x[0, 1]}


@program(item=ITEM)
def fr_bool_mask_grad(paddle):
    x = paddle.to_tensor([1.0, 3.0, 2.0, 5.0], stop_gradient=False)
    sel = x[x > 2]
    (sel * sel).sum().backward()
    return {"sel": sel, "grad": x.grad}


@program(item=ITEM)
def fr_setitem_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 1
    y[0] = 0.0
    (y * y).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item=ITEM)
def fr_inplace_leaf_raises(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    r = attempt(x.add_, paddle.to_tensor([1.0, 1.0]))
    return {"raised": r, "x": x}


@program(item=ITEM)
def fr_inplace_version_check(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    z = y ** 2
    y.add_(paddle.to_tensor([1.0, 1.0]))
    r = attempt(z.sum().backward)
    return {"raised": r, "y": y}


@program(item=ITEM)
def fr_inplace_leaf_no_grad(paddle):
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.no_grad():
        w.add_(paddle.to_tensor([0.5, 0.5]))
        w.scale_(2.0)
    (w * w).sum().backward()
    return {"w": w, "grad": w.grad}


@program(item=ITEM)
def fr_inplace_nonleaf_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 3
    y.scale_(2.0)
    y.exp_()
    y.sum().backward()
    return {"y": y, "grad": x.grad, "y_leaf": y.is_leaf}


@program(item=ITEM)
def fr_gather_dup_grad(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
    idx = paddle.to_tensor([2, 0, 2])
    out = paddle.gather(x, idx)
    out.sum().backward()
    return {"out": out, "grad": x.grad, "axis1": paddle.gather(x, paddle.to_tensor([1]), axis=1)}


@program(item=ITEM)
def fr_where_grad(paddle):
    x = paddle.to_tensor([-1.0, 2.0, -3.0, 4.0], stop_gradient=False)
    y = paddle.to_tensor([10.0, 20.0, 30.0, 40.0], stop_gradient=False)
    out = paddle.where(x > 0, x, y)
    (out * out).sum().backward()
    return {"out": out, "gx": x.grad, "gy": y.grad,
            "nonzero": paddle.where(paddle.to_tensor([0, 3, 0, 5]) > 0)}


@program(item=ITEM)
def fr_concat_split_grad(paddle):
    a = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    b = paddle.to_tensor([[3.0, 4.0]], stop_gradient=False)
    c = paddle.concat([a, b], axis=0)
    p, q = paddle.split(c, 2, axis=1)
    (p * 2 + q * 3).sum().backward()
    s = paddle.stack([a, b], axis=1)
    return {"c": c, "p": p, "ga": a.grad, "gb": b.grad, "stack_shape": s.shape}


# --- maths and reductions ---------------------------------------------------------------------

@program(item=ITEM)
def fr_reductions_dtypes(paddle):
    x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
    b = paddle.to_tensor([True, False, True])
    f = x.astype("float32")
    return {"sum_i32": x.sum(), "sum_bool": b.sum(), "mean": f.mean(axis=0),
            "max_keep": f.max(axis=1, keepdim=True), "prod": x.prod(), "min": x.min(),
            "any": b.any(), "all": b.all()}


@program(item=ITEM)
def fr_max_ties_grad(paddle):
    x = paddle.to_tensor([1.0, 3.0, 3.0, 2.0], stop_gradient=False)
    m = paddle.max(x)
    m.backward()
    y = paddle.to_tensor([[1.0, 5.0], [5.0, 2.0]], stop_gradient=False)
    paddle.amax(y).backward()
    return {"m": m, "grad": x.grad, "amax_grad": y.grad}


@program(item=ITEM)
def fr_softmax_logsumexp_grad(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    s = paddle.nn.functional.softmax(x, axis=-1)
    w = paddle.to_tensor([[1.0, 0.0, -1.0]])
    (s * w).sum().backward()
    g1 = x.grad.numpy().copy()
    x.clear_gradient()
    paddle.logsumexp(x).backward()
    return {"s": s, "g_softmax": g1, "g_lse": x.grad}


@program(item=ITEM)
def fr_matmul_transpose_grad(paddle):
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    b = paddle.to_tensor([[5.0, 6.0], [7.0, 8.0], [9.0, 10.0]], stop_gradient=False)
    c = paddle.matmul(a, b, transpose_y=True)
    c.sum().backward()
    return {"c": c, "ga": a.grad, "gb": b.grad, "at_b": (a @ a).shape}


@program(item=ITEM)
def fr_special_point_grads(paddle):
    x = paddle.to_tensor([0.0, 4.0, -2.0], stop_gradient=False)
    y = paddle.abs(x) + paddle.sqrt(paddle.abs(x) + 1.0) + paddle.nn.functional.relu(x)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item=ITEM)
def fr_clip_boundary_grad(paddle):
    x = paddle.to_tensor([-1.0, 0.0, 0.5, 1.0, 2.0], stop_gradient=False)
    y = paddle.clip(x, min=0.0, max=1.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item=ITEM)
def fr_integer_div_mod(paddle):
    a = paddle.to_tensor([7, -7, 7, -7])
    b = paddle.to_tensor([2, 2, -2, -2])
    return {"floordiv": a // b, "mod": a % b, "remainder": paddle.remainder(a, b),
            "floor_divide": paddle.floor_divide(a, b), "truediv": a / b,
            "by_zero": attempt(lambda: paddle.floor_divide(a, paddle.zeros_like(a)))}


@program(item=ITEM)
def fr_argmax_topk_sort(paddle):
    x = paddle.to_tensor([[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]])
    v, i = paddle.topk(x, k=2)
    sv = paddle.sort(x, axis=1, descending=True)
    return {"argmax": paddle.argmax(x, axis=1), "argmax_all": paddle.argmax(x),
            "v": v, "i": i, "sorted": sv, "argsort": paddle.argsort(x, axis=1)}


# --- nn layers --------------------------------------------------------------------------------

@program(item=ITEM)
def fr_linear_layer_grads(paddle):
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(paddle.to_tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    lin.bias.set_value(paddle.to_tensor([0.5, -0.5]))
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
    out = lin(x)
    out.sum().backward()
    return {"out": out, "w_shape": lin.weight.shape, "gw": lin.weight.grad, "gb": lin.bias.grad,
            "w_sg": lin.weight.stop_gradient, "w_leaf": lin.weight.is_leaf}


@program(item=ITEM)
def fr_conv2d_layer(paddle):
    conv = paddle.nn.Conv2D(1, 2, 3, padding=1,
                            weight_attr=paddle.nn.initializer.Constant(1.0),
                            bias_attr=paddle.nn.initializer.Constant(0.5))
    x = paddle.arange(16, dtype="float32").reshape([1, 1, 4, 4])
    x.stop_gradient = False
    y = conv(x)
    y.sum().backward()
    return {"y": y, "w_shape": conv.weight.shape, "gx": x.grad, "gb": conv.bias.grad}


@program(item=ITEM)
def fr_batchnorm_train_eval(paddle):
    bn = paddle.nn.BatchNorm1D(2)
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]])
    y_train = bn(x)
    rm, rv = bn._mean.numpy().copy(), bn._variance.numpy().copy()
    bn.eval()
    y_eval = bn(x)
    return {"train": y_train, "rm": rm, "rv": rv, "eval": y_eval, "training": bn.training}


@program(item=ITEM)
def fr_dropout_modes(paddle):
    drop = paddle.nn.Dropout(p=0.5)
    drop.eval()
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    f = paddle.nn.functional.dropout(x, p=0.9, training=False)
    d0 = paddle.nn.Dropout(p=0.0)
    return {"eval": drop(x), "functional": f, "p0_train": d0(x),
            "bad_p": attempt(paddle.nn.Dropout, p=1.5)}


@program(item=ITEM)
def fr_embedding_padding_idx(paddle):
    emb = paddle.nn.Embedding(5, 3, padding_idx=0)
    emb.weight.set_value(paddle.arange(15, dtype="float32").reshape([5, 3]))
    ids = paddle.to_tensor([[0, 2, 2], [4, 0, 1]])
    e = emb(ids)
    e.sum().backward()
    return {"e": e, "grad": emb.weight.grad, "e_shape": e.shape}


@program(item=ITEM)
def fr_layernorm_grads(paddle):
    ln = paddle.nn.LayerNorm(4)
    x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 6.0]], stop_gradient=False)
    y = ln(x)
    (y * paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    return {"y": y, "gx": x.grad, "gw": ln.weight.grad, "gb": ln.bias.grad}


@program(item=ITEM)
def fr_sequential_structure(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 1))
    names = [n for n, _ in net.named_parameters()]
    shapes = [p.shape for p in net.parameters()]
    net.eval()
    return {"names": names, "shapes": shapes, "keys": list(net.state_dict().keys()),
            "n_sub": len(net.sublayers()), "training": net.training,
            "child_training": net[0].training}


# --- losses -----------------------------------------------------------------------------------

@program(item=ITEM)
def fr_cross_entropy_hard(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], stop_gradient=False)
    label = paddle.to_tensor([0, 1])
    loss = F.cross_entropy(logits, label)
    loss.backward()
    l2 = F.cross_entropy(logits, label.unsqueeze(1), reduction="none")
    return {"loss": loss, "grad": logits.grad, "none": l2}


@program(item=ITEM)
def fr_cross_entropy_ignore_soft(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.0, 1.0, 1.0]])
    ign = F.cross_entropy(logits, paddle.to_tensor([0, -100, 2]))
    soft = F.cross_entropy(logits, paddle.to_tensor([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0],
                                                     [0.2, 0.3, 0.5]]), soft_label=True)
    smooth = F.cross_entropy(logits, paddle.to_tensor([0, 1, 2]), label_smoothing=0.1)
    return {"ignore": ign, "soft": soft, "smooth": smooth}


@program(item=ITEM)
def fr_regression_losses(paddle):
    F = paddle.nn.functional
    p = paddle.to_tensor([1.0, 2.0, 5.0], stop_gradient=False)
    t = paddle.to_tensor([1.5, 2.0, 2.0])
    loss = F.mse_loss(p, t) + F.l1_loss(p, t, reduction="sum") + F.smooth_l1_loss(p, t)
    loss.backward()
    return {"mse": F.mse_loss(p, t), "l1": F.l1_loss(p, t), "smooth": F.smooth_l1_loss(p, t),
            "grad": p.grad}


@program(item=ITEM)
def fr_bce_losses(paddle):
    F = paddle.nn.functional
    z = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([1.0, 0.0, 1.0])
    l1 = F.binary_cross_entropy_with_logits(z, y, pos_weight=paddle.to_tensor([2.0, 2.0, 2.0]))
    l1.backward()
    l2 = F.binary_cross_entropy(F.sigmoid(z), y, reduction="sum")
    return {"l1": l1, "grad": z.grad, "l2": l2}


# --- optimizers and schedulers ------------------------------------------------------------------

def _param(paddle, values):
    p = paddle.create_parameter([len(values)], "float32",
                                default_initializer=paddle.nn.initializer.Assign(values))
    return p


@program(item=ITEM)
def fr_adam_three_steps(paddle):
    w = _param(paddle, [1.0, -2.0])
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w])
    for _ in range(3):
        (w * w).sum().backward()
        opt.step()
        opt.clear_grad()
    return {"w": w, "lr": opt.get_lr(), "grad": w.grad}


@program(item=ITEM)
def fr_adamw_weight_decay(paddle):
    w = _param(paddle, [1.0, -2.0])
    v = _param(paddle, [3.0])
    opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[w, v], weight_decay=0.1)
    for _ in range(2):
        ((w * w).sum() + v.sum()).backward()
        opt.step()
        opt.clear_grad()
    return {"w": w, "v": v}


@program(item=ITEM)
def fr_momentum_nesterov(paddle):
    w = _param(paddle, [1.0, 2.0])
    u = _param(paddle, [1.0, 2.0])
    o1 = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[w])
    o2 = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[u],
                                   use_nesterov=True)
    for _ in range(3):
        ((w * w).sum() + (u * u).sum()).backward()
        o1.step()
        o2.step()
        o1.clear_grad()
        o2.clear_grad()
    return {"w": w, "u": u}


@program(item=ITEM)
def fr_sgd_weight_decay(paddle):
    w = _param(paddle, [1.0, -1.0])
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w], weight_decay=0.1)
    (w * 2).sum().backward()
    opt.step()
    return {"w": w}


@program(item=ITEM)
def fr_step_decay(paddle):
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
    w = _param(paddle, [1.0])
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[w])
    lrs = []
    for _ in range(5):
        w.sum().backward()
        opt.step()
        opt.clear_grad()
        lrs.append(opt.get_lr())
        sched.step()
    return {"lrs": lrs, "w": w, "last_epoch": sched.last_epoch}


@program(item=ITEM)
def fr_warmup_cosine(paddle):
    cos = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.1, T_max=4)
    sched = paddle.optimizer.lr.LinearWarmup(cos, warmup_steps=2, start_lr=0.0, end_lr=0.1)
    lrs = []
    for _ in range(7):
        lrs.append(sched())
        sched.step()
    return {"lrs": lrs, "last_lr": sched.last_lr}


@program(item=ITEM)
def fr_clip_global_norm_opt(paddle):
    w = _param(paddle, [0.0, 0.0])
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=[w], grad_clip=clip)
    (w * paddle.to_tensor([3.0, 4.0])).sum().backward()
    opt.step()
    return {"w": w, "grad": w.grad}


@program(item=ITEM)
def fr_clip_grad_norm_util(paddle):
    a = _param(paddle, [0.0, 0.0])
    b = _param(paddle, [0.0])
    (a * paddle.to_tensor([3.0, 0.0])).sum().backward()
    (b * 4.0).sum().backward()
    total = paddle.nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    return {"total": total, "ga": a.grad, "gb": b.grad}


# --- amp --------------------------------------------------------------------------------------

@program(item=ITEM, differs=(
        ["y", "y_dtype"],
        ("docs/paddle.md, AMP: opsdk keeps auto_cast on on the CPU (matmul in float16); "
         "Paddle's CPU build turns it off")))
def fr_auto_cast_cpu(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    with paddle.amp.auto_cast():
        y = paddle.matmul(x, x)
        z = x + 1
    return {"y": y, "z": z, "y_dtype": str(y.dtype)}


@program(item=ITEM, differs=(
        ["scaled", "g", "scale"],
        ("docs/paddle.md, AMP: opsdk keeps GradScaler on on the CPU; Paddle's CPU build "
         "turns it off (scale 1)")))
def fr_grad_scaler(paddle):
    w = _param(paddle, [1.0, 2.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    loss = (w * w).sum()
    scaled = scaler.scale(loss)
    scaled.backward()
    g = w.grad.numpy().copy()
    scaler.step(opt)
    scaler.update()
    return {"scaled": scaled, "g": g, "w": w, "scale": scaler.get_init_loss_scaling()}


# --- save / load --------------------------------------------------------------------------------

@program(item=ITEM)
def fr_save_load_layer(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.pdparams")
        paddle.save(lin.state_dict(), path)
        loaded = paddle.load(path)
    other = paddle.nn.Linear(2, 2)
    other.set_state_dict(loaded)
    return {"keys": sorted(loaded.keys()), "w": other.weight, "b": other.bias,
            "loaded_w": loaded["weight"]}


@program(item=ITEM)
def fr_save_load_tensor_and_dict(paddle):
    t = paddle.to_tensor([1, 2, 3], dtype="int32")
    with tempfile.TemporaryDirectory() as d:
        paddle.save({"t": t, "n": 5, "s": "x"}, os.path.join(d, "obj.pd"))
        obj = paddle.load(os.path.join(d, "obj.pd"))
        r = attempt(paddle.load, os.path.join(d, "missing.pd"))
    return {"t": obj["t"], "n": obj["n"], "s": obj["s"], "missing": r}


@program(item=ITEM)
def fr_save_load_optimizer(paddle):
    w = _param(paddle, [1.0])
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    sched.step()
    with tempfile.TemporaryDirectory() as d:
        paddle.save(opt.state_dict(), os.path.join(d, "opt.pdopt"))
        sd = paddle.load(os.path.join(d, "opt.pdopt"))
    return {"has_sched": "LR_Scheduler" in sd, "sched": sd.get("LR_Scheduler"),
            "n_keys": len(sd)}


# --- error cases --------------------------------------------------------------------------------

@program(item=ITEM)
def fr_shape_errors(paddle):
    a = paddle.ones([2, 3])
    return {"matmul": attempt(paddle.matmul, a, a),
            "reshape": attempt(paddle.reshape, a, [4, 2]),
            "add": attempt(lambda: a + paddle.ones([4])),
            "concat": attempt(paddle.concat, [a, paddle.ones([2, 2])], axis=0)}


@program(item=ITEM)
def fr_misc_errors(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return {"index": attempt(lambda: x[5]), "bad_dtype": attempt(paddle.to_tensor, [1], "foo"),
            "grad_sg": attempt(paddle.grad, x * 2, x),
            "item_multi": attempt(x.item)}
