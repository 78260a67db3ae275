"""Fresh differential programs (batch 1208): the Tensor API as a user meets it in Paddle 3.3.1's
documentation and in the seed articles on autograd: Tensor methods and properties, operator
overloading and result dtypes, indexing and setitem with gradients, creation functions,
reductions, elementwise maths, higher-order gradients, manipulation with gradients, no_grad
and detach; written without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program
from .inplace import IADD_IN_PLACE

GRADIENT_ARRAY = ("docs/paddle.md, Engine: Tensor.gradient() is an ndarray subclass that also has "
                  "numpy(), as the seed articles call w.gradient().numpy(); Paddle's is a plain "
                  "ndarray")


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _a(shape, start=0.0, step=0.25):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape)


# ---------------------------------------------------------------- the seed articles


@program(item="fresh")
def f8_seed_square_sum_backward(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x ** 2
    loss = paddle.sum(y)
    loss.backward()
    return {"y": y, "loss": loss, "grad": x.grad, "loss_shape": loss.shape}


@program(item="fresh")
def f8_seed_two_inputs_and_sum_vs_mean(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
    z = x ** 2 + 4 * y
    paddle.sum(z).backward()
    x2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.mean(x2 ** 2).backward()
    return {"gx": x.grad, "gy": y.grad, "mean_grad": x2.grad}


@program(item="fresh", differs=(["gradient_type"], GRADIENT_ARRAY))
def f8_seed_nonscalar_one_element_backward(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    y.backward()
    w = paddle.to_tensor([2.0], stop_gradient=False)
    xx = paddle.to_tensor([3.0])
    loss = (w * xx) ** 2
    loss.backward()
    return {"gx": x.grad, "gw": w.grad, "gradient": w.gradient(),
            "gradient_type": type(w.gradient()).__name__}


@program(item="fresh")
def f8_seed_stop_gradient_blocks(paddle):
    a = paddle.to_tensor(2.0, stop_gradient=False)
    b = paddle.to_tensor(5.0, stop_gradient=True)
    c = a * b
    c.backward()
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    before = x.stop_gradient
    x.stop_gradient = False
    return {"ga": a.grad, "gb": b.grad, "c": c, "before": before, "after": x.stop_gradient}


@program(item="fresh")
def f8_seed_accumulate_and_clear_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.sum(x ** 2).backward()
    first = x.grad.numpy().copy()
    paddle.sum(x ** 2).backward()
    second = x.grad.numpy().copy()
    x.clear_gradient()
    cleared = x.grad
    return {"first": first, "second": second, "cleared": cleared}


@program(item="fresh", differs=(["second", "steps", "w"], IADD_IN_PLACE))
def f8_seed_manual_gradient_descent(paddle):
    # the article's loop as written: `w -= ...` under no_grad rebinds w, so step 2 finds no grad
    w = paddle.to_tensor([0.0], stop_gradient=False)
    lr = 0.1
    steps = []

    def step():
        nonlocal w
        loss = (w - 3.0) ** 2
        loss.backward()
        with paddle.no_grad():
            w -= lr * w.grad
        steps.append([float(loss.numpy()[0]), w.stop_gradient, w.is_leaf])
        w.clear_gradient()

    first = attempt(step)
    second = attempt(step)
    v = paddle.to_tensor([0.0], stop_gradient=False)
    for _ in range(10):
        loss = (v - 3.0) ** 2
        loss.backward()
        with paddle.no_grad():
            v.set_value(v - lr * v.grad)
        v.clear_gradient()
    return {"first": first, "second": second, "steps": steps, "w": w, "v": v,
            "v_grad": v.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f8_seed_create_parameter_sgd(paddle):
    w = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    losses = []
    for _ in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()[0]))
    return {"w": w, "losses": losses, "trainable": w.trainable, "sg": w.stop_gradient}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f8_seed_linear_regression(paddle):
    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]], dtype="float32")
    y_true = paddle.to_tensor([[3.0], [5.0], [7.0], [9.0]], dtype="float32")
    w = paddle.create_parameter(shape=[1, 1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.5))
    b = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=[w, b])
    history = {}
    step = 0
    while step < 60:
        pred = x @ w + b
        loss = ((pred - y_true) ** 2).mean()
        opt.clear_grad()
        loss.backward()
        opt.step()
        if step % 15 == 0:
            history[str(step)] = loss.item()
        step += 1
    return {"w": w, "b": b, "history": history}


@program(item="fresh")
def f8_seed_paddle_grad_and_second_order(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x + 3 * x
    dx = paddle.grad(outputs=[y], inputs=[x])
    x3 = paddle.to_tensor([2.0], stop_gradient=False)
    y3 = x3 ** 3
    d1 = paddle.grad(outputs=[y3], inputs=[x3], create_graph=True)[0]
    d2 = paddle.grad(outputs=[d1], inputs=[x3])[0]
    return {"dx_type": type(dx).__name__, "dx": dx[0], "x_grad": x.grad, "d1": d1, "d2": d2}


@program(item="fresh")
def f8_seed_no_grad_and_detach(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    with paddle.no_grad():
        y = x * x
    x2 = paddle.to_tensor([2.0], stop_gradient=False)
    y2 = x2 * x2
    z = y2.detach()
    out = z * 3
    out_bw = attempt(out.backward)
    return {"y": y, "y2": y2, "z": z, "out": out, "out_bw": out_bw, "x2_grad": x2.grad}


@program(item="fresh")
def f8_seed_retain_graph(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.sum(x ** 2)
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    return {"first": first, "second": x.grad}


@program(item="fresh")
def f8_seed_pylayer_power(paddle):
    # the article's CustomOp, varied: the exponent rides on ctx, a second output is x * alpha
    class PowAndScale(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.save_for_backward(x)
            ctx.alpha = alpha
            return x ** alpha, x * alpha

        @staticmethod
        def backward(ctx, g_pow, g_scale):
            (x,) = ctx.saved_tensor()
            a = ctx.alpha
            return a * x ** (a - 1) * g_pow + a * g_scale

    x = _t(paddle, [1.0, 2.0, 3.0])
    y, s = PowAndScale.apply(x, 3.0)
    (y.sum() + (s * s).sum()).backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f8_tensor_properties(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    y = x * 2
    return {"shape": x.shape, "ndim": x.ndim, "size": x.size, "dtype": str(x.dtype),
            "sg": [x.stop_gradient, y.stop_gradient], "leaf": [x.is_leaf, y.is_leaf],
            "grad": x.grad, "name_is_str": isinstance(x.name, str), "len": len(x),
            "dim": x.dim(), "numel": x.numel(), "cpu": x.place.is_cpu_place(),
            "shape_type": type(x.shape).__name__}


@program(item="fresh")
def f8_tensor_T_and_mT(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    t = x.T
    mt = x.mT
    m = _t(paddle, _a([2, 3]), grad=False)
    w = _t(paddle, _a([4, 3, 2], 1.0, 0.1), grad=False)
    loss = (t * w).sum() + (mt ** 2).sum() + (m.T * 1.0).sum()
    loss.backward()
    return {"t_shape": t.shape, "mt_shape": mt.shape, "mT2": m.mT, "grad": x.grad}


@program(item="fresh")
def f8_item_tolist_numpy(paddle):
    s = paddle.to_tensor(3.5, dtype="float64")
    v = paddle.to_tensor([[1, 2], [3, 4]])
    b = paddle.to_tensor([True, False])
    return {"item": s.item(), "item_type": type(s.item()).__name__,
            "int_item": v[1, 0].item(), "int_item_type": type(v[1, 0].item()).__name__,
            "item_idx": attempt(lambda: v.item(1, 1)),
            "tolist": v.tolist(), "btolist": b.tolist(), "np_dtype": str(v.numpy().dtype),
            "float": float(s), "int": int(v[0, 1]), "bool": bool(b[0]),
            "multi_item": attempt(v.item)}


@program(item="fresh")
def f8_astype_clone_detach_cpu(paddle):
    x = _t(paddle, [1.5, -2.0, 3.0])
    f32 = x.astype("float32")
    i = x.astype(paddle.int32)
    c = x.clone()
    d = x.detach()
    cp = x.cpu()
    loss = (f32 * 2).sum() + (c ** 2).sum() + cp.sum()
    loss.backward()
    return {"f32": f32, "i": i, "c": c, "d": d, "cp_sg": cp.stop_gradient,
            "grad": x.grad, "c_leaf": c.is_leaf}


@program(item="fresh")
def f8_register_hook_scales_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return g * 2

    h = y.register_hook(hook)
    y.sum().backward()
    first = x.grad.numpy().copy()
    h.remove()
    x.clear_grad()
    z = x * x
    z.sum().backward()
    return {"seen": seen, "first": first, "after_remove": x.grad}


@program(item="fresh")
def f8_backward_with_grad_tensor(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x ** 2
    y.backward(grad_tensor=_t(paddle, [1.0, 0.5, -1.0], grad=False))
    x2 = _t(paddle, [1.0, 2.0])
    y2 = x2 * 3
    y2.backward()
    return {"grad": x.grad, "implicit_ones": x2.grad}


@program(item="fresh")
def f8_clear_grad_zero_fill(paddle):
    x = _t(paddle, [1.0, 2.0])
    (x * x).sum().backward()
    x.clear_grad()
    after_clear = x.grad
    y = _t(paddle, _a([2, 2], 1.0), grad=False)
    y.zero_()
    zero = y.numpy().copy()
    y.fill_(2.5)
    return {"after_clear": after_clear, "zero": zero, "filled": y}


@program(item="fresh")
def f8_set_value_and_copy(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0], grad=False)
    x.set_value(np.array([4.0, 5.0, 6.0]))
    y = _t(paddle, [0.0, 0.0, 0.0], grad=False)
    res = attempt(lambda: y.copy_(x))
    bad = attempt(lambda: x.set_value(np.zeros([2])))
    return {"x": x, "y": y, "bad": bad, "copy_ret_is_tensor": hasattr(res, "numpy")}


# ---------------------------------------------------------------- operators


@program(item="fresh")
def f8_operator_arithmetic_grads(paddle):
    x = _t(paddle, [1.5, 2.0, 3.5])
    y = _t(paddle, [0.5, 4.0, 1.0])
    r = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "pow": x ** y,
         "floordiv": x // y, "mod": x % y}
    loss = (x + y).sum() + (x - y).sum() * 2 + (x * y).sum() + (x / y).sum() + (x ** y).sum()
    loss.backward()
    r.update(gx=x.grad, gy=y.grad)
    return r


@program(item="fresh")
def f8_reflected_scalar_ops(paddle):
    x = _t(paddle, [1.0, 2.0, 4.0])
    a, b, c, d = 2 - x, 3 / x, 2 ** x, 1 + x
    (a * 1.0 + b + c + d * 5).sum().backward()
    return {"a": a, "b": b, "c": c, "d": d, "grad": x.grad, "neg": -x, "pos": +x}


@program(item="fresh")
def f8_int_float_bool_result_dtypes(paddle):
    i = paddle.to_tensor([1, 2, 3])
    f = paddle.to_tensor([0.5, 1.5, 2.5])
    d = paddle.to_tensor([0.5, 1.5, 2.5], dtype="float64")
    b = paddle.to_tensor([True, False, True])
    i32 = paddle.to_tensor([4, 5, 6], dtype="int32")
    cases = {"i+1": lambda: i + 1, "i+1.5": lambda: i + 1.5, "i*2.0": lambda: i * 2.0,
             "i/2": lambda: i / 2, "i/i": lambda: i / i, "i//2": lambda: i // 2,
             "i**2": lambda: i ** 2, "i+f": lambda: i + f, "f+d": lambda: f + d,
             "b+i": lambda: b + i, "b*1.5": lambda: b * 1.5, "i32+i": lambda: i32 + i,
             "f*2": lambda: f * 2, "d*True": lambda: d * True, "i%2": lambda: i % 2}
    out = {}
    for k, fn in cases.items():
        v = attempt(fn)
        out[k] = v if not hasattr(v, "numpy") else [str(v.dtype), v.numpy()]
    return out


@program(item="fresh")
def f8_numpy_scalar_ops(paddle):
    x = _t(paddle, [1.0, 2.0], dtype="float32")
    a = x * np.float64(2.0)
    b = x + np.int64(3)
    c = x * np.float32(0.5)
    d = x ** np.int32(2)
    (a + b + c + d).sum().backward()
    return {"a": a, "b": b, "c": c, "d": d, "grad": x.grad,
            "types": [type(v).__name__ for v in (a, b, c, d)]}


@program(item="fresh")
def f8_comparisons_and_logical_ops(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = _t(paddle, [3.0, 2.0, 1.0])
    eq, ne, lt, le, gt, ge = x == y, x != y, x < y, x <= y, x > y, x >= 2
    b1 = paddle.to_tensor([True, False, True])
    b2 = paddle.to_tensor([True, True, False])
    return {"eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge,
            "not": ~b1, "and": b1 & b2, "or": b1 | b2, "xor": b1 ^ b2,
            "int_invert": ~paddle.to_tensor([0, 5, -2]),
            "scalar_cmp": 2.0 < x}


@program(item="fresh")
def f8_unary_neg_abs_grad(paddle):
    x = _t(paddle, [-2.0, 0.5, 3.0])
    a = abs(x)
    n = -x
    (a * paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64") + n * n).sum().backward()
    return {"a": a, "n": n, "grad": x.grad}


@program(item="fresh")
def f8_int_floordiv_mod_negative(paddle):
    a = paddle.to_tensor([7, -7, 7, -7])
    b = paddle.to_tensor([2, 2, -2, -2])
    fa = paddle.to_tensor([7.5, -7.5, 7.5, -7.5], dtype="float64")
    fb = paddle.to_tensor([2.0, 2.0, -2.0, -2.0], dtype="float64")
    return {"ifloordiv": a // b, "imod": a % b, "ffloordiv": fa // fb, "fmod": fa % fb,
            "remainder": paddle.remainder(a, b), "floor_divide": paddle.floor_divide(a, b)}


@program(item="fresh")
def f8_matmul_operator_broadcast_grad(paddle):
    a = _t(paddle, _a([2, 3, 4], -1.0, 0.1))
    b = _t(paddle, _a([4, 2], 0.5, 0.2))
    v = _t(paddle, [1.0, -1.0, 2.0, 0.5])
    c = a @ b
    d = a @ v
    (c.sum() + (d ** 2).sum()).backward()
    return {"c": c, "d_shape": d.shape, "ga": a.grad, "gb": b.grad, "gv": v.grad}


# ---------------------------------------------------------------- indexing


@program(item="fresh")
def f8_index_ints_slices_steps_grad(paddle):
    x = _t(paddle, _a([4, 5]))
    a = x[1]
    b = x[:, ::2]
    c = x[-1, 1:4]
    d = x[1:3, -2:]
    e = x[::-1, 0]
    (a.sum() + (b * 2).sum() + (c ** 2).sum() + d.sum() * 3 + e.cumsum(0).sum()).backward()
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "grad": x.grad}


@program(item="fresh")
def f8_index_none_ellipsis_grad(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    a = x[None]
    b = x[..., 1]
    c = x[0, ..., None]
    d = x[:, None, 1:3]
    (a.mean() + b.sum() + (c * c).sum() + d.sum()).backward()
    return {"shapes": [a.shape, b.shape, c.shape, d.shape], "b": b, "grad": x.grad}


@program(item="fresh")
def f8_index_bool_mask_grad(paddle):
    x = _t(paddle, [[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    m = x > 0
    sel = x[m]
    rows = x[paddle.to_tensor([False, True])]
    (sel ** 2).sum().backward()
    g1 = x.grad.numpy().copy()
    x.clear_gradient()
    rows.sum().backward()
    return {"sel": sel, "rows": rows, "g1": g1, "g2": x.grad}


@program(item="fresh")
def f8_index_int_tensor_and_list_grad(paddle):
    x = _t(paddle, _a([4, 3], 1.0))
    a = x[[0, 2, 2]]
    b = x[paddle.to_tensor([3, 1])]
    c = x[[0, 1], [1, 2]]
    d = x[:, [2, 0]]
    (a.sum() + (b * 2).sum() + (c * 10).sum() + (d ** 2).sum()).backward()
    return {"a": a, "b": b, "c": c, "d": d, "grad": x.grad}


@program(item="fresh")
def f8_setitem_scalar_tensor_broadcast(paddle):
    x = paddle.zeros([3, 4], dtype="float64")
    x[0] = 5
    x[1, 1:3] = paddle.to_tensor([7.0, 8.0], dtype="float64")
    x[:, 3] = 1.5
    x[2] = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64")
    m = paddle.to_tensor(np.arange(6).reshape([2, 3]))
    m[m > 2] = -1
    m[0, ::2] = 9
    return {"x": x, "m": m}


@program(item="fresh")
def f8_setitem_gradient_flow(paddle):
    x = _t(paddle, _a([2, 3], 1.0))
    v = _t(paddle, [10.0, 20.0])
    y = x * 2
    y[:, 0] = v
    y[1, 2] = 0.0
    (y * _t(paddle, _a([2, 3], 1.0), grad=False)).sum().backward()
    return {"y": y, "gx": x.grad, "gv": v.grad, "y_leaf": y.is_leaf, "y_sg": y.stop_gradient}


@program(item="fresh")
def f8_setitem_on_grad_leaf(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])

    def assign():
        x[0] = 0.0
        return x

    return {"leaf": attempt(assign)}


# ---------------------------------------------------------------- creation


@program(item="fresh")
def f8_to_tensor_forms(paddle):
    out = {}
    for k, v in {"ints": [[1, 2], [3, 4]], "floats": [1.0, 2.5], "mixed": [1, 2.5],
                 "bools": [True, False], "scalar_f": 2.5, "scalar_i": 7,
                 "np64": np.array([1.0, 2.0]), "np32": np.array([1, 2], dtype="int32")}.items():
        t = paddle.to_tensor(v)
        out[k] = [str(t.dtype), t.shape, t.stop_gradient]
    t = paddle.to_tensor([1, 2], dtype="float64", stop_gradient=False)
    out["explicit"] = t
    out["place"] = paddle.to_tensor([1.0], place=paddle.CPUPlace()).place.is_cpu_place()
    out["from_tensor"] = paddle.to_tensor(t)
    out["ragged"] = attempt(paddle.to_tensor, [[1, 2], [3]])
    return out


@program(item="fresh")
def f8_creation_shapes_list_tuple_tensor(paddle):
    a = paddle.zeros([2, 3])
    b = paddle.ones((2,), dtype="int64")
    c = paddle.full(paddle.to_tensor([2, 2]), 3.5, dtype="float64")
    d = paddle.full([2], 1)
    src = paddle.to_tensor([[1, 2, 3]], dtype="int32")
    e = paddle.empty_like(src)
    f = paddle.zeros_like(src, dtype="float32")
    g = paddle.ones_like(src)
    h = paddle.full_like(src, 9)
    i = paddle.empty([2, 2])
    return {"a": a, "b": b, "c": c, "d": d, "e": [e.shape, str(e.dtype)], "f": f,
            "g": g, "h": h, "i": [i.shape, str(i.dtype)], "sg": [a.stop_gradient]}


@program(item="fresh")
def f8_arange_linspace_logspace(paddle):
    return {"arange_f": paddle.arange(0, 1, 0.25), "arange_i": paddle.arange(5),
            "arange_start_end": paddle.arange(2, 8, 3),
            "arange_float_end": paddle.arange(1.0, 2.0),
            "arange_dtype": paddle.arange(0, 3, dtype="float64"),
            "arange_neg": paddle.arange(3, 0, -0.5),
            "linspace": paddle.linspace(0, 1, 5), "linspace_i": paddle.linspace(0, 10, 3,
                                                                               dtype="int64"),
            "logspace": paddle.logspace(0, 2, 3), "logspace_base": paddle.logspace(0, 3, 4,
                                                                                  base=2.0)}


@program(item="fresh")
def f8_eye_diag_family_grad(paddle):
    v = _t(paddle, [1.0, 2.0, 3.0])
    m = _t(paddle, _a([3, 3], 1.0))
    d1 = paddle.diag(v)
    d2 = paddle.diag(m, offset=1)
    d3 = paddle.diagflat(v, offset=-1)
    d4 = paddle.diag_embed(v)
    (d1 * 2).sum().backward()
    (d2 ** 2).sum().backward()
    g_m = m.grad.numpy().copy()
    (d3.sum() + d4.sum()).backward()
    return {"eye": paddle.eye(2, 3), "eye_sq": paddle.eye(3, dtype="int32"), "d1": d1,
            "d2": d2, "d3": d3, "d4": d4, "gv": v.grad, "gm": g_m}


@program(item="fresh")
def f8_tril_triu_diagonal_grad(paddle):
    x = _t(paddle, _a([3, 4], 1.0))
    lo = paddle.tril(x, diagonal=-1)
    up = paddle.triu(x, diagonal=1)
    lo0 = x.tril()
    (lo.sum() + (up * 2).sum() + (lo0 ** 2).sum()).backward()
    return {"lo": lo, "up": up, "lo0": lo0, "grad": x.grad}


@program(item="fresh")
def f8_meshgrid_grad(paddle):
    a = _t(paddle, [1.0, 2.0, 3.0])
    b = _t(paddle, [4.0, 5.0])
    ga, gb = paddle.meshgrid(a, b)
    (ga * gb).sum().backward()
    la, lb = paddle.meshgrid([a, b])
    return {"ga": ga, "gb": gb, "grad_a": a.grad, "grad_b": b.grad, "list_shape": la.shape}


# ---------------------------------------------------------------- reductions


@program(item="fresh")
def f8_reduce_sum_mean_axes_keepdim_grad(paddle):
    x = _t(paddle, _a([2, 3, 4], -1.0, 0.1))
    s = x.sum(axis=[0, 2])
    m = paddle.mean(x, axis=-1, keepdim=True)
    t = x.sum(axis=(-1, -2), keepdim=True)
    w = _t(paddle, [1.0, 2.0, 3.0], grad=False)
    (s * w).sum().backward()
    (m ** 2).sum().backward()
    t.sum().backward()
    return {"s": s, "m": m, "t": t, "shapes": [s.shape, m.shape, t.shape], "grad": x.grad,
            "int_sum": paddle.to_tensor([1, 2, 3]).sum(), "bool_sum": paddle.to_tensor(
                [True, True, False]).sum()}


@program(item="fresh")
def f8_reduce_prod_max_min_grad(paddle):
    x = _t(paddle, [[1.0, 5.0, 2.0], [4.0, 3.0, 0.5]])
    p = paddle.prod(x, axis=1)
    mx = x.max(axis=0)
    mn = paddle.min(x, axis=-1, keepdim=True)
    amax = paddle.amax(x)
    (p.sum() + mx.sum() * 2 + mn.sum() * 3 + amax).backward()
    return {"p": p, "mx": mx, "mn": mn, "amax": amax, "grad": x.grad, "all_max": x.max()}


@program(item="fresh")
def f8_reduce_all_any_count_nonzero(paddle):
    x = paddle.to_tensor([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]])
    b = x > 0
    return {"all": b.all(), "any0": paddle.any(b, axis=0), "all1": paddle.all(b, axis=1,
                                                                              keepdim=True),
            "cnz": paddle.count_nonzero(x), "cnz_ax": paddle.count_nonzero(x, axis=1),
            "cnz_keep": paddle.count_nonzero(x, axis=[0], keepdim=True),
            "float_all": attempt(paddle.all, x)}


@program(item="fresh")
def f8_logsumexp_nansum_nanmean_grad(paddle):
    x = _t(paddle, [[0.5, 1.0, -1.0], [2.0, 0.0, 1.5]])
    lse = paddle.logsumexp(x, axis=1)
    lse_all = x.logsumexp()
    lse.sum().backward()
    g1 = x.grad.numpy().copy()
    lse_all.backward()
    y = _t(paddle, [1.0, float("nan"), 3.0, 4.0])
    ns = paddle.nansum(y)
    nm = paddle.nanmean(y)
    (ns + nm * 2).backward()
    return {"lse": lse, "lse_all": lse_all, "g1": g1, "gx": x.grad, "ns": ns, "nm": nm,
            "gy": y.grad}


# ---------------------------------------------------------------- elementwise maths


@program(item="fresh")
def f8_elementwise_exp_log_family_grads(paddle):
    out = {}
    for name in ("sqrt", "rsqrt", "square", "reciprocal", "exp", "expm1", "log", "log1p",
                 "log2", "log10"):
        x = _t(paddle, [0.5, 1.5, 4.0])
        y = getattr(paddle, name)(x)
        y.sum().backward()
        out[name] = [y, x.grad]
    return out


@program(item="fresh")
def f8_elementwise_trig_activation_grads(paddle):
    out = {}
    for name in ("sin", "cos", "tan", "erf", "sigmoid", "tanh", "atan", "asinh"):
        x = _t(paddle, [-0.7, 0.2, 1.1])
        y = getattr(x, name)()
        (y * y).sum().backward()
        out[name] = [y, x.grad]
    return out


@program(item="fresh")
def f8_rounding_family_values_and_grads(paddle):
    out = {}
    for name in ("sign", "floor", "ceil", "round", "trunc", "frac"):
        x = _t(paddle, [-2.5, -0.4, 0.0, 0.6, 1.5, 2.7])
        y = getattr(paddle, name)(x)
        (y * 3).sum().backward()
        out[name] = [y, x.grad]
    return out


@program(item="fresh")
def f8_binary_maths_grads(paddle):
    x = _t(paddle, [1.0, -2.0, 3.0, 0.5])
    y = _t(paddle, [2.0, -1.0, 1.0, 4.0])
    r = {"atan2": paddle.atan2(x, y), "maximum": paddle.maximum(x, y),
         "minimum": paddle.minimum(x, y), "fmax": paddle.fmax(x, y), "fmin": paddle.fmin(x, y)}
    weighted = [v * (i + 1) for i, v in enumerate(r.values())]
    paddle.add_n([v.sum() for v in weighted]).backward()
    return dict(r, gx=x.grad, gy=y.grad)


@program(item="fresh")
def f8_lerp_clip_grads(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = _t(paddle, [4.0, 0.0, 5.0])
    w = _t(paddle, [0.25, 0.5, 0.75])
    l1 = paddle.lerp(x, y, w)
    l2 = paddle.lerp(x, y, 0.5)
    c = paddle.clip(x * 2, min=2.5, max=5.0)
    c2 = x.clip(max=2.0)
    (l1.sum() + (l2 ** 2).sum() + c.sum() + c2.sum()).backward()
    return {"l1": l1, "l2": l2, "c": c, "c2": c2, "gx": x.grad, "gy": y.grad, "gw": w.grad}


@program(item="fresh")
def f8_remainder_floor_divide_float_grads(paddle):
    x = _t(paddle, [5.5, -3.5, 7.0])
    y = _t(paddle, [2.0, 2.0, -3.0])
    r = paddle.remainder(x, y)
    q = paddle.floor_divide(x, y)
    m = paddle.mod(x, 2.0)
    r.sum().backward()
    return {"r": r, "q": q, "m": m, "gx": x.grad, "gy": y.grad,
            "q_sg": q.stop_gradient}


@program(item="fresh")
def f8_higher_order_composition(paddle):
    x = _t(paddle, [0.5, 1.0, 2.0])
    y = paddle.sin(x) * x ** 2
    g1 = paddle.grad(y.sum(), x, create_graph=True)[0]
    g2 = paddle.grad(g1.sum(), x, create_graph=True)[0]
    g3 = paddle.grad(g2.sum(), x)[0]
    return {"g1": g1, "g2": g2, "g3": g3, "g1_sg": g1.stop_gradient, "g3_sg": g3.stop_gradient}


@program(item="fresh")
def f8_higher_order_mixed_partials(paddle):
    x = _t(paddle, [1.5])
    y = _t(paddle, [0.5])
    f = paddle.exp(x * y) + x ** 3 * y
    gx, gy = paddle.grad(f, [x, y], create_graph=True)
    gxx, gxy = paddle.grad(gx, [x, y], retain_graph=True)
    gyx, gyy = paddle.grad(gy, [x, y])
    return {"gx": gx, "gy": gy, "hessian": [gxx, gxy, gyx, gyy]}


@program(item="fresh")
def f8_concat_split_chunk_grad(paddle):
    x = _t(paddle, _a([2, 3]))
    y = _t(paddle, _a([2, 2], 1.0))
    c = paddle.concat([x, y], axis=-1)
    a, b = paddle.split(c, [2, 3], axis=1)
    p, q = paddle.chunk(c, 2, axis=0)
    (a.sum() + (b ** 2).sum() + (p * q).sum()).backward()
    return {"c": c, "a": a, "b": b, "gx": x.grad, "gy": y.grad}


@program(item="fresh")
def f8_stack_unstack_squeeze_unsqueeze_grad(paddle):
    x = _t(paddle, _a([1, 3, 1], 1.0))
    s = x.squeeze()
    s1 = paddle.squeeze(x, axis=[0])
    u = paddle.unsqueeze(s, axis=[0, 2])
    st = paddle.stack([s, s * 2], axis=0)
    parts = paddle.unstack(st, axis=1)
    (st.sum() + (u ** 2).sum() + s1.sum() + parts[0].sum() + parts[1].sum() * 10
     + parts[2].sum() * 3).backward()
    return {"s": s.shape, "s1": s1.shape, "u": u.shape, "st": st, "n_parts": len(parts),
            "grad": x.grad}


@program(item="fresh")
def f8_gather_index_select_grad(paddle):
    x = _t(paddle, _a([4, 3], 1.0))
    idx = paddle.to_tensor([0, 2, 2])
    g = paddle.gather(x, idx)
    s = paddle.index_select(x, paddle.to_tensor([2, 0]), axis=1)
    gn = paddle.gather_nd(x, paddle.to_tensor([[1, 1], [3, 0]]))
    tk = paddle.take_along_axis(x, paddle.to_tensor([[0], [1], [2], [0]]), axis=1)
    (g.sum() + (s * 2).sum() + gn.sum() * 5 + tk.sum() * 7).backward()
    return {"g": g, "s": s, "gn": gn, "tk": tk, "grad": x.grad}


@program(item="fresh")
def f8_where_masked_fill_grad(paddle):
    x = _t(paddle, [-1.0, 2.0, -3.0, 4.0])
    y = _t(paddle, [10.0, 20.0, 30.0, 40.0])
    w = paddle.where(x > 0, x * 2, y)
    mf = paddle.masked_fill(x, x < 0, 0.0)
    ms = paddle.masked_select(x, x > 0)
    wz = paddle.where(x > 0, x, paddle.zeros_like(x))
    (w.sum() + (mf ** 2).sum() + ms.sum() + wz.sum()).backward()
    return {"w": w, "mf": mf, "ms": ms, "gx": x.grad, "gy": y.grad,
            "nonzero": paddle.where(x > 0)}


@program(item="fresh")
def f8_inplace_methods_on_intermediate(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * 2
    y.add_(paddle.ones([3], dtype="float64"))
    y.scale_(3.0)
    y.sqrt_()
    y.sum().backward()
    leaf = attempt(lambda: x.add_(paddle.ones([3], dtype="float64")))
    return {"y": y, "grad": x.grad, "leaf": leaf}


@program(item="fresh")
def f8_detach_shares_storage(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    d = x.detach()
    d[0] = 100.0
    y = x * 1.0
    c = y.clone().detach()
    return {"x": x, "d": d, "c": c, "c_sg": c.stop_gradient, "d_leaf": d.is_leaf}


@program(item="fresh")
def f8_grad_is_none_cases(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    y = _t(paddle, [1.0, 2.0])
    unused = _t(paddle, [5.0])
    z = (y * 2).sum()
    z.backward()
    mid = y * 3
    (mid.sum()).backward()
    return {"x_grad": x.grad, "unused_grad": unused.grad, "mid_grad": mid.grad,
            "y_grad": y.grad, "no_grad_backward": attempt(lambda: (x * 2).sum().backward())}
