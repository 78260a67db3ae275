"""Fresh differential programs (batch 1206): small dygraph programs a user would write from the
seed articles' examples and Paddle 3.3.1's API documentation. About half centre on autograd
(backward, paddle.grad, higher order, hooks, grad modes, PyLayer, in-place versions), half on
the API surface (maths and reductions with gradients, indexing, creation, dtypes, nn.functional,
layers, optimizers, clipping, schedulers, linalg, errors); written without looking at opsdk
(issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

LAYER = {"rtol": 1e-4, "atol": 1e-5}


def _leaf(paddle, values, dtype="float32", grad=True):
    """A user's tensor from a Python list or array; a gradient leaf unless grad=False."""
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=not grad)


def _ramp(shape, start=0.5, step=0.5, dtype="float32"):
    n = int(np.prod(shape))
    return (start + step * np.arange(n)).astype(dtype).reshape(shape)


def _wave(shape, dtype="float32"):
    """Deterministic values of mixed sign, no ties."""
    n = int(np.prod(shape))
    return np.sin(1.3 * np.arange(1, n + 1) + 0.2).astype(dtype).reshape(shape)


# ---------------------------------------------------------------- the seed articles' examples


@program(item="fresh", differs=(
        ["made", "gradient_type"],
        ("docs/paddle.md, Engine, Flags and gradients: creation functions take stop_gradient= "
         "and Tensor.gradient() is an ndarray subclass with numpy(), as the seed articles use "
         "them; Paddle 3.3.1 raises TypeError and returns a plain ndarray")))
def f6_seed_gradient_and_ones_keyword(paddle):
    made = attempt(paddle.ones, [1], dtype="float32", stop_gradient=False)
    w = paddle.ones([1], dtype="float32")
    w.stop_gradient = False
    x = paddle.full([1], 2.0, dtype="float32")
    y = w * x
    loss = paddle.sum(y ** 2)
    loss.backward()
    g = w.gradient()
    return {"made": made, "loss": loss, "gradient": g, "gradient_type": type(g).__name__,
            "grad": w.grad}


@program(item="fresh")
def f6_seed_cube_second_order_retain(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy_dx = paddle.grad(outputs=y, inputs=x, create_graph=True)[0]
    d2y_dx2 = paddle.grad(outputs=dy_dx, inputs=x, retain_graph=True)[0]
    again = paddle.grad(outputs=dy_dx, inputs=x)[0]
    return {"dy_dx": dy_dx, "d2y_dx2": d2y_dx2, "again": again, "x_grad": x.grad,
            "dy_dx_flag": dy_dx.stop_gradient, "d2_flag": d2y_dx2.stop_gradient}


@program(item="fresh")
def f6_seed_pylayer_ctx_attributes_extra_none(paddle):
    class LeakyClip(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, slope, limit, pair):
            ctx.save_for_backward(x)
            ctx.slope, ctx.limit, ctx.pair = slope, limit, pair
            return paddle.where(paddle.abs(x) < limit, x, x * slope)

        @staticmethod
        def backward(ctx, dy):
            x, = ctx.saved_tensor()
            inside = (paddle.abs(x) < ctx.limit).astype(dy.dtype)
            dx = dy * (inside + (1.0 - inside) * ctx.slope)
            return (dx, None) if ctx.pair else dx

    x = paddle.to_tensor([1.5, 0.5, -3.0], stop_gradient=False)
    y = LeakyClip.apply(x, 0.1, 1.0, False)
    (y * y).sum().backward()
    z = paddle.to_tensor([2.0, -0.25], stop_gradient=False)
    w = LeakyClip.apply(z, 0.5, 1.0, True)
    done = attempt(lambda: w.sum().backward())
    return {"y": y, "grad": x.grad, "w": w, "done": done, "z_grad": z.grad,
            "y_flag": y.stop_gradient}


@program(item="fresh", differs=(
        ["steps", "final"],
        ("docs/paddle.md, Engine, In place and views: `w -= lr * w.grad` under no_grad updates w "
         "in place in opsdk; Paddle rebinds w to a stop-gradient tensor, so the seed's loop "
         "finds w.grad None at its second step")))
def f6_seed_manual_descent_loop(paddle):
    w = paddle.to_tensor([0.0], stop_gradient=False)
    learning_rate = 0.1
    steps = []
    for _ in range(3):
        loss = (w - 3.0) ** 2
        done = attempt(loss.backward)
        grad = w.grad
        step = {"loss": loss, "done": done, "grad": grad}
        steps.append(step)
        if grad is None:
            break
        with paddle.no_grad():
            w -= learning_rate * grad
        step.update(w=w, grad_after=w.grad, flag=w.stop_gradient, leaf=w.is_leaf)
        step["cleared"] = attempt(w.clear_gradient)
    return {"steps": steps, "final": w}


@program(item="fresh")
def f6_seed_create_parameter_sgd(paddle):
    w = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    losses = []
    for _ in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(loss.numpy().tolist())
    return {"w": w, "losses": losses, "trainable": w.trainable, "grad": w.grad,
            "flag": w.stop_gradient, "leaf": w.is_leaf}


@program(item="fresh")
def f6_seed_detach_cuts_path(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * x
    z = y.detach()
    out = z * 3
    done = attempt(out.backward)
    w = paddle.to_tensor([2.0], stop_gradient=False)
    v = w * w
    total = v.detach() * 3 + v
    total.backward()
    return {"done": done, "x_grad": x.grad, "y_flag": y.stop_gradient,
            "z_flag": z.stop_gradient, "out_flag": out.stop_gradient, "z_leaf": z.is_leaf,
            "w_grad": w.grad}


@program(item="fresh")
def f6_seed_retain_graph_then_second(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.sum(x ** 2)
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    second = x.grad.numpy().copy()
    third = attempt(y.backward)
    return {"first": first, "second": second, "third": third, "after": x.grad}


@program(item="fresh")
def f6_seed_stop_gradient_scalars(paddle):
    a = paddle.to_tensor(2.0, stop_gradient=False)
    b = paddle.to_tensor(5.0, stop_gradient=True)
    c = a * b
    c.backward()
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    flag_before = x.stop_gradient
    x.stop_gradient = False
    y = paddle.sum(x ** 2)
    y.backward()
    return {"a_grad": a.grad, "b_grad": b.grad, "c": c, "c_shape": c.shape,
            "flag_before": flag_before, "x_grad": x.grad}


@program(item="fresh")
def f6_seed_sum_vs_mean_and_accumulation(paddle):
    x1 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.sum(x1 ** 2).backward()
    x2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    paddle.mean(x2 ** 2).backward()
    first = x2.grad.numpy().copy()
    paddle.mean(x2 ** 2).backward()
    x3 = paddle.to_tensor([2.0], stop_gradient=False)
    y3 = x3 * x3 + 3 * x3
    dx = paddle.grad(outputs=[y3], inputs=[x3])[0]
    return {"sum_grad": x1.grad, "mean_first": first, "mean_twice": x2.grad, "dx": dx,
            "x3_grad": x3.grad}


@program(item="fresh")
def f6_seed_embedding_rows(paddle):
    emb = paddle.nn.Embedding(num_embeddings=12, embedding_dim=4)
    ids = paddle.to_tensor([[1, 3, 5]])
    e = emb(ids)
    loss = e.sum()
    loss.backward()
    g = emb.weight.grad.numpy()
    return {"e_shape": e.shape, "rows": np.nonzero(g.sum(axis=1))[0].tolist(),
            "grad_rows": g[[1, 3, 5]], "zero_rows": float(np.abs(g[[0, 2, 4, 6]]).sum()),
            "w_flag": emb.weight.stop_gradient, "e_flag": e.stop_gradient}


@program(item="fresh", **LAYER)
def f6_seed_global_norm_clip_with_adam(paddle):
    model = paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(
        initializer=paddle.nn.initializer.Assign(_wave([3, 2]))),
        bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.1)))
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=5.0)
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters(),
                                grad_clip=clip)
    x = _leaf(paddle, _ramp([4, 3], -2.0, 1.5), grad=False)
    losses = []
    for _ in range(3):
        loss = (model(x) ** 2).mean() * 10.0
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "weight": model.weight, "bias": model.bias}


# ---------------------------------------------------------------- paddle.grad


@program(item="fresh")
def f6_grad_allow_unused_both_ways(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    y = _leaf(paddle, [3.0, 4.0])
    out = (x ** 2).sum()
    refused = attempt(paddle.grad, [out], [x, y], retain_graph=True)
    gx, gy = paddle.grad([out], [x, y], allow_unused=True)
    return {"refused": refused, "gx": gx, "gy": gy}


@program(item="fresh")
def f6_grad_no_grad_vars_blocks_branch(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    h = x * 2.0
    k = paddle.exp(x * 0.1)
    out = (h * k).sum()
    g_all, = paddle.grad(out, x, retain_graph=True)
    g_block, = paddle.grad(out, x, no_grad_vars=[k])
    return {"all": g_all, "blocked": g_block}


@program(item="fresh")
def f6_grad_grad_outputs_weighting(paddle):
    x = _leaf(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = paddle.matmul(x, x)
    v = _leaf(paddle, [[1.0, 0.0], [0.5, -1.0]], grad=False)
    g, = paddle.grad([y], [x], grad_outputs=[v], retain_graph=True)
    g_none, = paddle.grad([y], [x], grad_outputs=[None])
    return {"y": y, "g": g, "ones": g_none}


@program(item="fresh")
def f6_grad_two_outputs_summed(paddle):
    x = _leaf(paddle, [0.5, 1.5])
    y1 = paddle.sin(x).sum()
    y2 = (x ** 3).sum()
    g, = paddle.grad([y1, y2], [x])
    a = _leaf(paddle, [1.0, 2.0])
    b = a * 3.0
    gb, ga = paddle.grad([b.sum()], [b, a])
    return {"g": g, "gb": gb, "ga": ga}


@program(item="fresh", differs=(
        ["fxy"],
        ("docs/paddle.md, Engine, Values at special points: paddle.grad of a pow's first-order "
         "gradient with respect to the other input only fails inside Paddle 3.3.1 (DX nullptr); "
         "opsdk answers")))
def f6_grad_mixed_partials(paddle):
    x = _leaf(paddle, [1.2], dtype="float64")
    y = _leaf(paddle, [0.7], dtype="float64")
    f = x ** 2 * y + paddle.sin(x * y)
    fx, fy = paddle.grad(f, [x, y], create_graph=True)
    fxy = attempt(paddle.grad, fx, y, retain_graph=True)
    fyx = attempt(paddle.grad, fy, x, retain_graph=True)
    fxx = attempt(paddle.grad, fx, x)
    return {"fx": fx, "fy": fy, "fxy": fxy, "fyx": fyx, "fxx": fxx,
            "fx_flag": fx.stop_gradient}


@program(item="fresh")
def f6_grad_third_order_sin(paddle):
    x = _leaf(paddle, [0.3, 1.1], dtype="float64")
    y = paddle.sin(x)
    d1, = paddle.grad(y.sum(), x, create_graph=True)
    d2, = paddle.grad(d1.sum(), x, create_graph=True)
    d3, = paddle.grad(d2.sum(), x)
    return {"d1": d1, "d2": d2, "d3": d3, "d3_flag": d3.stop_gradient}


@program(item="fresh", **LAYER)
def f6_grad_gradient_penalty_to_weights(paddle):
    lin1 = paddle.nn.Linear(2, 3, weight_attr=paddle.ParamAttr(
        initializer=paddle.nn.initializer.Assign(_wave([2, 3]))))
    lin2 = paddle.nn.Linear(3, 1, weight_attr=paddle.ParamAttr(
        initializer=paddle.nn.initializer.Assign(_wave([3, 1]) * 0.5)))
    x = _leaf(paddle, [[0.5, -1.0], [1.5, 0.25]])
    out = lin2(paddle.tanh(lin1(x)))
    g, = paddle.grad(out.sum(), x, create_graph=True)
    penalty = ((g.norm(p=2, axis=1) - 1.0) ** 2).mean()
    penalty.backward()
    return {"g": g, "penalty": penalty, "w1_grad": lin1.weight.grad,
            "b1_grad": lin1.bias.grad, "w2_grad": lin2.weight.grad, "x_grad": x.grad,
            "b2_grad": lin2.bias.grad}


# ---------------------------------------------------------------- hooks, retain_grads, flags


@program(item="fresh")
def f6_hook_scales_then_removed(paddle):
    x = _leaf(paddle, [1.0, -2.0, 3.0])
    handle = x.register_hook(lambda g: g * 10.0)
    (x * x).sum().backward()
    first = x.grad.numpy().copy()
    handle.remove()
    x.clear_gradient()
    (x * x).sum().backward()
    return {"first": first, "after_remove": x.grad}


@program(item="fresh")
def f6_hook_on_intermediate_observes(paddle):
    x = _leaf(paddle, [0.5, 1.0, 2.0])
    seen = []
    y = x * 3.0
    y.register_hook(lambda g: seen.append(g.numpy().copy()))
    z = paddle.exp(y * 0.1).sum()
    z.backward()
    w = _leaf(paddle, [1.0, 2.0])
    u = w ** 2
    u.register_hook(lambda g: paddle.zeros_like(g))
    (u.sum() + w.sum()).backward()
    return {"seen": seen, "x_grad": x.grad, "y_grad": y.grad, "w_grad": w.grad}


@program(item="fresh")
def f6_retain_grads_on_chain(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    h = x * 2.0
    h.retain_grads()
    k = paddle.tanh(h)
    out = (k * paddle.to_tensor([1.0, -1.0, 0.5])).sum()
    out.backward()
    return {"h_grad": h.grad, "k_grad": k.grad, "x_grad": x.grad, "h_leaf": h.is_leaf}


@program(item="fresh")
def f6_backward_with_grad_tensor(paddle):
    x = _leaf(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = x * x + 1.0
    y.backward(paddle.to_tensor([[1.0, 0.5], [0.0, -1.0]]))
    a = _leaf(paddle, [1.0, 2.0, 3.0])
    b = a * 2.0
    plain = attempt(b.backward)
    return {"grad": x.grad, "plain": plain, "a_grad": a.grad}


@program(item="fresh")
def f6_stop_gradient_propagation_table(paddle):
    a = _leaf(paddle, [1.0, 2.0])
    b = _leaf(paddle, [3.0, 4.0], grad=False)
    c = a + b
    d = b * 2.0
    e = paddle.concat([c, d])
    f = e.sum() * 2.0
    f.backward()
    ints = paddle.to_tensor([1, 2])
    n = paddle.cast(a, "int64")
    return {"flags": [c.stop_gradient, d.stop_gradient, e.stop_gradient, f.stop_gradient],
            "leaves": [a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf],
            "a_grad": a.grad, "b_grad": b.grad, "ints_flag": ints.stop_gradient,
            "n_flag": n.stop_gradient}


@program(item="fresh", differs=(
        ["gone"],
        ("docs/paddle.md, Engine, Flags and gradients: clear_gradient(set_to_zero=False) sets "
         "the gradient to None, as Paddle documents; Paddle 3.3.1 ignores the keyword and "
         "zeroes it")))
def f6_clear_gradient_variants(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    (x * 3.0).sum().backward()
    x.clear_gradient()
    zeroed = x.grad
    (x * 3.0).sum().backward()
    x.clear_gradient(set_to_zero=False)
    gone = x.grad
    (x * 5.0).sum().backward()
    y = _leaf(paddle, [1.0, 2.0])
    (y * 2.0).sum().backward()
    y.clear_grad()
    return {"zeroed": zeroed, "gone": gone, "fresh": x.grad, "y": y.grad}


# ---------------------------------------------------------------- grad modes


@program(item="fresh")
def f6_no_grad_as_decorator(paddle):
    @paddle.no_grad()
    def evaluate(x):
        return x * 2.0, paddle.is_grad_enabled()

    x = _leaf(paddle, [1.0, 2.0])
    y, inside = evaluate(x)
    z = x * 2.0
    return {"y_flag": y.stop_gradient, "inside": inside, "z_flag": z.stop_gradient,
            "enabled_after": paddle.is_grad_enabled(), "name": evaluate.__name__}


@program(item="fresh")
def f6_enable_grad_inside_no_grad(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    with paddle.no_grad():
        a = x * 2.0
        with paddle.enable_grad():
            b = x * 3.0
            mid = paddle.is_grad_enabled()
        c = x * 4.0

    @paddle.enable_grad()
    def grow(t):
        return t ** 2

    with paddle.no_grad():
        d = grow(x)
    (b.sum() + d.sum()).backward()
    return {"flags": [a.stop_gradient, b.stop_gradient, c.stop_gradient, d.stop_gradient],
            "mid": mid, "grad": x.grad}


@program(item="fresh")
def f6_set_grad_enabled_context_and_call(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    with paddle.set_grad_enabled(False):
        a = x * 2.0
        inside = paddle.is_grad_enabled()
    with paddle.set_grad_enabled(True):
        b = x * 2.0
    paddle.set_grad_enabled(False)
    c = x * 2.0
    off = paddle.is_grad_enabled()
    paddle.set_grad_enabled(True)
    d = x * 2.0
    return {"flags": [a.stop_gradient, b.stop_gradient, c.stop_gradient, d.stop_gradient],
            "inside": inside, "off": off, "on": paddle.is_grad_enabled()}


# ---------------------------------------------------------------- PyLayer


@program(item="fresh")
def f6_pylayer_two_outputs(paddle):
    class SinCos(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return paddle.sin(x), paddle.cos(x)

        @staticmethod
        def backward(ctx, ds, dc):
            x, = ctx.saved_tensor()
            return ds * paddle.cos(x) - dc * paddle.sin(x)

    x = _leaf(paddle, [0.2, 0.9, 1.7])
    s, c = SinCos.apply(x)
    (2.0 * s + c * c).sum().backward()
    y = _leaf(paddle, [0.4])
    s2, _ = SinCos.apply(y)
    s2.sum().backward()
    return {"s": s, "c": c, "grad": x.grad, "only_s": y.grad}


@program(item="fresh")
def f6_pylayer_mark_non_differentiable(paddle):
    class TopIndex(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = paddle.argmax(x, axis=-1)
            doubled = x * 2.0
            ctx.mark_non_differentiable(idx)
            return doubled, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            return g * 2.0

    x = _leaf(paddle, [[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    d, idx = TopIndex.apply(x)
    d.sum().backward()
    return {"d": d, "idx": idx, "idx_flag": idx.stop_gradient, "d_flag": d.stop_gradient,
            "grad": x.grad}


@program(item="fresh", differs=(
        ["third", "a_grad"],
        ("docs/paddle.md, Engine, PyLayer: a gradient backward returns for an input with "
         "stop_gradient=True is dropped (Paddle raises ValueError), so the third backward "
         "completes and adds its gradient to a.grad")))
def f6_pylayer_saved_pair_and_scale_arg(paddle):
    class ScaledMul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b, scale):
            ctx.save_for_backward(a, b)
            ctx.scale = scale
            return a * b * scale

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensor()
            return g * b * ctx.scale, g * a * ctx.scale

    a = _leaf(paddle, [1.0, 2.0, 3.0])
    b = _leaf(paddle, [4.0, 5.0, 6.0])
    out = ScaledMul.apply(a, b, 0.5)
    out2 = ScaledMul.apply(a, b, 2.0)
    (out + out2).sum().backward()
    c = _leaf(paddle, [1.0, 1.0, 1.0], grad=False)
    out3 = ScaledMul.apply(a, c, 1.0)
    third = attempt(lambda: out3.sum().backward())
    return {"out": out, "a_grad": a.grad, "b_grad": b.grad, "c_grad": c.grad,
            "out3_flag": out3.stop_gradient, "third": third}


@program(item="fresh")
def f6_pylayer_backward_returns_too_many(paddle):
    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g * 2.0, g * 3.0

    x = _leaf(paddle, [1.0, 2.0])
    y = Bad.apply(x)
    raised = attempt(lambda: y.sum().backward())
    return {"y": y, "raised": raised, "grad": x.grad}


# ---------------------------------------------------------------- in-place and versions


@program(item="fresh")
def f6_inplace_after_save_raises(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    a = x * 1.0
    b = a ** 2
    a.scale_(2.0)
    raised = attempt(lambda: b.sum().backward())
    y = _leaf(paddle, [1.0, 2.0, 3.0])
    c = y * 1.0
    d = c + 1.0
    c.scale_(2.0)
    d.sum().backward()
    return {"raised": raised, "b": b, "a": a, "y_grad": y.grad}


@program(item="fresh")
def f6_inplace_on_grad_leaf(paddle):
    x = _leaf(paddle, [1.0, -2.0])
    refused = attempt(x.add_, paddle.to_tensor([1.0, 1.0]))
    with paddle.no_grad():
        x.add_(paddle.to_tensor([1.0, 1.0]))
    y = _leaf(paddle, [1.0, -2.0], grad=False)
    y.add_(paddle.to_tensor([1.0, 1.0]))
    return {"refused": refused, "x": x, "y": y, "x_flag": x.stop_gradient}


@program(item="fresh")
def f6_inplace_chain_gradients(paddle):
    x = _leaf(paddle, [-1.0, 0.5, 2.0])
    h = x * 3.0
    h.add_(paddle.to_tensor(1.0))
    paddle.nn.functional.relu_(h)
    h.sum().backward()
    u = x * 3.0
    paddle.nn.functional.relu_(u)
    u.exp_()
    raised = attempt(lambda: u.sum().backward())
    y = _leaf(paddle, [1.0, 2.0])
    z = y * 1.0
    z.pow_(2.0)
    z.sum().backward()
    return {"h": h, "x_grad": x.grad, "z": z, "y_grad": y.grad, "raised": raised}


@program(item="fresh")
def f6_detach_shares_storage(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    d = x.detach()
    d[0] = 10.0
    e = x.detach().clone()
    e[1] = -5.0
    c = x.clone()
    c.sum().backward()
    return {"x": x, "d": d, "e": e, "d_flag": d.stop_gradient, "c_flag": c.stop_gradient,
            "grad": x.grad, "c_leaf": c.is_leaf}


@program(item="fresh")
def f6_setitem_on_nonleaf_grad(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0, 4.0])
    y = x * 2.0
    y[1:3] = 0.0
    (y * y).sum().backward()
    a = _leaf(paddle, [1.0, 2.0])
    b = paddle.zeros([4])
    b[0:2] = a * 3.0
    b.sum().backward()
    return {"y": y, "x_grad": x.grad, "a_grad": a.grad, "b_flag": b.stop_gradient}


# ---------------------------------------------------------------- reductions with gradients


@program(item="fresh")
def f6_max_min_with_ties_grad(paddle):
    x = _leaf(paddle, [[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]])
    paddle.max(x).backward()
    g_max = x.grad.numpy().copy()
    x.clear_gradient()
    paddle.max(x, axis=1).sum().backward()
    g_axis = x.grad.numpy().copy()
    x.clear_gradient()
    paddle.min(x, axis=0).sum().backward()
    return {"all": g_max, "axis1": g_axis, "min0": x.grad}


@program(item="fresh")
def f6_amax_amin_ties_grad(paddle):
    x = _leaf(paddle, [[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]])
    paddle.amax(x).backward()
    g_all = x.grad.numpy().copy()
    x.clear_gradient()
    paddle.amin(x, axis=1, keepdim=True).sum().backward()
    return {"amax_all": g_all, "amin1": x.grad,
            "shape": paddle.amin(x, axis=1, keepdim=True).shape}


@program(item="fresh")
def f6_where_and_clip_grad(paddle):
    x = _leaf(paddle, [-2.0, -0.5, 0.5, 1.0, 3.0])
    y = paddle.where(x > 0, x * x, -x)
    c = paddle.clip(x, min=-1.0, max=1.0)
    (y.sum() + (c * 3.0).sum()).backward()
    a = _leaf(paddle, [1.0, 2.0, 3.0])
    b = _leaf(paddle, [4.0, 5.0, 6.0])
    w = paddle.where(paddle.to_tensor([True, False, True]), a, b)
    w.sum().backward()
    return {"y": y, "c": c, "grad": x.grad, "a_grad": a.grad, "b_grad": b.grad}


@program(item="fresh")
def f6_cumsum_cumprod_grad(paddle):
    x = _leaf(paddle, [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    cs = paddle.cumsum(x, axis=1)
    cp = paddle.cumprod(x, dim=1)
    (cs * paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])).sum().backward()
    g_cs = x.grad.numpy().copy()
    x.clear_gradient()
    cp.sum().backward()
    flat = paddle.cumsum(paddle.to_tensor([[1, 2], [3, 4]]))
    return {"cs": cs, "cp": cp, "g_cs": g_cs, "g_cp": x.grad, "flat": flat}


@program(item="fresh")
def f6_logsumexp_norm_dist_grad(paddle):
    x = _leaf(paddle, [[1.0, 2.0, 3.0], [-1.0, 0.0, 4.0]], dtype="float64")
    lse = paddle.logsumexp(x, axis=1)
    fro = paddle.linalg.norm(x)
    n1 = paddle.linalg.norm(x, p=1, axis=0)
    y = _leaf(paddle, [[0.0, 2.5, 1.0], [1.0, 1.0, 1.0]], dtype="float64")
    d = paddle.dist(x, y, p=2)
    dinf = paddle.dist(x, y, p=float("inf"))
    (lse.sum() + fro + n1.sum() + d + dinf).backward()
    return {"lse": lse, "fro": fro, "n1": n1, "d": d, "dinf": dinf, "gx": x.grad,
            "gy": y.grad}


@program(item="fresh")
def f6_std_var_unbiased_grad(paddle):
    x = _leaf(paddle, [[1.0, 2.0, 4.0, 7.0], [0.0, -1.0, 3.0, 3.5]], dtype="float64")
    s = paddle.std(x, axis=1)
    v = paddle.var(x, axis=1, unbiased=False)
    sall = paddle.std(x)
    (s.sum() + v.sum() + sall).backward()
    return {"s": s, "v": v, "sall": sall, "grad": x.grad, "keep": paddle.var(
        x, axis=0, keepdim=True).shape}


@program(item="fresh")
def f6_kthvalue_mode_median_grad(paddle):
    x = _leaf(paddle, [[5.0, 1.0, 4.0, 2.0], [3.0, 3.0, 9.0, 3.5]])
    kv, ki = paddle.kthvalue(x, k=2, axis=1)
    mv, mi = paddle.mode(paddle.to_tensor([[1, 2, 2, 3], [4, 4, 1, 1]]), axis=1)
    med = paddle.median(x, axis=1)
    (kv.sum() + med.sum()).backward()
    odd = _leaf(paddle, [3.0, 1.0, 2.0])
    paddle.median(odd).backward()
    return {"kv": kv, "ki": ki, "mv": mv, "mi": mi, "med": med, "grad": x.grad,
            "odd_grad": odd.grad}


@program(item="fresh")
def f6_topk_sort_argsort_grad(paddle):
    x = _leaf(paddle, [[0.3, 2.0, -1.0, 1.5], [4.0, 0.0, 2.5, -3.0]])
    vals, idx = paddle.topk(x, k=2, axis=1)
    small, sidx = paddle.topk(x, k=1, axis=1, largest=False)
    srt = paddle.sort(x, axis=1, descending=True)
    order = paddle.argsort(x, axis=0)
    (vals * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    g_top = x.grad.numpy().copy()
    x.clear_gradient()
    (srt * paddle.to_tensor([1.0, 0.0, 0.0, -1.0])).sum().backward()
    return {"vals": vals, "idx": idx, "small": small, "sidx": sidx, "srt": srt,
            "order": order, "g_top": g_top, "g_sort": x.grad}


# ---------------------------------------------------------------- indexing with gradients


@program(item="fresh", differs=(
        ["upd_grad"],
        ("docs/paddle.md, Engine, Values at special points: scatter(overwrite=True) gives an "
         "update that a later one overwrote gradient 0; Paddle gives it the row's gradient")))
def f6_gather_scatter_grad(paddle):
    x = _leaf(paddle, _ramp([4, 2]))
    idx = paddle.to_tensor([2, 0, 2])
    g = paddle.gather(x, idx, axis=0)
    (g * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
    base = _leaf(paddle, _ramp([3, 2]))
    upd = _leaf(paddle, [[10.0, 20.0], [30.0, 40.0]])
    over = paddle.scatter(base, paddle.to_tensor([1, 1]), upd, overwrite=True)
    add = paddle.scatter(base, paddle.to_tensor([1, 1]), upd, overwrite=False)
    (over.sum() + 2.0 * add.sum()).backward()
    return {"g": g, "x_grad": x.grad, "over": over, "add": add, "base_grad": base.grad,
            "upd_grad": upd.grad}


@program(item="fresh")
def f6_index_select_masked_select_grad(paddle):
    x = _leaf(paddle, _ramp([3, 4], -1.0))
    sel = paddle.index_select(x, paddle.to_tensor([3, 0, 3]), axis=1)
    ms = paddle.masked_select(x, x > 1.5)
    (sel.sum() + (ms ** 2).sum()).backward()
    filled = paddle.masked_fill(x, x < 0, 0.0)
    return {"sel": sel, "ms": ms, "grad": x.grad, "filled": filled}


@program(item="fresh")
def f6_take_put_along_axis_grad(paddle):
    x = _leaf(paddle, _ramp([2, 3], 1.0))
    idx = paddle.to_tensor([[2, 0], [1, 1]])
    t = paddle.take_along_axis(x, idx, axis=1)
    t.sum().backward()
    g_take = x.grad.numpy().copy()
    base = _leaf(paddle, _ramp([2, 3], 1.0))
    vals = _leaf(paddle, [[7.0, 8.0], [9.0, 10.0]])
    put = paddle.put_along_axis(base, paddle.to_tensor([[0, 2], [1, 0]]), vals, axis=1)
    add = paddle.put_along_axis(base, paddle.to_tensor([[0, 0], [1, 1]]), vals, axis=1,
                                reduce="add")
    (put * 2.0 + add).sum().backward()
    return {"t": t, "g_take": g_take, "put": put, "add": add, "base_grad": base.grad,
            "vals_grad": vals.grad}


# ---------------------------------------------------------------- shape manipulation


@program(item="fresh")
def f6_expand_tile_broadcast_grad(paddle):
    x = _leaf(paddle, [[1.0], [2.0]])
    e = paddle.expand(x, [2, 3])
    t = paddle.tile(x, [2, 2])
    b = paddle.broadcast_to(x, [3, 2, 4])
    (e.sum() + (t * 2.0).sum() + b.sum()).backward()
    s1, s2 = paddle.broadcast_tensors([paddle.ones([2, 1]), paddle.ones([1, 3])])
    return {"e": e, "t_shape": t.shape, "b_shape": b.shape, "grad": x.grad,
            "bt": [s1.shape, s2.shape], "ea": x.expand_as(e).shape}


@program(item="fresh")
def f6_roll_flip_unbind_chunk_grad(paddle):
    x = _leaf(paddle, _ramp([2, 4]))
    r = paddle.roll(x, shifts=1, axis=1)
    f = paddle.flip(x, axis=[0])
    rows = paddle.unbind(x, axis=0)
    parts = paddle.chunk(x, 2, axis=1)
    w = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    (r * w).sum().backward()
    g_roll = x.grad.numpy().copy()
    x.clear_gradient()
    ((f * w).sum() + rows[1].sum() * 10.0 + (parts[0] ** 2).sum()).backward()
    flat = paddle.roll(x, shifts=-2)
    return {"r": r, "f": f, "n_rows": len(rows), "part_shapes": [p.shape for p in parts],
            "g_roll": g_roll, "grad": x.grad, "flat": flat}


# ---------------------------------------------------------------- elementwise maths


@program(item="fresh")
def f6_trig_hyperbolic_grads(paddle):
    x = _leaf(paddle, [-0.6, 0.1, 0.45], dtype="float64")
    outs = [paddle.asin(x), paddle.acos(x), paddle.atan(x), paddle.sinh(x),
            paddle.cosh(x), paddle.tanh(x), paddle.asinh(x), paddle.atanh(x), paddle.tan(x)]
    total = outs[0].sum()
    for o in outs[1:]:
        total = total + o.sum()
    total.backward()
    z = _leaf(paddle, [1.5, 2.0, 3.0], dtype="float64")
    paddle.acosh(z).sum().backward()
    a2 = paddle.atan2(paddle.to_tensor([1.0, -1.0, 0.0]), paddle.to_tensor([-1.0, -1.0, 2.0]))
    return {"outs": outs, "grad": x.grad, "acosh_grad": z.grad, "atan2": a2}


@program(item="fresh")
def f6_special_function_grads(paddle):
    x = _leaf(paddle, [0.2, 0.5, 0.9], dtype="float64")
    outs = {"erf": paddle.erf(x), "erfinv": paddle.erfinv(x), "lgamma": paddle.lgamma(x),
            "digamma": paddle.digamma(x), "expm1": paddle.expm1(x), "log1p": paddle.log1p(x),
            "logit": paddle.logit(x), "rsqrt": paddle.rsqrt(x), "reciprocal": x.reciprocal(),
            "log2": paddle.log2(x), "log10": paddle.log10(x)}
    grads = {}
    for k, v in outs.items():
        grads[k], = paddle.grad(v.sum(), x)
    return {"outs": outs, "grads": grads}


# ---------------------------------------------------------------- dtypes and creation


@program(item="fresh")
def f6_dtype_promotion_rules(paddle):
    i = paddle.to_tensor([1, 2, 3])
    f32 = paddle.to_tensor([0.5, 0.5, 0.5])
    f64 = paddle.to_tensor([1.0, 1.0, 1.0], dtype="float64")
    bo = paddle.to_tensor([True, False, True])
    cases = {"i_plus_pyfloat": lambda: i + 1.5, "i_times_int": lambda: i * 2,
             "i_div_int": lambda: i / 2, "f32_f64": lambda: f32 + f64,
             "bool_int": lambda: bo + i, "i_floordiv": lambda: i // 2,
             "i_pow_float": lambda: i ** 0.5, "scalar_f64": lambda: f32 * np.float64(2.0),
             "i_f32": lambda: i + f32, "bool_float": lambda: bo * f32}
    out = {}
    for name, case in cases.items():
        v = attempt(case)
        out[name] = {"dtype": str(v.dtype).split(".")[-1], "value": v} if hasattr(
            v, "dtype") else v
    return out


@program(item="fresh")
def f6_cast_keeps_gradient_path(paddle):
    x = _leaf(paddle, [1.5, -2.25], dtype="float64")
    y = paddle.cast(x, "float32")
    z = y.astype("float64") * 3.0
    z.sum().backward()
    n = paddle.cast(paddle.to_tensor([1.7, -1.7, 2.5]), "int32")
    b = paddle.to_tensor([0.0, 2.0, -1.0]).astype("bool")
    return {"y_dtype": str(y.dtype).split(".")[-1], "grad": x.grad, "n": n, "b": b,
            "grad_dtype": str(x.grad.dtype).split(".")[-1], "y_flag": y.stop_gradient}


@program(item="fresh")
def f6_creation_ops_family(paddle):
    return {"arange": paddle.arange(1, 3, 0.5), "arange_int": paddle.arange(5),
            "linspace": paddle.linspace(0, 1, 5), "full_like": paddle.full_like(
                paddle.ones([2, 2], dtype="int64"), 7),
            "eye": paddle.eye(2, 3), "tril": paddle.tril(paddle.ones([3, 3]), diagonal=-1),
            "triu": paddle.triu(paddle.arange(9).reshape([3, 3]), 1),
            "diag_vec": paddle.diag(paddle.to_tensor([1.0, 2.0]), offset=1),
            "diag_mat": paddle.diag(paddle.arange(9).reshape([3, 3])),
            "zeros_like": paddle.zeros_like(paddle.ones([2], dtype="float64")),
            "empty_shape": paddle.empty([2, 3]).shape,
            "mesh": [t for t in paddle.meshgrid(paddle.arange(3), paddle.arange(2))],
            "full": paddle.full([2], True), "flags": paddle.ones([2]).stop_gradient}


# ---------------------------------------------------------------- nn.functional


@program(item="fresh", **LAYER)
def f6_conv1d_padding_stride_grad(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _wave([1, 2, 7]))
    w = _leaf(paddle, _wave([3, 2, 3]) * 0.5)
    b = _leaf(paddle, [0.1, -0.2, 0.3])
    y = F.conv1d(x, w, b, stride=2, padding=1)
    ys = F.conv1d(x, w, padding="same")
    (y ** 2).sum().backward()
    return {"y": y, "ys_shape": ys.shape, "gx": x.grad, "gw": w.grad, "gb": b.grad}


@program(item="fresh", **LAYER)
def f6_conv2d_groups_dilation_grad(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _wave([1, 4, 5, 5]))
    w = _leaf(paddle, _wave([4, 2, 2, 2]) * 0.3)
    y = F.conv2d(x, w, groups=2, dilation=2, padding=1)
    (y * y).mean().backward()
    bad = attempt(F.conv2d, x, paddle.ones([4, 3, 2, 2]))
    return {"y": y, "gx": x.grad, "gw": w.grad, "bad": bad}


@program(item="fresh", **LAYER)
def f6_pooling_grads(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _wave([1, 1, 5, 5]))
    mp = F.max_pool2d(x, kernel_size=2, stride=2)
    mpc = F.max_pool2d(x, kernel_size=2, stride=2, ceil_mode=True)
    ap = F.avg_pool2d(x, kernel_size=3, stride=2, padding=1)
    apx = F.avg_pool2d(x, kernel_size=3, stride=2, padding=1, exclusive=False)
    gap = F.adaptive_avg_pool2d(x, 2)
    (mp.sum() + mpc.sum() + ap.sum() + apx.sum() + gap.sum()).backward()
    m1, i1 = F.max_pool1d(paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]]), 2,
                          return_mask=True)
    return {"mp": mp, "mpc_shape": mpc.shape, "ap": ap, "apx": apx, "gap": gap,
            "grad": x.grad, "m1": m1, "i1": i1}


@program(item="fresh", **LAYER)
def f6_batch_norm_functional_running_stats(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _wave([4, 2, 3]))
    rm = paddle.to_tensor([0.0, 0.0])
    rv = paddle.to_tensor([1.0, 1.0])
    w = _leaf(paddle, [1.0, 2.0])
    b = _leaf(paddle, [0.0, 0.5])
    y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.9)
    (y * paddle.to_tensor(_ramp([4, 2, 3]))).sum().backward()
    ye = F.batch_norm(x, rm, rv, w, b, training=False)
    return {"y": y, "rm": rm, "rv": rv, "gx": x.grad, "gw": w.grad, "gb": b.grad, "ye": ye}


@program(item="fresh", differs=(
        ["grad"],
        ("docs/paddle.md, paddle.nn: Paddle 3.3.1's layer_norm gradient for x takes a weight that "
         "needs no gradient as 1, and its group_norm without a weight gives a wrong gradient "
         "(central differences agree with opsdk)")), **LAYER)
def f6_layer_group_instance_norm(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _wave([2, 4, 3]))
    ln = F.layer_norm(x, normalized_shape=[3])
    ln2 = F.layer_norm(x, [4, 3], weight=paddle.full([12], 2.0), bias=paddle.ones([12]))
    gn = F.group_norm(x, num_groups=2)
    inn = F.instance_norm(x)
    w = paddle.to_tensor(_ramp([2, 4, 3]))
    ((ln * w).sum() + (gn * w).sum() + (inn * w * 0.5).sum() + ln2.sum()).backward()
    return {"ln": ln, "ln2": ln2, "gn": gn, "inn": inn, "grad": x.grad}


@program(item="fresh")
def f6_dropout_eval_and_p_zero(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _ramp([2, 3]))
    a = F.dropout(x, p=0.5, training=False)
    b = F.dropout(x, p=0.5, training=False, mode="downscale_in_infer")
    c = F.dropout(x, p=0.0, training=True)
    layer = paddle.nn.Dropout(p=0.3)
    layer.eval()
    d = layer(x)
    (a.sum() + b.sum() + c.sum() + d.sum()).backward()
    one = F.dropout(x, p=1.0, training=True)
    return {"a": a, "b": b, "c": c, "d": d, "grad": x.grad, "one": one}


@program(item="fresh")
def f6_activation_grads(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, [-3.0, -1.0, -0.2, 0.3, 1.0, 4.0], dtype="float64")
    acts = {"gelu": F.gelu(x), "gelu_tanh": F.gelu(x, approximate=True), "silu": F.silu(x),
            "softplus": F.softplus(x, beta=2.0), "leaky": F.leaky_relu(x, 0.1),
            "elu": F.elu(x, alpha=0.5), "hardswish": F.hardswish(x), "mish": F.mish(x),
            "selu": F.selu(x), "softsign": F.softsign(x), "relu6": F.relu6(x),
            "hardsigmoid": F.hardsigmoid(x), "log_sigmoid": F.log_sigmoid(x),
            "celu": F.celu(x, alpha=1.5), "tanhshrink": F.tanhshrink(x)}
    grads = {}
    for k, v in acts.items():
        grads[k], = paddle.grad(v.sum(), x)
    return {"acts": acts, "grads": grads}


@program(item="fresh")
def f6_losses_with_reductions(paddle):
    F = paddle.nn.functional
    p = _leaf(paddle, [0.2, 1.5, -0.3, 2.0])
    t = paddle.to_tensor([0.0, 1.0, 0.5, 3.0])
    out = {}
    for red in ("mean", "sum", "none"):
        out["mse_" + red] = F.mse_loss(p, t, reduction=red)
        out["l1_" + red] = F.l1_loss(p, t, reduction=red)
        out["sl1_" + red] = F.smooth_l1_loss(p, t, reduction=red, delta=0.5)
    total = out["mse_mean"] + out["l1_sum"] + out["sl1_none"].sum()
    total.backward()
    return {"out": out, "grad": p.grad}


@program(item="fresh")
def f6_bce_family_losses(paddle):
    F = paddle.nn.functional
    logit = _leaf(paddle, [[0.5, -1.0], [2.0, 0.0]])
    label = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    prob = F.sigmoid(logit)
    bce = F.binary_cross_entropy(prob, label)
    bcel = F.binary_cross_entropy_with_logits(logit, label, pos_weight=paddle.to_tensor(
        [2.0, 1.0]))
    bcew = F.binary_cross_entropy(prob, label, weight=paddle.to_tensor([1.0, 3.0]),
                                  reduction="sum")
    (bce + bcel + bcew).backward()
    return {"bce": bce, "bcel": bcel, "bcew": bcew, "grad": logit.grad}


@program(item="fresh")
def f6_cross_entropy_weight_ignore_index(paddle):
    F = paddle.nn.functional
    logits = _leaf(paddle, [[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, -1.0, 3.0],
                            [0.0, 0.0, 0.0]])
    label = paddle.to_tensor([0, 2, -100, 1])
    w = paddle.to_tensor([1.0, 2.0, 0.5])
    ce = F.cross_entropy(logits, label, weight=w, ignore_index=-100)
    ce_sum = F.cross_entropy(logits, label, ignore_index=-100, reduction="sum")
    (ce + ce_sum).backward()
    soft = F.cross_entropy(paddle.to_tensor([[1.0, 2.0, 3.0]]),
                           paddle.to_tensor([[0.2, 0.3, 0.5]]), soft_label=True)
    smooth = F.cross_entropy(paddle.to_tensor([[1.0, 2.0, 3.0]]), paddle.to_tensor([2]),
                             label_smoothing=0.1)
    return {"ce": ce, "ce_sum": ce_sum, "grad": logits.grad, "soft": soft, "smooth": smooth}


@program(item="fresh")
def f6_one_hot_and_embedding_padding_idx(paddle):
    F = paddle.nn.functional
    oh = F.one_hot(paddle.to_tensor([0, 2, 1]), num_classes=4)
    weight = _leaf(paddle, _ramp([5, 2]))
    ids = paddle.to_tensor([[0, 2], [2, 4]])
    e = F.embedding(ids, weight, padding_idx=2)
    (e * paddle.to_tensor([1.0, 10.0])).sum().backward()
    bad = attempt(F.one_hot, paddle.to_tensor([0, 5]), num_classes=3)
    return {"oh": oh, "e": e, "grad": weight.grad, "bad": bad}


@program(item="fresh")
def f6_pad_modes_grad(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _ramp([1, 1, 2, 3]))
    c = F.pad(x, [1, 0, 0, 1], mode="constant", value=-1.0)
    r = F.pad(x, [1, 1, 1, 1], mode="reflect")
    e = F.pad(x, [2, 0, 0, 0], mode="replicate")
    ci = F.pad(x, [1, 1, 0, 0], mode="circular")
    w = paddle.to_tensor(_ramp(r.shape))
    (c.sum() + (r * w).sum() + e.sum() + ci.sum()).backward()
    return {"c": c, "r": r, "e": e, "ci": ci, "grad": x.grad}


@program(item="fresh", **LAYER)
def f6_interpolate_modes_grad(paddle):
    F = paddle.nn.functional
    x = _leaf(paddle, _ramp([1, 1, 2, 3]))
    n = F.interpolate(x, scale_factor=2, mode="nearest")
    b = F.interpolate(x, size=[3, 5], mode="bilinear", align_corners=True)
    b2 = F.interpolate(x, size=[4, 4], mode="bilinear", align_corners=False)
    w = paddle.to_tensor(_ramp([1, 1, 3, 5]))
    (n.sum() + (b * w).sum() + (b2 ** 2).sum()).backward()
    return {"n": n, "b": b, "b2": b2, "grad": x.grad}


# ---------------------------------------------------------------- nn layers


@program(item="fresh")
def f6_linear_state_dict_roundtrip(paddle):
    lin = paddle.nn.Linear(3, 2)
    sd = lin.state_dict()
    keys = sorted(sd.keys())
    new = {"weight": paddle.to_tensor(_ramp([3, 2])), "bias": paddle.to_tensor([1.0, -1.0])}
    lin.set_state_dict(new)
    y = lin(paddle.ones([1, 3]))
    shapes = {k: v.shape for k, v in lin.named_parameters()}
    return {"keys": keys, "y": y, "shapes": shapes, "w_shape": lin.weight.shape,
            "n_params": len(lin.parameters()), "trainable": lin.weight.trainable}


@program(item="fresh", **LAYER)
def f6_conv2d_layer_backward(paddle):
    conv = paddle.nn.Conv2D(2, 3, kernel_size=3, padding=1, stride=1,
                            weight_attr=paddle.ParamAttr(
                                initializer=paddle.nn.initializer.Assign(
                                    _wave([3, 2, 3, 3]) * 0.2)),
                            bias_attr=paddle.ParamAttr(
                                initializer=paddle.nn.initializer.Constant(0.05)))
    x = _leaf(paddle, _wave([2, 2, 4, 4]), grad=False)
    y = conv(x)
    paddle.nn.functional.relu(y).mean().backward()
    return {"y_shape": y.shape, "w_grad": conv.weight.grad, "b_grad": conv.bias.grad,
            "w_shape": conv.weight.shape, "y": y}


@program(item="fresh", **LAYER)
def f6_batchnorm_layer_train_then_eval(paddle):
    bn = paddle.nn.BatchNorm1D(3, momentum=0.8)
    x = _leaf(paddle, _wave([4, 3]) * 3.0 + 1.0)
    y = bn(x)
    (y * paddle.to_tensor(_ramp([4, 3]))).sum().backward()
    mean_after, var_after = bn._mean.numpy().copy(), bn._variance.numpy().copy()
    bn.eval()
    ye = bn(x)
    bn2 = paddle.nn.BatchNorm2D(2)
    y2 = bn2(paddle.to_tensor(_wave([2, 2, 2, 2])))
    return {"y": y, "mean": mean_after, "var": var_after, "ye": ye, "gx": x.grad,
            "gw": bn.weight.grad, "gb": bn.bias.grad, "training": bn.training, "y2": y2}


@program(item="fresh")
def f6_sequential_and_layerlist(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU(),
                               paddle.nn.Linear(3, 1))
    blocks = paddle.nn.LayerList([paddle.nn.Linear(2, 2) for _ in range(3)])
    blocks.append(paddle.nn.Linear(2, 2))
    names = [n for n, _ in net.named_parameters()]
    sublayers = [type(m).__name__ for m in net.sublayers()]
    net.eval()
    modes = [m.training for m in net.sublayers()]
    net.train()
    return {"names": names, "sublayers": sublayers, "len_blocks": len(blocks),
            "n_block_params": len(blocks.parameters()), "eval_modes": modes,
            "train_mode": net[1].training, "first": type(net[0]).__name__,
            "sd_keys": sorted(net.state_dict().keys())}


# ---------------------------------------------------------------- optimizers and schedulers


def _quadratic_steps(paddle, make_opt, steps=3):
    w = paddle.create_parameter([3], "float32", default_initializer=paddle.nn.initializer.Assign(
        np.array([1.0, -2.0, 0.5], dtype="float32")))
    opt = make_opt([w])
    target = paddle.to_tensor([0.5, 0.5, 0.5])
    trace = []
    for _ in range(steps):
        loss = ((w - target) ** 2 * paddle.to_tensor([1.0, 2.0, 3.0])).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
        trace.append(w.numpy().copy())
    return trace


@program(item="fresh", **LAYER)
def f6_momentum_nesterov_weight_decay(paddle):
    opt = paddle.optimizer
    return {"momentum": _quadratic_steps(paddle, lambda ps: opt.Momentum(
                learning_rate=0.1, momentum=0.9, parameters=ps)),
            "nesterov": _quadratic_steps(paddle, lambda ps: opt.Momentum(
                learning_rate=0.1, momentum=0.9, use_nesterov=True, parameters=ps)),
            "decay": _quadratic_steps(paddle, lambda ps: opt.Momentum(
                learning_rate=0.1, momentum=0.5, weight_decay=0.1, parameters=ps)),
            "sgd_l2": _quadratic_steps(paddle, lambda ps: opt.SGD(
                learning_rate=0.1, weight_decay=paddle.regularizer.L2Decay(0.2),
                parameters=ps))}


@program(item="fresh", **LAYER)
def f6_adam_adamw_steps(paddle):
    opt = paddle.optimizer
    return {"adam": _quadratic_steps(paddle, lambda ps: opt.Adam(
                learning_rate=0.1, parameters=ps)),
            "adam_betas": _quadratic_steps(paddle, lambda ps: opt.Adam(
                learning_rate=0.1, beta1=0.5, beta2=0.9, epsilon=1e-6, parameters=ps)),
            "adamw": _quadratic_steps(paddle, lambda ps: opt.AdamW(
                learning_rate=0.1, weight_decay=0.1, parameters=ps)),
            "adam_l2": _quadratic_steps(paddle, lambda ps: opt.Adam(
                learning_rate=0.1, weight_decay=0.05, parameters=ps))}


@program(item="fresh", **LAYER)
def f6_rmsprop_adagrad_steps(paddle):
    opt = paddle.optimizer
    return {"rmsprop": _quadratic_steps(paddle, lambda ps: opt.RMSProp(
                learning_rate=0.05, parameters=ps)),
            "rms_centered": _quadratic_steps(paddle, lambda ps: opt.RMSProp(
                learning_rate=0.05, rho=0.9, momentum=0.5, centered=True, parameters=ps)),
            "adagrad": _quadratic_steps(paddle, lambda ps: opt.Adagrad(
                learning_rate=0.2, parameters=ps)),
            "adagrad_init": _quadratic_steps(paddle, lambda ps: opt.Adagrad(
                learning_rate=0.2, initial_accumulator_value=0.5, parameters=ps))}


@program(item="fresh", **LAYER)
def f6_grad_clip_by_norm_and_value(paddle):
    opt = paddle.optimizer
    nn = paddle.nn
    return {"by_norm": _quadratic_steps(paddle, lambda ps: opt.SGD(
                learning_rate=0.1, parameters=ps, grad_clip=nn.ClipGradByNorm(1.0))),
            "by_global": _quadratic_steps(paddle, lambda ps: opt.SGD(
                learning_rate=0.1, parameters=ps, grad_clip=nn.ClipGradByGlobalNorm(2.0))),
            "by_value": _quadratic_steps(paddle, lambda ps: opt.SGD(
                learning_rate=0.1, parameters=ps, grad_clip=nn.ClipGradByValue(max=1.5)))}


@program(item="fresh")
def f6_lr_schedulers_sequence(paddle):
    lr = paddle.optimizer.lr
    scheds = {"step": lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1),
              "cos": lr.CosineAnnealingDecay(learning_rate=1.0, T_max=4, eta_min=0.1),
              "exp": lr.ExponentialDecay(learning_rate=1.0, gamma=0.5),
              "multi": lr.MultiStepDecay(learning_rate=1.0, milestones=[1, 3], gamma=0.5),
              "warm": lr.LinearWarmup(learning_rate=0.5, warmup_steps=3, start_lr=0.0,
                                      end_lr=0.5),
              "poly": lr.PolynomialDecay(learning_rate=1.0, decay_steps=4, end_lr=0.0,
                                         power=2.0),
              "lambda": lr.LambdaDecay(learning_rate=2.0, lr_lambda=lambda e: 0.9 ** e)}
    out = {}
    for name, s in scheds.items():
        vals = []
        for _ in range(6):
            vals.append(s())
            s.step()
        out[name] = vals
    return out


# ---------------------------------------------------------------- linalg


@program(item="fresh")
def f6_linalg_inv_det_grad(paddle):
    a = _leaf(paddle, [[2.0, 1.0], [1.0, 3.0]], dtype="float64")
    inv = paddle.linalg.inv(a)
    det = paddle.linalg.det(a)
    (inv.sum() + det).backward()
    b = _leaf(paddle, [[4.0, 1.0], [2.0, 5.0]], dtype="float64")
    rhs = _leaf(paddle, [[1.0], [2.0]], dtype="float64")
    sol = paddle.linalg.solve(b, rhs)
    sol.sum().backward()
    return {"inv": inv, "det": det, "grad": a.grad, "sol": sol, "b_grad": b.grad,
            "rhs_grad": rhs.grad}


@program(item="fresh")
def f6_matmul_bmm_transpose_flags(paddle):
    x = _leaf(paddle, _ramp([2, 3]))
    y = _leaf(paddle, _ramp([2, 4], -1.0))
    m = paddle.matmul(x, y, transpose_x=True)
    a = _leaf(paddle, _ramp([2, 2, 3]))
    b = _leaf(paddle, _ramp([2, 3, 2], 1.0, -0.25))
    bm = paddle.bmm(a, b)
    v = paddle.matmul(paddle.to_tensor([1.0, 2.0, 3.0]), paddle.to_tensor([1.0, 0.0, -1.0]))
    mv = paddle.mv(x, paddle.to_tensor([1.0, 1.0, 2.0]))
    (m.sum() + bm.sum() + mv.sum()).backward()
    bad = attempt(paddle.matmul, x, y)
    return {"m": m, "bm": bm, "v": v, "v_shape": v.shape, "gx": x.grad, "gy": y.grad,
            "ga": a.grad, "gb": b.grad, "bad": bad}


# ---------------------------------------------------------------- errors a user meets


@program(item="fresh")
def f6_errors_shape_and_dtype(paddle):
    a = paddle.ones([2, 3])
    b = paddle.ones([3, 2])
    return {"add": attempt(lambda: a + b),
            "concat": attempt(paddle.concat, [a, paddle.ones([2, 2])], axis=0),
            "int_backward": attempt(lambda: paddle.to_tensor([1, 2]).sum().backward()),
            "matmul_dtype": attempt(paddle.matmul, a, paddle.ones([3, 2], dtype="float64")),
            "index": attempt(lambda: a[5]),
            "reshape": attempt(paddle.reshape, a, [4, 2]),
            "grad_leaf_no_flag": attempt(paddle.grad, (a * 2).sum(), a)}


@program(item="fresh")
def f6_errors_nonscalar_and_numpy_break(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = x * 2.0
    y_np = y.numpy()
    loss_np = (y_np ** 2).mean()
    back = attempt(lambda: paddle.to_tensor(loss_np).backward())
    grad_nonscalar = attempt(paddle.grad, y, x)
    return {"loss_np": float(loss_np), "back": back, "grad_nonscalar": grad_nonscalar,
            "x_grad": x.grad}
