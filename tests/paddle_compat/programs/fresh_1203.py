"""Fresh differential programs (batch 1203): small user programs of the kinds Paddle's docs and
tutorials show, written from Paddle's API documentation without looking at opsdk."""
import os
import tempfile

import numpy as np

from . import program


def _t(paddle, values, grad=True, dtype="float32"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class of what raised is the observation
        return type(e).__name__
    return "no error"


# differences by design, found by these programs (docs/paddle.md)
ERROR_CLASS = ("docs/paddle.md, Errors: opsdk raises its own class, a subclass of the built-in "
               "Paddle raises (except ValueError/RuntimeError/SystemError catches both); the "
               "program records the class's name")
PROD_AT_ZERO = ("docs/paddle.md, Engine: prod's gradient at a zero entry is the product of the "
                "others in opsdk; Paddle divides the product by x and gives nan there")


# ---------------------------------------------------------------- autograd basics


@program(item="fresh")
def f3_grad_accumulates_over_three_losses(paddle):
    w = _t(paddle, [0.5, -1.0])
    grads = []
    for k in range(3):
        loss = ((w * (k + 1)) ** 2).sum()
        loss.backward()
        grads.append(w.grad.numpy().copy())
    w.clear_grad()
    after_clear = w.grad
    (w * 3).sum().backward()
    return {"grads": grads, "after_clear": after_clear, "final": w.grad}


@program(item="fresh")
def f3_detach_shares_storage(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    d = x.detach()
    d[0] = 10.0
    return {"x": x, "d": d}


@program(item="fresh")
def f3_retain_graph_double_backward(paddle):
    x = _t(paddle, [1.5, -2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    return {"first": first, "second": x.grad}


@program(item="fresh", differs=(["error"], ERROR_CLASS))
def f3_second_backward_without_retain_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x.exp()).sum()
    y.backward()
    return {"error": _err(lambda: y.backward()), "grad": x.grad}


@program(item="fresh")
def f3_grad_create_graph_x4(paddle):
    x = _t(paddle, [1.0, 2.0, -1.0])
    y = (x ** 4).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (g2,) = paddle.grad(g.sum(), x)
    return {"g": g, "g2": g2, "x_grad": x.grad}


@program(item="fresh")
def f3_third_order_sin(paddle):
    x = _t(paddle, [0.0, 0.5, 1.0])
    y = paddle.sin(x)
    (d1,) = paddle.grad(y.sum(), x, create_graph=True)
    (d2,) = paddle.grad(d1.sum(), x, create_graph=True)
    (d3,) = paddle.grad(d2.sum(), x)
    return {"d1": d1, "d2": d2, "d3": d3}


@program(item="fresh")
def f3_grad_allow_unused(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [3.0])
    y = (x * 2).sum()
    gx, gz = paddle.grad(y, [x, z], allow_unused=True)
    return {"gx": gx, "gz_is_none": gz is None}


@program(item="fresh", differs=(["error"], ERROR_CLASS))
def f3_grad_unused_without_flag_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [3.0])
    y = (x * 2).sum()
    return {"error": _err(lambda: paddle.grad(y, [x, z]))}


@program(item="fresh")
def f3_grad_with_grad_outputs(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = x * x + x
    v = paddle.to_tensor([[1.0, 0.0], [0.5, 2.0]])
    (g,) = paddle.grad([y], [x], grad_outputs=[v])
    return {"g": g}


@program(item="fresh", differs=(["error"], ERROR_CLASS))
def f3_grad_of_stop_gradient_input_raises(paddle):
    x = _t(paddle, [1.0, 2.0], grad=False)
    w = _t(paddle, [3.0, 4.0])
    y = (x * w).sum()
    return {"error": _err(lambda: paddle.grad(y, x))}


# ---------------------------------------------------------------- grad modes

@program(item="fresh")
def f3_no_grad_context_and_decorator(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.no_grad():
        a = x * 2

    @paddle.no_grad()
    def double(t):
        return t * 2

    b = double(x)
    c = x * 2
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient, "c_sg": c.stop_gradient,
            "a": a}


@program(item="fresh")
def f3_enable_grad_inside_no_grad(paddle):
    x = _t(paddle, [2.0, 3.0])
    with paddle.no_grad():
        with paddle.enable_grad():
            y = x * x
        z = x * x
    y.sum().backward()
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f3_set_grad_enabled_flags(paddle):
    x = _t(paddle, [1.0])
    before = paddle.is_grad_enabled()
    with paddle.set_grad_enabled(False):
        inside = paddle.is_grad_enabled()
        y = x + 1
    after = paddle.is_grad_enabled()
    return {"before": before, "inside": inside, "after": after, "y_sg": y.stop_gradient}


# ---------------------------------------------------------------- hooks, retain_grads

@program(item="fresh")
def f3_hook_doubles_intermediate_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * 3
    y.register_hook(lambda g: g * 2)
    (y * y).sum().backward()
    return {"grad": x.grad}


@program(item="fresh")
def f3_hook_removed_has_no_effect(paddle):
    x = _t(paddle, [1.0, -1.0])
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return g * 10

    h = x.register_hook(hook)
    (x * 2).sum().backward()
    first = x.grad.numpy().copy()
    h.remove()
    x.clear_grad()
    (x * 2).sum().backward()
    return {"first": first, "second": x.grad, "calls": len(seen), "seen": seen}


@program(item="fresh")
def f3_retain_grads_intermediate(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    y.retain_grads()
    z = y * 5
    (z ** 2).sum().backward()
    return {"y_grad": y.grad, "z_grad_none": z.grad is None, "x_grad": x.grad}


@program(item="fresh")
def f3_param_hook_clips_grad(paddle):
    paddle.seed(1)
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[1.0], [2.0]], dtype="float32"))
    lin.bias.set_value(np.array([0.5], dtype="float32"))
    lin.weight.register_hook(lambda g: paddle.clip(g, -1.0, 1.0))
    x = paddle.to_tensor([[3.0, -4.0], [2.0, 1.0]])
    lin(x).sum().backward()
    return {"w_grad": lin.weight.grad, "b_grad": lin.bias.grad}


# ---------------------------------------------------------------- PyLayer

@program(item="fresh")
def f3_pylayer_cube(paddle):
    class Cube(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return 3 * x * x * dy

    x = _t(paddle, [1.0, -2.0, 0.5])
    y = Cube.apply(x)
    (y * 2).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_pylayer_mark_non_differentiable(paddle):
    class SortWithIndex(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = paddle.argsort(x)
            out = paddle.gather(x, idx)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            return out, idx

        @staticmethod
        def backward(ctx, dout, didx):
            (idx,) = ctx.saved_tensor()
            return paddle.scatter(paddle.zeros_like(dout), idx, dout)

    x = _t(paddle, [3.0, 1.0, 2.0])
    out, idx = SortWithIndex.apply(x)
    (out * paddle.to_tensor([1.0, 10.0, 100.0])).sum().backward()
    return {"out": out, "idx": idx, "idx_sg": idx.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f3_pylayer_double_backward(paddle):
    class Square(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return 2 * x * dy

    x = _t(paddle, [1.0, 3.0])
    y = Square.apply(x)
    (g,) = paddle.grad(y.sum(), x, create_graph=True)
    (g2,) = paddle.grad((g * g).sum(), x)
    return {"g": g, "g2": g2}


@program(item="fresh")
def f3_pylayer_with_python_scalar(paddle):
    class ScaleShift(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, alpha, beta=1.0):
            ctx.alpha = alpha
            return x * alpha + beta

        @staticmethod
        def backward(ctx, dy):
            return dy * ctx.alpha

    x = _t(paddle, [1.0, 2.0, 3.0])
    y = ScaleShift.apply(x, 4.0, beta=-1.0)
    y.mean().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_pylayer_two_inputs_one_frozen(paddle):
    class Mul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, dy):
            a, b = ctx.saved_tensor()
            return dy * b, None

    a = _t(paddle, [2.0, 3.0])
    b = _t(paddle, [5.0, 7.0], grad=False)
    y = Mul.apply(a, b)
    y.sum().backward()
    return {"a_grad": a.grad, "b_grad_none": b.grad is None, "y_sg": y.stop_gradient}


# ---------------------------------------------------------------- in-place

@program(item="fresh", differs=(["error"], ERROR_CLASS))
def f3_inplace_after_exp_version_error(paddle):
    x = _t(paddle, [0.0, 1.0])
    y = paddle.exp(x)
    y.add_(paddle.ones([2]))
    return {"error": _err(lambda: y.sum().backward()), "y": y.detach()}


@program(item="fresh", differs=(["error"], ERROR_CLASS))
def f3_inplace_on_leaf_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    return {"error": _err(lambda: x.add_(paddle.ones([2]))), "x": x}


@program(item="fresh")
def f3_inplace_version_counts(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    v0 = x.inplace_version
    x.scale_(2.0)
    x.add_(paddle.ones([3]))
    v2 = x.inplace_version
    x[0] = 5.0
    return {"v0": v0, "v2": v2, "v3": x.inplace_version, "x": x}


@program(item="fresh")
def f3_inplace_scale_nonleaf_backward(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    y.scale_(3.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_setitem_zeroes_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0, 4.0])
    y = x * 1.0
    y[1] = 0.0
    y[3] = x[0] * 7
    (y * y).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_functional_relu_inplace(paddle):
    x = _t(paddle, [-1.0, 0.5, 2.0])
    y = x * 2
    z = paddle.nn.functional.relu_(y)
    (z * z).sum().backward()
    return {"z": z, "grad": x.grad}


# ---------------------------------------------------------------- maths and indexing

@program(item="fresh")
def f3_index_select_duplicates_grad(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    idx = paddle.to_tensor([0, 2, 0, 0])
    y = paddle.index_select(x, idx, axis=0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_list_index_and_slice_grad(paddle):
    x = _t(paddle, np.arange(12).reshape(3, 4))
    a = x[[0, 2, 0]]
    b = x[::2, 1:]
    (a.sum() + (b * b).sum()).backward()
    return {"a": a, "b": b, "grad": x.grad}


@program(item="fresh")
def f3_bool_mask_select_grad(paddle):
    x = _t(paddle, [[-1.0, 2.0], [3.0, -4.0]])
    sel = x[x > 0]
    (sel * sel).sum().backward()
    return {"sel": sel, "grad": x.grad}


@program(item="fresh")
def f3_matmul_transpose_y_grad(paddle):
    a = _t(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = _t(paddle, [[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]])
    c = paddle.matmul(a, b, transpose_y=True)
    c.sum().backward()
    return {"c": c, "a_grad": a.grad, "b_grad": b.grad}


@program(item="fresh")
def f3_clip_grad_at_bounds(paddle):
    x = _t(paddle, [-2.0, -1.0, 0.0, 1.0, 2.0])
    y = paddle.clip(x, min=-1.0, max=1.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_abs_sign_grad_at_zero(paddle):
    x = _t(paddle, [-3.0, 0.0, 2.0])
    y = paddle.abs(x)
    y.sum().backward()
    return {"y": y, "grad": x.grad, "sign": paddle.sign(x)}


@program(item="fresh")
def f3_maximum_minimum_ties(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = _t(paddle, [1.0, 5.0, 0.0])
    (paddle.maximum(x, y) + 2 * paddle.minimum(x, y)).sum().backward()
    return {"x_grad": x.grad, "y_grad": y.grad}


# ---------------------------------------------------------------- reductions

@program(item="fresh")
def f3_max_reduce_ties_grad(paddle):
    x = _t(paddle, [[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]])
    m = paddle.max(x, axis=1)
    m.sum().backward()
    return {"m": m, "grad": x.grad}


@program(item="fresh")
def f3_amax_ties_grad(paddle):
    x = _t(paddle, [[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]])
    m = paddle.amax(x, axis=1)
    m.sum().backward()
    return {"m": m, "grad": x.grad}


@program(item="fresh", differs=(["grad"], PROD_AT_ZERO))
def f3_prod_with_zero_grad(paddle):
    x = _t(paddle, [2.0, 0.0, 3.0, 4.0])
    y = paddle.prod(x)
    y.backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f3_cumsum_cumprod_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = paddle.cumsum(x, axis=0) * paddle.to_tensor([1.0, 10.0, 100.0])
    z = paddle.cumprod(x, dim=0)
    (y.sum() + z.sum()).backward()
    return {"y": y, "z": z, "grad": x.grad}


@program(item="fresh")
def f3_norm_fro_and_p1_grad(paddle):
    x = _t(paddle, [[3.0, -4.0], [0.0, 12.0]])
    n2 = paddle.linalg.norm(x)
    n1 = paddle.linalg.norm(x.flatten(), p=1)
    (n2 + n1).backward()
    return {"n2": n2, "n1": n1, "grad": x.grad}


@program(item="fresh")
def f3_std_var_unbiased_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 4.0, 7.0])
    s = paddle.std(x)
    v = paddle.var(x, unbiased=False)
    (s + v).backward()
    return {"s": s, "v": v, "grad": x.grad}


# ---------------------------------------------------------------- shape ops


@program(item="fresh")
def f3_concat_split_grad(paddle):
    a = _t(paddle, [[1.0, 2.0]])
    b = _t(paddle, [[3.0, 4.0], [5.0, 6.0]])
    c = paddle.concat([a, b], axis=0)
    p, q = paddle.split(c, [1, 2], axis=0)
    r = paddle.split(c, 2, axis=1)
    (p.sum() * 2 + (q * r[0][1:]).sum()).backward()
    return {"c": c, "a_grad": a.grad, "b_grad": b.grad, "r_shapes": [list(t.shape) for t in r]}


@program(item="fresh")
def f3_expand_tile_grad(paddle):
    x = _t(paddle, [[1.0], [2.0]])
    e = x.expand([2, 3])
    t = paddle.tile(x, [2, 2])
    (e.sum() + (t * t).sum()).backward()
    return {"e": e, "t_shape": list(t.shape), "grad": x.grad}


@program(item="fresh")
def f3_squeeze_unsqueeze_flatten_shapes(paddle):
    x = _t(paddle, np.ones((2, 1, 3, 1)))
    a = x.squeeze()
    b = x.squeeze(axis=1)
    c = a.unsqueeze([0, 3])
    d = paddle.flatten(x, start_axis=1, stop_axis=2)
    (a.sum() + c.sum() + d.sum()).backward()
    return {"a": list(a.shape), "b": list(b.shape), "c": list(c.shape), "d": list(d.shape),
            "grad": x.grad}


# ---------------------------------------------------------------- nn layers

@program(item="fresh")
def f3_linear_explicit_weights_grads(paddle):
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(np.array([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], dtype="float32"))
    lin.bias.set_value(np.array([0.1, -0.2], dtype="float32"))
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
    y = lin(x)
    loss = (y ** 2).mean()
    loss.backward()
    return {"y": y, "loss": loss, "w_grad": lin.weight.grad, "b_grad": lin.bias.grad,
            "w_shape": list(lin.weight.shape)}


@program(item="fresh")
def f3_conv2d_padding_stride_grads(paddle):
    conv = paddle.nn.Conv2D(1, 2, kernel_size=2, stride=1, padding=1)
    w = np.arange(8, dtype="float32").reshape(2, 1, 2, 2) / 4.0
    conv.weight.set_value(w)
    conv.bias.set_value(np.array([0.0, 1.0], dtype="float32"))
    x = _t(paddle, np.arange(9).reshape(1, 1, 3, 3) / 3.0)
    y = conv(x)
    y.sum().backward()
    return {"y": y, "x_grad": x.grad, "w_grad": conv.weight.grad, "b_grad": conv.bias.grad}


@program(item="fresh")
def f3_batchnorm1d_running_stats(paddle):
    bn = paddle.nn.BatchNorm1D(2)
    x = _t(paddle, [[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]])
    y = bn(x)
    (y * paddle.to_tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])).sum().backward()
    bn.eval()
    z = bn(paddle.to_tensor([[3.0, 6.0]]))
    return {"y": y, "mean": bn._mean, "var": bn._variance, "z": z,
            "w_grad": bn.weight.grad, "b_grad": bn.bias.grad}


@program(item="fresh")
def f3_layernorm_grads(paddle):
    ln = paddle.nn.LayerNorm(3)
    ln.weight.set_value(np.array([1.0, 2.0, 0.5], dtype="float32"))
    ln.bias.set_value(np.array([0.0, 1.0, -1.0], dtype="float32"))
    x = _t(paddle, [[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]])
    y = ln(x)
    (y * paddle.to_tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])).sum().backward()
    return {"y": y, "x_grad": x.grad, "w_grad": ln.weight.grad, "b_grad": ln.bias.grad}


@program(item="fresh")
def f3_embedding_padding_idx(paddle):
    emb = paddle.nn.Embedding(4, 2, padding_idx=0)
    emb.weight.set_value(np.arange(8, dtype="float32").reshape(4, 2))
    ids = paddle.to_tensor([[0, 1, 1], [3, 0, 2]])
    out = emb(ids)
    (out * out).sum().backward()
    return {"out": out, "w_grad": emb.weight.grad}


@program(item="fresh")
def f3_dropout_eval_and_p_zero(paddle):
    drop = paddle.nn.Dropout(p=0.5)
    drop.eval()
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    a = drop(x)
    b = paddle.nn.functional.dropout(x, p=0.3, training=False)
    c = paddle.nn.functional.dropout(x, p=0.3, training=False, mode="downscale_in_infer")
    d = paddle.nn.functional.dropout(x, p=0.0, training=True)
    (a + b + c + d).sum().backward()
    return {"a": a, "b": b, "c": c, "d": d, "grad": x.grad}


@program(item="fresh")
def f3_pooling_grads(paddle):
    x = _t(paddle, np.array([[1, 5, 2, 0], [3, 4, 8, 1], [0, 2, 6, 7], [9, 1, 3, 3]],
                            dtype="float32").reshape(1, 1, 4, 4))
    mp = paddle.nn.MaxPool2D(kernel_size=2, stride=2)
    ap = paddle.nn.AvgPool2D(kernel_size=2, stride=2)
    gp = paddle.nn.AdaptiveAvgPool2D(1)
    m, a, g = mp(x), ap(x), gp(x)
    (m.sum() + 2 * a.sum() + 3 * g.sum()).backward()
    return {"m": m, "a": a, "g": g, "grad": x.grad}


@program(item="fresh")
def f3_activation_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-2.0, -0.5, 0.0, 0.5, 2.0])
    outs = {"gelu": F.gelu(x), "silu": F.silu(x), "leaky": F.leaky_relu(x, 0.1),
            "elu": F.elu(x, alpha=1.0), "softplus": F.softplus(x), "hswish": F.hardswish(x),
            "relu6": F.relu6(x * 4)}
    total = sum(v.sum() for v in outs.values())
    total.backward()
    outs["grad"] = x.grad
    return outs


@program(item="fresh")
def f3_softmax_log_softmax_grad(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    s = F.softmax(x, axis=-1)
    ls = F.log_softmax(x, axis=-1)
    (s * paddle.to_tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])).sum().backward(retain_graph=True)
    g1 = x.grad.numpy().copy()
    x.clear_grad()
    ls[:, 0].sum().backward()
    return {"s": s, "ls": ls, "g1": g1, "g2": x.grad}


@program(item="fresh")
def f3_cross_entropy_ignore_index(paddle):
    logits = _t(paddle, [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.0, 1.0, 1.0]])
    label = paddle.to_tensor([0, -100, 2])
    loss = paddle.nn.functional.cross_entropy(logits, label, ignore_index=-100)
    loss.backward()
    return {"loss": loss, "grad": logits.grad}


@program(item="fresh")
def f3_cross_entropy_soft_label_weight(paddle):
    logits = _t(paddle, [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
    soft = paddle.to_tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5]])
    loss = paddle.nn.functional.cross_entropy(logits, soft, soft_label=True)
    hard = paddle.nn.functional.cross_entropy(
        logits, paddle.to_tensor([0, 2]), weight=paddle.to_tensor([1.0, 2.0, 3.0]))
    (loss + hard).backward()
    return {"loss": loss, "hard": hard, "grad": logits.grad}


@program(item="fresh")
def f3_regression_losses(paddle):
    F = paddle.nn.functional
    p = _t(paddle, [0.5, 2.0, -1.0, 3.0])
    t = paddle.to_tensor([0.0, 2.5, 1.0, 3.0])
    mse = F.mse_loss(p, t)
    l1 = F.l1_loss(p, t, reduction="sum")
    sl1 = F.smooth_l1_loss(p, t, delta=1.0)
    (mse + l1 + sl1).backward()
    return {"mse": mse, "l1": l1, "sl1": sl1, "grad": p.grad}


@program(item="fresh")
def f3_bce_with_logits_pos_weight(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[1.0, -2.0], [0.0, 3.0]])
    y = paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]])
    a = F.binary_cross_entropy_with_logits(z, y, pos_weight=paddle.to_tensor([2.0, 0.5]))
    b = F.binary_cross_entropy(F.sigmoid(z), y, reduction="sum")
    (a + b).backward()
    return {"a": a, "b": b, "grad": z.grad}


@program(item="fresh")
def f3_nll_and_kl_div(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    logp = paddle.log(x)
    nll = F.nll_loss(logp, paddle.to_tensor([1, 2]))
    kl = F.kl_div(logp, paddle.to_tensor([[0.3, 0.3, 0.4], [0.2, 0.2, 0.6]]),
                  reduction="batchmean")
    (nll + kl).backward()
    return {"nll": nll, "kl": kl, "grad": x.grad}


# ---------------------------------------------------------------- optimizers

def _quadratic_param(paddle, values):
    p = paddle.create_parameter([len(values)], "float32")
    p.set_value(np.array(values, dtype="float32"))
    return p


def _steps(paddle, opt, p, n, target=(1.0, -1.0)):
    history = []
    tgt = paddle.to_tensor(list(target))
    for _ in range(n):
        loss = ((p - tgt) ** 2).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
        history.append(p.numpy().copy())
    return history


@program(item="fresh")
def f3_sgd_three_steps(paddle):
    p = _quadratic_param(paddle, [0.0, 0.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[p])
    hist = _steps(paddle, opt, p, 3)
    return {"hist": hist, "grad_after_clear": p.grad}


@program(item="fresh")
def f3_momentum_nesterov_steps(paddle):
    p = _quadratic_param(paddle, [0.0, 0.0])
    q = _quadratic_param(paddle, [0.0, 0.0])
    a = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[p])
    b = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[q],
                                  use_nesterov=True)
    return {"plain": _steps(paddle, a, p, 3), "nesterov": _steps(paddle, b, q, 3)}


@program(item="fresh")
def f3_adam_steps(paddle):
    p = _quadratic_param(paddle, [0.0, 2.0])
    opt = paddle.optimizer.Adam(learning_rate=0.1, beta1=0.9, beta2=0.99, parameters=[p])
    return {"hist": _steps(paddle, opt, p, 3)}


@program(item="fresh")
def f3_adamw_decoupled_decay(paddle):
    p = _quadratic_param(paddle, [0.5, 2.0])
    opt = paddle.optimizer.AdamW(learning_rate=0.05, weight_decay=0.1, parameters=[p])
    return {"hist": _steps(paddle, opt, p, 3)}


@program(item="fresh")
def f3_sgd_l2_weight_decay(paddle):
    p = _quadratic_param(paddle, [2.0, -3.0])
    q = _quadratic_param(paddle, [2.0, -3.0])
    a = paddle.optimizer.SGD(learning_rate=0.1, parameters=[p], weight_decay=0.5)
    b = paddle.optimizer.SGD(learning_rate=0.1, parameters=[q],
                             weight_decay=paddle.regularizer.L1Decay(0.5))
    return {"l2": _steps(paddle, a, p, 2), "l1": _steps(paddle, b, q, 2)}


@program(item="fresh")
def f3_clip_grad_by_global_norm(paddle):
    p = _quadratic_param(paddle, [10.0, 0.0])
    q = _quadratic_param(paddle, [0.0, 10.0])
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=[p, q], grad_clip=clip)
    loss = (p * p).sum() + (q * 2).sum()
    loss.backward()
    opt.step()
    return {"p": p, "q": q, "p_grad": p.grad}


@program(item="fresh")
def f3_clip_grad_by_value_and_norm(paddle):
    p = _quadratic_param(paddle, [3.0, -0.2])
    q = _quadratic_param(paddle, [3.0, 4.0])
    o1 = paddle.optimizer.SGD(learning_rate=1.0, parameters=[p],
                              grad_clip=paddle.nn.ClipGradByValue(max=1.0, min=-0.5))
    o2 = paddle.optimizer.SGD(learning_rate=1.0, parameters=[q],
                              grad_clip=paddle.nn.ClipGradByNorm(clip_norm=2.0))
    ((p * p).sum() + (q * q).sum()).backward()
    o1.step()
    o2.step()
    return {"p": p, "q": q}


@program(item="fresh")
def f3_step_decay_scheduler(paddle):
    p = _quadratic_param(paddle, [0.0, 0.0])
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.2, step_size=2, gamma=0.1)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[p])
    lrs, hist = [], []
    for _ in range(5):
        lrs.append(opt.get_lr())
        hist += _steps(paddle, opt, p, 1)
        sched.step()
    return {"lrs": lrs, "hist": hist, "last_epoch": sched.last_epoch}


@program(item="fresh")
def f3_linear_warmup_cosine(paddle):
    cos = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=1.0, T_max=4)
    sched = paddle.optimizer.lr.LinearWarmup(learning_rate=cos, warmup_steps=3,
                                             start_lr=0.0, end_lr=1.0)
    lrs = []
    for _ in range(8):
        lrs.append(sched())
        sched.step()
    return {"lrs": lrs}


@program(item="fresh")
def f3_clear_grad_set_to_zero_false(paddle):
    p = _quadratic_param(paddle, [1.0, 2.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[p])
    (p * p).sum().backward()
    opt.step()
    opt.clear_grad(set_to_zero=False)
    none_after = p.grad is None
    (p * 3).sum().backward()
    opt.clear_grad()
    return {"none_after": none_after, "zeroed": p.grad, "p": p}


@program(item="fresh")
def f3_optimizer_set_lr_and_param_groups(paddle):
    p = _quadratic_param(paddle, [0.0, 0.0])
    q = _quadratic_param(paddle, [0.0, 0.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[
        {"params": [p]}, {"params": [q], "learning_rate": 0.5}])
    ((p - 1) ** 2).sum().backward()
    ((q - 1) ** 2).sum().backward()
    opt.step()
    opt.clear_grad()
    opt.set_lr(0.01)
    lr = opt.get_lr()
    ((p - 1) ** 2).sum().backward()
    ((q - 1) ** 2).sum().backward()
    opt.step()
    return {"p": p, "q": q, "lr": lr}


# ---------------------------------------------------------------- functional autograd

@program(item="fresh")
def f3_jacobian_of_elementwise_and_matvec(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    A = paddle.to_tensor([[1.0, 2.0, 0.0], [0.0, 1.0, -1.0]])
    y = paddle.matmul(A, x * x)
    J = paddle.autograd.jacobian(y, x)
    return {"J": J[:], "shape": list(J.shape)}


@program(item="fresh")
def f3_hessian_of_quartic(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x[0] ** 2 * x[1] + x[1] ** 3).sum()
    H = paddle.autograd.hessian(y, x)
    return {"H": H[:], "shape": list(H.shape)}


@program(item="fresh")
def f3_incubate_jvp_vjp(paddle):
    def f(x):
        return paddle.tanh(x) * x

    x = _t(paddle, [0.5, -1.0, 2.0])
    v = paddle.to_tensor([1.0, 0.0, 2.0])
    out1, jv = paddle.incubate.autograd.jvp(f, x, v)
    out2, vj = paddle.incubate.autograd.vjp(f, x, v)
    return {"out1": out1, "jv": jv, "out2": out2, "vj": vj}


# ---------------------------------------------------------------- save / load

@program(item="fresh")
def f3_state_dict_save_load_roundtrip(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.array([[1.0, 2.0], [3.0, 4.0]], dtype="float32"))
    lin.bias.set_value(np.array([0.5, -0.5], dtype="float32"))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lin.pdparams")
        paddle.save(lin.state_dict(), path)
        loaded = paddle.load(path)
    other = paddle.nn.Linear(2, 2)
    other.set_state_dict(loaded)
    x = paddle.to_tensor([[1.0, 1.0]])
    return {"keys": sorted(loaded.keys()), "out": other(x), "w": other.weight}


@program(item="fresh")
def f3_optimizer_state_save_load(paddle):
    p = _quadratic_param(paddle, [0.0, 2.0])
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[p])
    _steps(paddle, opt, p, 2)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "opt.pdopt")
        paddle.save(opt.state_dict(), path)
        state = paddle.load(path)
    q = _quadratic_param(paddle, p.numpy().tolist())
    opt2 = paddle.optimizer.Adam(learning_rate=0.1, parameters=[q])
    opt2.set_state_dict({k.replace(p.name, q.name): v for k, v in state.items()})
    a = _steps(paddle, opt, p, 1)
    b = _steps(paddle, opt2, q, 1)
    return {"a": a, "b": b}


# ---------------------------------------------------------------- dtypes and casting

@program(item="fresh")
def f3_cast_float64_grad_dtype(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = paddle.cast(x, "float64") * 3
    z = y.astype("float32") ** 2
    z.sum().backward()
    return {"y_dtype": str(y.dtype), "grad": x.grad}


@program(item="fresh")
def f3_default_dtypes_and_flags(paddle):
    a = paddle.to_tensor([1, 2, 3])
    b = paddle.to_tensor([1.0, 2.0])
    c = paddle.to_tensor(2.5)
    d = paddle.to_tensor([True, False])
    e = paddle.arange(4)
    f = paddle.ones([2])
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f,
            "default": paddle.get_default_dtype()}


@program(item="fresh")
def f3_int_division_and_casts(paddle):
    a = paddle.to_tensor([7, -7, 5])
    b = paddle.to_tensor([2, 2, 3])
    return {"floordiv": a // b, "mod": a % b, "truediv": a / b,
            "to_bool": a.astype("bool"), "from_float": paddle.to_tensor([1.7, -1.7]).astype(
                "int32")}


@program(item="fresh")
def f3_float_tensor_plus_python_scalars(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float16")
    y = paddle.to_tensor([1, 2], dtype="int32")
    return {"x_plus_float": x + 1.5, "y_plus_int": y + 3, "y_times_float": y * 0.5,
            "x64": paddle.to_tensor([1.0], dtype="float64") * 2}


# ---------------------------------------------------------------- error cases

@program(item="fresh", differs=(["error"], ERROR_CLASS))
def f3_matmul_shape_mismatch_error(paddle):
    a = paddle.ones([2, 3])
    b = paddle.ones([2, 3])
    return {"error": _err(lambda: paddle.matmul(a, b)),
            "ok": paddle.matmul(a, b, transpose_y=True)}


@program(item="fresh")
def f3_backward_non_scalar_output(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    y.backward()
    return {"grad": x.grad}
