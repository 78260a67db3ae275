"""Fresh differential programs (batch 1204): small dygraph programs a user would write from the
seed articles on Paddle's autograd and Paddle 3.3.1's API documentation, written without
looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


LAYER = {"rtol": 1e-4, "atol": 1e-5}


# ---------------------------------------------------------------- autograd basics


@program(item="fresh")
def f4_backward_cubic_plus_linear(paddle):
    x = _t(paddle, [-1.0, 0.5, 2.0])
    y = x ** 3 + 2 * x
    loss = paddle.sum(y)
    loss.backward()
    return {"loss": loss, "grad": x.grad, "y_sg": y.stop_gradient, "loss_shape": loss.shape}


@program(item="fresh")
def f4_grad_create_graph_second_order(paddle):
    x = _t(paddle, [1.0, -2.0, 0.5])
    y = (x ** 3).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (h,) = paddle.grad(g.sum(), x)
    return {"g": g, "h": h, "x_grad": x.grad}


@program(item="fresh")
def f4_retain_graph_two_backwards_accumulate(paddle):
    x = _t(paddle, [1.0, 3.0])
    y = (paddle.exp(x) * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    return {"first": first, "second": x.grad}


@program(item="fresh")
def f4_second_backward_without_retain_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x.sin() * x).sum()
    y.backward()
    return {"again": attempt(y.backward), "grad": x.grad}


@program(item="fresh")
def f4_hook_on_leaf_doubles(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return g * 2

    x.register_hook(hook)
    (x * x).sum().backward()
    return {"seen": seen, "grad": x.grad}


@program(item="fresh")
def f4_hook_on_nonleaf_changes_upstream(paddle):
    x = _t(paddle, [1.0, -1.0])
    y = x * 3
    y.register_hook(lambda g: g + 1.0)
    z = (y * y).sum()
    z.backward()
    return {"grad": x.grad, "y_grad": y.grad}


@program(item="fresh")
def f4_hook_removed_is_not_called(paddle):
    x = _t(paddle, [2.0, 4.0])
    calls = []
    h = x.register_hook(lambda g: calls.append(1) or g * 10)
    removed = h.remove()
    (x * 5).sum().backward()
    return {"calls": len(calls), "grad": x.grad, "removed": removed}


@program(item="fresh")
def f4_two_hooks_chain_in_order(paddle):
    x = _t(paddle, [1.0, 1.0])
    y = x * 2
    order = []
    y.register_hook(lambda g: order.append("a") or g * 3)
    y.register_hook(lambda g: order.append("b") or g + 1)
    y.sum().backward()
    return {"order": order, "grad": x.grad}


@program(item="fresh")
def f4_no_grad_context_result_flags(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.no_grad():
        y = x * 2
        inside = paddle.is_grad_enabled()
    z = x * 2
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "inside": inside,
            "after": paddle.is_grad_enabled(), "y_leaf": y.is_leaf}


@program(item="fresh")
def f4_no_grad_as_decorator(paddle):
    @paddle.no_grad()
    def double(t):
        return t * 2, paddle.is_grad_enabled()

    x = _t(paddle, [1.0, 2.0])
    y, inside = double(x)
    w = x * 2
    return {"y_sg": y.stop_gradient, "inside": inside, "after": paddle.is_grad_enabled(),
            "w_sg": w.stop_gradient}


@program(item="fresh")
def f4_set_grad_enabled_context(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.set_grad_enabled(False):
        y = x * 2
        mid = paddle.is_grad_enabled()
        with paddle.set_grad_enabled(True):
            z = x * 2
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "mid": mid,
            "after": paddle.is_grad_enabled()}


@program(item="fresh")
def f4_enable_grad_inside_no_grad(paddle):
    x = _t(paddle, [3.0])
    with paddle.no_grad():
        a = x * 2
        with paddle.enable_grad():
            b = x * 2
        c = x * 2
    b.sum().backward()
    return {"a": a.stop_gradient, "b": b.stop_gradient, "c": c.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f4_set_grad_enabled_decorator_restores(paddle):
    @paddle.set_grad_enabled(False)
    def f(t):
        return t * 2

    x = _t(paddle, [1.0])
    y = f(x)
    z = x * 2
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "after": paddle.is_grad_enabled()}


@program(item="fresh")
def f4_enable_grad_decorator(paddle):
    @paddle.enable_grad()
    def f(t):
        return t * t

    x = _t(paddle, [2.0, 3.0])
    with paddle.no_grad():
        y = f(x)
    y.sum().backward()
    return {"y_sg": y.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f4_detach_blocks_one_path(paddle):
    x = _t(paddle, [1.0, 2.0, 4.0])
    y = x.detach() * x
    y.sum().backward()
    d = x.detach()
    return {"grad": x.grad, "d_sg": d.stop_gradient, "d_leaf": d.is_leaf}


@program(item="fresh")
def f4_stop_gradient_propagation(paddle):
    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0, 4.0], grad=False)
    c = a + b
    d = b * 2
    e = paddle.concat([a, b])
    (c.sum() + e.sum()).backward()
    return {"c": c.stop_gradient, "d": d.stop_gradient, "e": e.stop_gradient,
            "a_grad": a.grad, "b_grad": b.grad}


@program(item="fresh")
def f4_clear_grad_then_accumulate(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    (x ** 2).sum().backward()
    (x ** 2).sum().backward()
    twice = x.grad.numpy().copy()
    x.clear_grad()
    cleared = x.grad
    (x * 4).sum().backward()
    return {"twice": twice, "cleared": cleared, "after": x.grad}


@program(item="fresh")
def f4_clear_gradient_set_to_zero_false(paddle):
    x = _t(paddle, [1.0, 2.0])
    (x * 3).sum().backward()
    x.clear_gradient(False)
    none_after = x.grad
    (x * 2).sum().backward()
    return {"none_after": none_after, "grad": x.grad}


@program(item="fresh")
def f4_grad_allow_unused(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [5.0])
    y = (x * x).sum()
    gx, gz = paddle.grad(y, [x, z], allow_unused=True)
    return {"gx": gx, "gz": gz}


@program(item="fresh")
def f4_grad_unused_without_allow_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [5.0])
    y = (x * x).sum()
    return {"r": attempt(paddle.grad, y, [x, z])}


@program(item="fresh")
def f4_grad_outputs_weight_vector(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    v = _t(paddle, [1.0, 0.5, -1.0], grad=False)
    (g,) = paddle.grad(y, x, grad_outputs=v)
    return {"g": g, "sg": g.stop_gradient}


@program(item="fresh")
def f4_retain_grads_nonleaf(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 3
    y.retain_grads()
    z = (y ** 2).sum()
    z.backward()
    return {"y_grad": y.grad, "x_grad": x.grad}


@program(item="fresh")
def f4_nonleaf_grad_none_by_default(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 3
    (y ** 2).sum().backward()
    return {"y_grad": y.grad, "y_leaf": y.is_leaf, "x_leaf": x.is_leaf}


@program(item="fresh")
def f4_third_derivative_of_quartic(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x ** 4).sum()
    (g1,) = paddle.grad(y, x, create_graph=True)
    (g2,) = paddle.grad(g1.sum(), x, create_graph=True)
    (g3,) = paddle.grad(g2.sum(), x)
    return {"g1": g1, "g2": g2, "g3": g3}


@program(item="fresh")
def f4_double_grad_backward_to_leaf(paddle):
    x = _t(paddle, [0.5, 1.5])
    y = (paddle.sin(x) * x).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (g * g).sum().backward()
    return {"g": g, "x_grad": x.grad, "g_sg": g.stop_gradient}


# ---------------------------------------------------------------- PyLayer


def _layer(paddle, forward, backward):
    """A PyLayer subclass with these forward(ctx, ...) and backward(ctx, ...) functions."""
    base = paddle.autograd.PyLayer
    return type(base)("UserLayer", (base,), {"forward": staticmethod(forward),
                                             "backward": staticmethod(backward)})


def _save_all(ctx, *tensors):
    ctx.save_for_backward(*tensors)


def _cube_layer(paddle):
    def forward(ctx, x):
        _save_all(ctx, x)
        return x ** 3

    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * 3 * x ** 2

    return _layer(paddle, forward, backward)


@program(item="fresh")
def f4_pylayer_saved_tensor(paddle):
    Cube = _cube_layer(paddle)
    x = _t(paddle, [1.0, -2.0, 0.5])
    y = Cube.apply(x)
    y.sum().backward()
    return {"y": y, "grad": x.grad, "y_sg": y.stop_gradient}


@program(item="fresh")
def f4_pylayer_two_in_two_out(paddle):
    def forward(ctx, a, b):
        _save_all(ctx, a, b)
        return a * b, a + b

    def backward(ctx, d_mul, d_add):
        a, b = ctx.saved_tensor()
        return d_mul * b + d_add, d_mul * a + d_add

    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0, -1.0])
    p, s = _layer(paddle, forward, backward).apply(a, b)
    (p * 2 + s * 3).sum().backward()
    return {"p": p, "s": s, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f4_pylayer_mark_non_differentiable(paddle):
    def forward(ctx, x):
        idx = paddle.argsort(x)
        out = paddle.gather(x, idx)
        ctx.mark_non_differentiable(idx)
        _save_all(ctx, idx)
        return out, idx

    def backward(ctx, dout, didx=None):
        (idx,) = ctx.saved_tensor()
        return paddle.scatter(paddle.zeros_like(dout), idx, dout)

    x = _t(paddle, [3.0, 1.0, 2.0])
    out, idx = _layer(paddle, forward, backward).apply(x)
    (out * paddle.to_tensor(np.array([1.0, 10.0, 100.0]))).sum().backward()
    return {"out": out, "idx": idx, "idx_sg": idx.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f4_pylayer_double_backward(paddle):
    def forward(ctx, x):
        _save_all(ctx, x)
        return x * x

    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 2 * x * dy

    x = _t(paddle, [1.5, -0.5])
    y = _layer(paddle, forward, backward).apply(x).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (h,) = paddle.grad(g.sum(), x)
    return {"g": g, "h": h}


# differences by design, found by these programs (docs/paddle.md)
PYLAYER_HOOK = ("docs/paddle.md, PyLayer: a gradient a hook on a PyLayer's output returns "
                "replaces the one flowing into backward in opsdk; Paddle calls the hook and drops "
                "its result")


@program(item="fresh", differs=(["grad"], PYLAYER_HOOK))
def f4_pylayer_output_hook(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = _cube_layer(paddle).apply(x)
    seen = []
    y.register_hook(lambda g: seen.append(g.numpy().copy()) or g * 0.5)
    (y * 4).sum().backward()
    return {"seen": seen, "grad": x.grad}


@program(item="fresh")
def f4_pylayer_non_tensor_argument(paddle):
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x * alpha

    x = _t(paddle, [1.0, 2.0, 3.0])
    y = _layer(paddle, forward, lambda ctx, dy: dy * ctx.alpha).apply(x, 2.5)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_pylayer_input_without_grad(paddle):
    def forward(ctx, a, b):
        _save_all(ctx, a, b)
        return a * b

    def backward(ctx, dy):
        a, b = ctx.saved_tensor()
        return dy * b, None

    a = _t(paddle, [2.0, 3.0])
    b = _t(paddle, [4.0, 5.0], grad=False)
    y = _layer(paddle, forward, backward).apply(a, b)
    y.sum().backward()
    return {"y": y, "ga": a.grad, "gb": b.grad}


# ---------------------------------------------------------------- in-place and versions


@program(item="fresh")
def f4_inplace_on_leaf_needing_grad_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    return {"r": attempt(lambda: x.add_(paddle.to_tensor(np.array([1.0, 1.0])))),
            "x": x.detach()}


@program(item="fresh")
def f4_inplace_on_nonleaf_gradient(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    y.add_(paddle.to_tensor(np.array([1.0, 1.0])))
    y.scale_(3.0)
    (y * y).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_inplace_version_counter(paddle):
    x = paddle.to_tensor(np.array([1.0, 2.0]))
    v0 = x.inplace_version
    x.add_(paddle.to_tensor(np.array([1.0, 1.0])))
    v1 = x.inplace_version
    x.scale_(2.0)
    x[0] = 7.0
    v3 = x.inplace_version
    return {"v": [v0, v1, v3], "x": x}


@program(item="fresh")
def f4_inplace_after_save_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    z = y * y
    y.add_(paddle.to_tensor(np.array([1.0, 1.0])))
    return {"r": attempt(lambda: z.sum().backward()), "y": y.detach()}


@program(item="fresh")
def f4_functional_relu_inplace_grad(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-1.0, 0.5, 2.0])
    y = x * 1.0
    F.relu_(y)
    (y * y).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_setitem_blocks_gradient(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * 2
    y[1] = 0.0
    (y * x).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_clip_inplace_nonleaf(paddle):
    x = _t(paddle, [-2.0, 0.3, 5.0])
    y = x * 1.0
    y.clip_(min=-1.0, max=1.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_no_grad_inplace_update_of_leaf(paddle):
    w = _t(paddle, [0.0])
    for _ in range(3):
        loss = ((w - 3.0) ** 2).sum()
        loss.backward()
        with paddle.no_grad():
            # the seed's `w -= 0.1 * w.grad` rebinds w under Paddle 3.3.1 (a documented
            # difference, docs/paddle.md "In place and views"): update in place explicitly
            w.subtract_(0.1 * w.grad)
        w.clear_gradient()
    return {"w": w, "sg": w.stop_gradient, "leaf": w.is_leaf, "version": w.inplace_version,
            "grad": w.grad}


# ---------------------------------------------------------------- elementwise maths


def _unary_grads(paddle, cases):
    """{name: [paddle.name(x), d sum / dx]} for each (name, values) case."""
    out = {}
    for name, vals in cases:
        x = _t(paddle, vals)
        y = getattr(paddle, name)(x)
        y.sum().backward()
        out[name] = [y, x.grad]
    return out


@program(item="fresh")
def f4_inverse_trig_grads(paddle):
    return _unary_grads(paddle, [(n, [-0.5, 0.1, 0.7]) for n in ("tan", "asin", "acos", "atan")])


@program(item="fresh")
def f4_hyperbolic_grads(paddle):
    return _unary_grads(paddle, (("sinh", [-1.0, 0.5]), ("cosh", [-1.0, 0.5]),
                                 ("asinh", [-2.0, 0.3]), ("acosh", [1.5, 3.0]),
                                 ("atanh", [-0.5, 0.9])))


@program(item="fresh")
def f4_lgamma_digamma_grads(paddle):
    x = _t(paddle, [0.5, 1.0, 3.5])
    y = paddle.lgamma(x)
    y.sum().backward()
    g1 = x.grad.numpy().copy()
    x2 = _t(paddle, [0.5, 1.0, 3.5])
    d = paddle.digamma(x2)
    d.sum().backward()
    return {"lgamma": y, "g_lgamma": g1, "digamma": d, "g_digamma": x2.grad}


@program(item="fresh")
def f4_logit_with_eps(paddle):
    x = _t(paddle, [0.0, 0.25, 0.9, 1.0])
    y = paddle.logit(x, eps=1e-3)
    y.sum().backward()
    x2 = _t(paddle, [0.2, 0.5])
    y2 = paddle.logit(x2)
    return {"y": y, "grad": x.grad, "y2": y2}


@program(item="fresh")
def f4_nan_to_num_values_and_grad(paddle):
    x = _t(paddle, [float("nan"), float("inf"), -float("inf"), 2.0])
    y = paddle.nan_to_num(x, nan=0.5, posinf=100.0, neginf=-100.0)
    (y * 3).sum().backward()
    return {"y": y, "grad": x.grad, "default": paddle.nan_to_num(x.detach())}


@program(item="fresh")
def f4_hypot_grad(paddle):
    a = _t(paddle, [3.0, 5.0, -1.0])
    b = _t(paddle, [4.0, 12.0, 1.0])
    y = paddle.hypot(a, b)
    y.sum().backward()
    return {"y": y, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f4_erf_erfinv_grads(paddle):
    x = _t(paddle, [-0.5, 0.0, 0.8])
    y = paddle.erf(x)
    z = paddle.erfinv(y)
    z.sum().backward()
    x2 = _t(paddle, [0.3])
    paddle.erf(x2).sum().backward()
    return {"z": z, "grad": x.grad, "erf_grad": x2.grad}


@program(item="fresh")
def f4_pow_tensor_exponent_grads(paddle):
    x = _t(paddle, [1.5, 2.0, 3.0])
    e = _t(paddle, [2.0, 0.5, -1.0])
    y = paddle.pow(x, e)
    y.sum().backward()
    x2 = _t(paddle, [1.5, 2.0])
    y2 = paddle.pow(x2, 2.5)
    y2.sum().backward()
    return {"y": y, "gx": x.grad, "ge": e.grad, "y2": y2, "g2": x2.grad}


@program(item="fresh")
def f4_atan2_grad(paddle):
    y = _t(paddle, [1.0, -1.0, 2.0])
    x = _t(paddle, [1.0, 1.0, -3.0])
    r = paddle.atan2(y, x)
    r.sum().backward()
    return {"r": r, "gy": y.grad, "gx": x.grad}


@program(item="fresh")
def f4_maximum_minimum_grads(paddle):
    a = _t(paddle, [1.0, 5.0, 3.0])
    b = _t(paddle, [2.0, 4.0, 6.0])
    (paddle.maximum(a, b) * 2 + paddle.minimum(a, b)).sum().backward()
    return {"ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f4_where_grad_both_branches(paddle):
    x = _t(paddle, [-1.0, 2.0, -3.0, 4.0])
    y = paddle.where(x > 0, x * x, -x * 3)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_activations_grads(paddle):
    F = paddle.nn.functional
    out = {}
    for name in ("sigmoid", "tanh", "softplus", "gelu", "silu", "elu", "leaky_relu", "mish"):
        x = _t(paddle, [-1.5, -0.2, 0.7, 2.0])
        y = getattr(F, name)(x)
        y.sum().backward()
        out[name] = [y, x.grad]
    return out


# ---------------------------------------------------------------- reductions


@program(item="fresh")
def f4_max_min_reduce_grads(paddle):
    x = _t(paddle, [[1.0, 7.0, 3.0], [4.0, 2.0, 6.0]])
    mx = paddle.max(x, axis=1)
    mn = paddle.min(x, axis=0)
    (mx.sum() + mn.sum() * 10).sum().backward()
    return {"mx": mx, "mn": mn, "grad": x.grad}


@program(item="fresh")
def f4_prod_grad_nonzero(paddle):
    x = _t(paddle, [[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]])
    p = paddle.prod(x, axis=1)
    p.sum().backward()
    return {"p": p, "grad": x.grad}


@program(item="fresh")
def f4_std_var_grads(paddle):
    x = _t(paddle, [1.0, 2.0, 4.0, 7.0])
    v = paddle.var(x)
    s = paddle.std(x, unbiased=False)
    (v + s).backward()
    return {"v": v, "s": s, "grad": x.grad}


# ---------------------------------------------------------------- indexing


@program(item="fresh")
def f4_slice_step_grad(paddle):
    x = _t(paddle, np.arange(12.0).reshape(3, 4))
    y = x[1:3, ::2]
    (y * y).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_repeated_index_accumulates(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    idx = paddle.to_tensor(np.array([0, 0, 2, 0]))
    y = x[idx]
    (y * paddle.to_tensor(np.array([1.0, 2.0, 3.0, 4.0]))).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_boolean_mask_grad(paddle):
    x = _t(paddle, [-1.0, 2.0, -3.0, 4.0])
    y = x[x > 0]
    (y ** 2).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f4_gather_index_select_grads(paddle):
    x = _t(paddle, np.arange(6.0).reshape(3, 2))
    idx = paddle.to_tensor(np.array([2, 0, 2]))
    g = paddle.gather(x, idx)
    s = paddle.index_select(x, paddle.to_tensor(np.array([1])), axis=1)
    (g.sum() + (s * 5).sum()).backward()
    return {"g": g, "s": s, "grad": x.grad}


@program(item="fresh")
def f4_take_along_axis_and_scatter(paddle):
    x = _t(paddle, [[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])
    idx = paddle.to_tensor(np.array([[2], [0]]))
    t = paddle.take_along_axis(x, idx, axis=1)
    upd = _t(paddle, [[1.0, 1.0, 1.0]])
    sc = paddle.scatter(x, paddle.to_tensor(np.array([1])), upd)
    (t.sum() + (sc * 2).sum()).backward()
    return {"t": t, "sc": sc, "gx": x.grad, "gu": upd.grad}


# ---------------------------------------------------------------- nn layers


def _set(paddle, param, values):
    param.set_value(np.array(values, dtype="float32"))


@program(item="fresh", **LAYER)
def f4_linear_layer_grads(paddle):
    lin = paddle.nn.Linear(3, 2)
    _set(paddle, lin.weight, [[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]])
    _set(paddle, lin.bias, [0.01, -0.02])
    x = paddle.to_tensor(np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], dtype="float32"))
    y = lin(x)
    y.mean().backward()
    return {"y": y, "w": lin.weight.grad, "b": lin.bias.grad, "shape": lin.weight.shape,
            "sg": lin.weight.stop_gradient}


@program(item="fresh", **LAYER)
def f4_conv2d_grads(paddle):
    conv = paddle.nn.Conv2D(1, 2, kernel_size=2, stride=1, padding=1)
    w = np.arange(8, dtype="float32").reshape(2, 1, 2, 2) / 10.0
    _set(paddle, conv.weight, w)
    _set(paddle, conv.bias, [0.5, -0.5])
    x = paddle.to_tensor(np.arange(9, dtype="float32").reshape(1, 1, 3, 3), stop_gradient=False)
    y = conv(x)
    (y * y).sum().backward()
    return {"y": y, "gw": conv.weight.grad, "gb": conv.bias.grad, "gx": x.grad}


@program(item="fresh", **LAYER)
def f4_conv1d_stride_grads(paddle):
    conv = paddle.nn.Conv1D(2, 1, kernel_size=3, stride=2)
    _set(paddle, conv.weight, [[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]])
    _set(paddle, conv.bias, [0.1])
    x = paddle.to_tensor(np.arange(14, dtype="float32").reshape(1, 2, 7), stop_gradient=False)
    y = conv(x)
    y.sum().backward()
    return {"y": y, "gw": conv.weight.grad, "gx": x.grad}


@program(item="fresh", **LAYER)
def f4_pools_grads(paddle):
    x = paddle.to_tensor(np.array([[[[1, 5, 2, 0], [3, 4, 8, 1], [0, 2, 6, 7], [9, 1, 3, 2]]]],
                                  dtype="float32"), stop_gradient=False)
    mp = paddle.nn.MaxPool2D(kernel_size=2, stride=2)(x)
    ap = paddle.nn.AvgPool2D(kernel_size=2, stride=2)(x)
    (mp.sum() + ap.sum() * 2).backward()
    return {"mp": mp, "ap": ap, "gx": x.grad}


@program(item="fresh", **LAYER)
def f4_batchnorm2d_train_then_eval(paddle):
    bn = paddle.nn.BatchNorm2D(2)
    x = paddle.to_tensor(np.arange(16, dtype="float32").reshape(2, 2, 2, 2), stop_gradient=False)
    y = bn(x)
    (y * paddle.arange(16, dtype="float32").reshape([2, 2, 2, 2])).sum().backward()
    bn.eval()
    y_eval = bn(x)
    return {"y": y, "gx": x.grad, "mean": bn._mean, "var": bn._variance, "y_eval": y_eval,
            "gw": bn.weight.grad}


@program(item="fresh", **LAYER)
def f4_batchnorm1d_running_stats(paddle):
    bn = paddle.nn.BatchNorm1D(3, momentum=0.5)
    x = paddle.to_tensor(np.array([[1.0, 2.0, 3.0], [3.0, 6.0, 0.0], [2.0, 1.0, 3.0]],
                                  dtype="float32"))
    bn(x)
    bn(x * 2)
    return {"mean": bn._mean, "var": bn._variance}


@program(item="fresh", **LAYER)
def f4_layernorm_grads(paddle):
    ln = paddle.nn.LayerNorm(4)
    _set(paddle, ln.weight, [1.0, 2.0, 0.5, -1.0])
    x = paddle.to_tensor(np.array([[1.0, 2.0, 4.0, 8.0], [0.0, -1.0, 1.0, 3.0]],
                                  dtype="float32"), stop_gradient=False)
    y = ln(x)
    (y * paddle.to_tensor(np.array([1.0, 0.0, 2.0, 1.0], dtype="float32"))).sum().backward()
    return {"y": y, "gx": x.grad, "gw": ln.weight.grad, "gb": ln.bias.grad}


@program(item="fresh")
def f4_dropout_train_eval(paddle):
    drop = paddle.nn.Dropout(p=0.5)
    x = paddle.ones([4, 6], dtype="float32")
    y = drop(x)
    vals = set(np.unique(y.numpy()).tolist())
    drop.eval()
    z = drop(x)
    return {"shape": y.shape, "vals_ok": vals <= {0.0, 2.0}, "eval": z,
            "fn_eval": paddle.nn.functional.dropout(x, p=0.3, training=False)}


@program(item="fresh", **LAYER)
def f4_embedding_padding_idx_grad(paddle):
    emb = paddle.nn.Embedding(4, 2, padding_idx=0)
    _set(paddle, emb.weight, [[0.0, 0.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = paddle.to_tensor(np.array([[0, 1, 1], [3, 0, 2]]))
    y = emb(ids)
    (y * 2).sum().backward()
    return {"y": y, "gw": emb.weight.grad}


# ---------------------------------------------------------------- losses


@program(item="fresh")
def f4_regression_losses(paddle):
    F = paddle.nn.functional
    p = _t(paddle, [0.5, 2.0, -1.0, 3.0])
    t = _t(paddle, [1.0, 1.0, 1.0, 1.0], grad=False)
    mse = F.mse_loss(p, t)
    l1 = F.l1_loss(p, t, reduction="sum")
    sl1 = F.smooth_l1_loss(p, t)
    (mse + l1 + sl1).backward()
    return {"mse": mse, "l1": l1, "sl1": sl1, "grad": p.grad}


@program(item="fresh")
def f4_cross_entropy_weighted_smoothing(paddle):
    F = paddle.nn.functional
    logits = _t(paddle, [[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]])
    label = paddle.to_tensor(np.array([1, 2]))
    w = paddle.to_tensor(np.array([1.0, 2.0, 0.5]))
    ce = F.cross_entropy(logits, label, weight=w)
    ce.backward()
    g1 = logits.grad.numpy().copy()
    logits.clear_grad()
    ls = F.cross_entropy(logits, label, label_smoothing=0.1)
    ls.backward()
    return {"ce": ce, "g1": g1, "ls": ls, "g2": logits.grad}


@program(item="fresh")
def f4_bce_with_logits_pos_weight(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[0.5, -1.0], [2.0, 0.0]])
    y = _t(paddle, [[1.0, 0.0], [0.0, 1.0]], grad=False)
    pw = _t(paddle, [2.0, 1.0], grad=False)
    loss = F.binary_cross_entropy_with_logits(z, y, pos_weight=pw)
    loss.backward()
    bce = F.binary_cross_entropy(F.sigmoid(z.detach()), y)
    return {"loss": loss, "grad": z.grad, "bce": bce}


# ---------------------------------------------------------------- optimizers


def _quad_params(paddle):
    w = paddle.create_parameter(shape=[2], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(1.0))
    return w


def _run_opt(paddle, make, steps=3):
    w = _quad_params(paddle)
    opt = make([w])
    target = paddle.to_tensor(np.array([3.0, -2.0], dtype="float32"))
    history = []
    for _ in range(steps):
        loss = ((w - target) ** 2).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
        history.append(w.numpy().copy())
    return {"history": history, "grad": w.grad}


@program(item="fresh", **LAYER)
def f4_sgd_steps(paddle):
    return _run_opt(paddle, lambda ps: paddle.optimizer.SGD(learning_rate=0.1, parameters=ps))


@program(item="fresh", **LAYER)
def f4_adam_steps(paddle):
    return _run_opt(paddle, lambda ps: paddle.optimizer.Adam(learning_rate=0.05, parameters=ps))


@program(item="fresh", **LAYER)
def f4_adamw_steps(paddle):
    return _run_opt(paddle, lambda ps: paddle.optimizer.AdamW(learning_rate=0.05, parameters=ps,
                                                              weight_decay=0.1))


@program(item="fresh", **LAYER)
def f4_momentum_nesterov_steps(paddle):
    out = _run_opt(paddle, lambda ps: paddle.optimizer.Momentum(
        learning_rate=0.05, momentum=0.9, parameters=ps))
    out2 = _run_opt(paddle, lambda ps: paddle.optimizer.Momentum(
        learning_rate=0.05, momentum=0.9, parameters=ps, use_nesterov=True))
    return {"plain": out, "nesterov": out2}


# ---------------------------------------------------------------- jacobian / hessian


@program(item="fresh")
def f4_autograd_jacobian(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x * paddle.to_tensor(np.array([1.0, 2.0, 3.0]))
    J = paddle.autograd.jacobian(y, x)
    return {"J": J[:], "shape": J.shape}


@program(item="fresh")
def f4_autograd_hessian(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x[0] ** 2 * x[1] + x[1] ** 3)
    H = paddle.autograd.hessian(y, x)
    return {"H": H[:], "shape": H.shape}


# ---------------------------------------------------------------- errors


@program(item="fresh")
def f4_errors_shape_mismatch(paddle):
    a = _t(paddle, np.ones((2, 3)))
    b = _t(paddle, np.ones((2, 3)))
    return {"matmul": attempt(paddle.matmul, a, b),
            "reshape": attempt(paddle.reshape, a, [4, 2]),
            "add": attempt(lambda: a + _t(paddle, np.ones((3, 2))))}


@program(item="fresh")
def f4_grad_of_stop_gradient_output_raises(paddle):
    x = _t(paddle, [1.0, 2.0], grad=False)
    y = (x * 2).sum()
    return {"r": attempt(paddle.grad, y, x)}
