"""Fresh differential programs (batch 1207): what a user porting a small model or a custom op
writes from Paddle 3.3.1's API documentation: tiny MLP/CNN training loops, custom PyLayer ops
inside a model, gradient penalties through paddle.grad, Jacobians and Hessians, gradient hooks,
freezing, state_dict round trips, masked losses, sequence ops, einsum, norms, statistics and
argmax/one_hot pipelines; written without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _a(shape, start=0.0, step=0.25):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape)


def _wave(shape, phase=0.0, scale=0.5):
    n = int(np.prod(shape))
    return (scale * np.sin(np.arange(n, dtype="float64") * 0.7 + phase)).reshape(shape)


def _init(layer, dtype="float32"):
    """Give every parameter of layer a fixed value (the frameworks' RNGs differ)."""
    for i, (name, p) in enumerate(layer.named_parameters()):
        value = _wave(p.shape, phase=float(i))
        if name.endswith("_variance"):
            value = np.abs(value) + 0.5
        p.set_value(value.astype(dtype))
    return layer


def _grads(layer):
    return {name: p.grad for name, p in layer.named_parameters()}


TRAIN = {"rtol": 1e-4, "atol": 1e-5}


# ------------------------------------------------------------------ small training loops


@program(item="fresh", **TRAIN)
def f7_mlp_sgd_mse_steps(paddle):
    nn = paddle.nn
    model = _init(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    x = paddle.to_tensor(_a([5, 3], -1.0, 0.2).astype("float32"))
    y = paddle.to_tensor(_a([5, 1], 0.5, -0.3).astype("float32"))
    losses = []
    for _ in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "w0": model[0].weight, "b2": model[2].bias,
            "grad_after_clear": model[0].weight.grad}


@program(item="fresh", **TRAIN)
def f7_mlp_adam_cross_entropy_int64_labels(paddle):
    nn = paddle.nn
    model = _init(nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3)))
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    x = paddle.to_tensor(_wave([4, 4], 0.3).astype("float32"))
    label = paddle.to_tensor(np.array([0, 2, 1, 2], dtype="int64"))
    losses = []
    for _ in range(3):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    pred = paddle.argmax(model(x), axis=1)
    return {"losses": losses, "pred": pred, "w": model[2].weight, "loss_dtype": str(loss.dtype)}


@program(item="fresh", **TRAIN)
def f7_cnn_conv_bn_eval_pool_grads(paddle):
    nn = paddle.nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(1, 2, 3, padding=1)
            self.bn = nn.BatchNorm2D(2)
            self.pool = nn.MaxPool2D(2, 2)
            self.fc = nn.Linear(8, 2)

        def forward(self, x):
            h = self.pool(nn.functional.relu(self.bn(self.conv(x))))
            return self.fc(paddle.flatten(h, 1))

    net = _init(Net())
    net.eval()
    x = paddle.to_tensor(_wave([2, 1, 4, 4], 0.1).astype("float32"))
    out = net(x)
    loss = out.pow(2).mean()
    loss.backward()
    return {"out": out, "conv_w_grad": net.conv.weight.grad, "bn_w_grad": net.bn.weight.grad,
            "fc_b_grad": net.fc.bias.grad, "running_mean": net.bn._mean}


@program(item="fresh", **TRAIN)
def f7_batchnorm1d_train_running_stats(paddle):
    bn = paddle.nn.BatchNorm1D(3, momentum=0.8)
    x = paddle.to_tensor(_a([4, 3], -1.0, 0.3).astype("float32"), stop_gradient=False)
    y = bn(x)
    y2 = bn(x * 2.0)
    (y * y2).sum().backward()
    bn.eval()
    z = bn(x)
    return {"y": y, "mean": bn._mean, "var": bn._variance, "z": z, "gx": x.grad,
            "gw": bn.weight.grad}


@program(item="fresh")
def f7_dropout_eval_and_p0_identity(paddle):
    drop = paddle.nn.Dropout(0.5)
    drop.eval()
    x = _t(paddle, _a([2, 3], 1.0))
    y = drop(x)
    z = paddle.nn.functional.dropout(x, p=0.0, training=True)
    (y * 3 + z).sum().backward()
    return {"y": y, "z": z, "gx": x.grad, "training": drop.training}


@program(item="fresh", **TRAIN)
def f7_adamw_weight_decay_two_steps(paddle):
    lin = _init(paddle.nn.Linear(2, 2))
    opt = paddle.optimizer.AdamW(learning_rate=0.05, weight_decay=0.1,
                                 parameters=lin.parameters())
    x = paddle.to_tensor(np.array([[1.0, -2.0], [0.5, 0.25]], dtype="float32"))
    for _ in range(2):
        loss = lin(x).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
    return {"w": lin.weight, "b": lin.bias}


@program(item="fresh", **TRAIN)
def f7_momentum_with_step_decay(paddle):
    lin = _init(paddle.nn.Linear(3, 1))
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9,
                                    parameters=lin.parameters())
    x = paddle.to_tensor(_a([2, 3], 0.1).astype("float32"))
    lrs, losses = [], []
    for _ in range(4):
        loss = (lin(x) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        lrs.append(opt.get_lr())
        sched.step()
        losses.append(float(loss))
    return {"lrs": lrs, "losses": losses, "w": lin.weight}


@program(item="fresh", **TRAIN)
def f7_sgd_with_global_norm_clip(paddle):
    lin = _init(paddle.nn.Linear(3, 2))
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=0.5)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=lin.parameters(), grad_clip=clip)
    x = paddle.to_tensor(_a([4, 3], 1.0).astype("float32"))
    loss = lin(x).sum()
    loss.backward()
    g = lin.weight.grad.clone()
    opt.step()
    return {"raw_grad": g, "w": lin.weight, "b": lin.bias}


@program(item="fresh", **TRAIN)
def f7_sgd_with_value_clip(paddle):
    lin = _init(paddle.nn.Linear(2, 2))
    clip = paddle.nn.ClipGradByValue(max=0.3, min=-0.2)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=lin.parameters(), grad_clip=clip)
    x = paddle.to_tensor(np.array([[2.0, -1.0], [0.1, 0.05]], dtype="float32"))
    lin(x).sum().backward()
    opt.step()
    return {"w": lin.weight, "b": lin.bias}


@program(item="fresh", **TRAIN)
def f7_gradient_accumulation_two_microbatches(paddle):
    lin = _init(paddle.nn.Linear(2, 1))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    xs = [np.array([[1.0, 2.0]], dtype="float32"), np.array([[-1.0, 0.5]], dtype="float32")]
    for xb in xs:
        (lin(paddle.to_tensor(xb)) ** 2).sum().backward()
    acc = lin.weight.grad.clone()
    opt.step()
    opt.clear_grad(set_to_zero=False)
    return {"acc": acc, "w": lin.weight, "grad_after": lin.weight.grad}


@program(item="fresh", **TRAIN)
def f7_freeze_first_layer(paddle):
    nn = paddle.nn
    model = _init(nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1)))
    for p in model[0].parameters():
        p.stop_gradient = True
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=model.parameters())
    w0 = model[0].weight.clone()
    x = paddle.to_tensor(np.array([[0.5, -0.5], [1.0, 2.0]], dtype="float32"))
    model(x).mean().backward()
    opt.step()
    return {"g0": model[0].weight.grad, "g2": model[2].weight.grad,
            "w0_same": bool((model[0].weight == w0).all()), "w2": model[2].weight}


@program(item="fresh")
def f7_clear_grad_set_to_zero_default(paddle):
    lin = _init(paddle.nn.Linear(2, 2), "float32")
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    lin(paddle.ones([1, 2])).sum().backward()
    opt.clear_grad()
    g = lin.weight.grad
    lin.clear_gradients()
    return {"g": g, "g2": lin.weight.grad}


# ------------------------------------------------------------------ PyLayer custom ops


@program(item="fresh", **TRAIN)
def f7_pylayer_custom_relu_in_model(paddle):
    class MyReLU(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.clip(x, min=0.0)
            ctx.save_for_backward(x)
            return y

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return dy * (x > 0).astype(dy.dtype)

    lin = _init(paddle.nn.Linear(3, 2))
    x = _t(paddle, _wave([2, 3], 0.4), grad=False, dtype="float32")
    h = MyReLU.apply(lin(x))
    h.sum().backward()
    return {"h": h, "gw": lin.weight.grad, "gb": lin.bias.grad}


@program(item="fresh")
def f7_pylayer_two_outputs_and_scalar_arg(paddle):
    class ScaleSplit2(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            ctx.save_for_backward(x)
            return x * k, x * x

        @staticmethod
        def backward(ctx, d1, d2):
            (x,) = ctx.saved_tensor()
            return d1 * ctx.k + d2 * 2.0 * x

    x = _t(paddle, [1.0, -2.0, 3.0])
    a, b = ScaleSplit2.apply(x, 3.0)
    (a.sum() + (b * b).sum()).backward()
    return {"a": a, "b": b, "gx": x.grad, "a_sg": a.stop_gradient}


@program(item="fresh")
def f7_pylayer_backward_returns_none_for_second(paddle):
    class Mul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(y)
            return x * y

        @staticmethod
        def backward(ctx, dz):
            (y,) = ctx.saved_tensor()
            return dz * y, None

    x = _t(paddle, [1.0, 2.0])
    y = _t(paddle, [3.0, 4.0])
    z = Mul.apply(x, y)
    z.sum().backward()
    return {"z": z, "gx": x.grad, "gy": y.grad}


@program(item="fresh")
def f7_pylayer_double_backward_via_grad(paddle):
    class SoftPlus(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return paddle.log(1.0 + paddle.exp(x))

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return dy * paddle.nn.functional.sigmoid(x)

    x = _t(paddle, [-0.5, 2.0])
    (g,) = paddle.grad(SoftPlus.apply(x).sum(), x, create_graph=True)
    (g * g).sum().backward()
    return {"g": g, "gx": x.grad}


@program(item="fresh")
def f7_pylayer_mark_non_differentiable(paddle):
    class SortIdx(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = paddle.argsort(x)
            ctx.mark_non_differentiable(idx)
            return x * 2.0, idx

        @staticmethod
        def backward(ctx, dy, didx):
            return dy * 2.0

    x = _t(paddle, [3.0, 1.0, 2.0])
    y, idx = SortIdx.apply(x)
    y.sum().backward()
    return {"y": y, "idx": idx, "idx_sg": idx.stop_gradient, "gx": x.grad}


# ------------------------------------------------------------------ paddle.grad


@program(item="fresh", **TRAIN)
def f7_gradient_penalty_create_graph(paddle):
    lin = _init(paddle.nn.Linear(2, 1), "float32")
    x = paddle.to_tensor(np.array([[0.5, -1.0], [2.0, 0.3]], dtype="float32"),
                         stop_gradient=False)
    out = paddle.tanh(lin(x))
    (gx,) = paddle.grad(outputs=out.sum(), inputs=x, create_graph=True)
    penalty = ((gx.norm(p=2, axis=1) - 1.0) ** 2).mean()
    penalty.backward()
    return {"gx": gx, "penalty": penalty, "gw": lin.weight.grad, "gb": lin.bias.grad}


@program(item="fresh")
def f7_grad_second_order_sin(paddle):
    x = _t(paddle, [0.3, 1.2])
    y = paddle.sin(x) * x
    (d1,) = paddle.grad(y.sum(), x, create_graph=True)
    (d2,) = paddle.grad(d1.sum(), x, create_graph=False)
    return {"d1": d1, "d2": d2, "d1_sg": d1.stop_gradient, "d2_sg": d2.stop_gradient}


@program(item="fresh")
def f7_grad_allow_unused_and_grad_outputs(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = _t(paddle, [5.0])
    z = x * x
    gs = paddle.grad([z], [x, y], grad_outputs=[_t(paddle, [0.5, 2.0], grad=False)],
                     allow_unused=True)
    err = attempt(paddle.grad, [x * 2], [x, y])
    return {"gx": gs[0], "gy": gs[1], "err": err}


@program(item="fresh")
def f7_backward_retain_graph_twice(paddle):
    x = _t(paddle, [1.0, -1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.clone()
    y.backward()
    again = attempt(y.backward)
    return {"first": first, "acc": x.grad, "again": again}


@program(item="fresh")
def f7_grad_no_grad_vars(paddle):
    x = _t(paddle, [1.0, 2.0])
    w = _t(paddle, [3.0, 4.0])
    y = (x * w).sum()
    gs = paddle.grad(y, [x], no_grad_vars=[w])
    return {"gx": gs[0], "w_grad": w.grad, "x_grad": x.grad}


@program(item="fresh")
def f7_jacobian_vector_function(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = paddle.stack([x[0] * x[1], x[1] ** 2, paddle.sin(x[2]), x.sum()])
    J = paddle.autograd.jacobian(y, x)
    full = J[:]
    row = J[1, :]
    return {"J": full, "row": row, "shape": list(J.shape)}


@program(item="fresh")
def f7_jacobian_tuple_inputs(paddle):
    x1 = _t(paddle, [1.0, 2.0])
    x2 = _t(paddle, [3.0, -1.0])
    y = x1 * x2 + x1
    J = paddle.autograd.jacobian(y, (x1, x2))
    return {"j1": J[0][:], "j2": J[1][:]}


@program(item="fresh")
def f7_jacobian_batched(paddle):
    x = _t(paddle, _a([3, 2], 0.5))
    y = paddle.concat([x * x, x.sum(axis=1, keepdim=True)], axis=1)
    J = paddle.autograd.jacobian(y, x, batch_axis=0)
    return {"J": J[:], "shape": list(J.shape)}


@program(item="fresh")
def f7_hessian_quadratic(paddle):
    x = _t(paddle, [1.0, 2.0, -1.0])
    A = _t(paddle, [[2.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 1.0]], grad=False)
    y = (x * paddle.matmul(A, x)).sum() + (x ** 3).sum()
    H = paddle.autograd.hessian(y, x)
    return {"H": H[:], "shape": list(H.shape)}


# ------------------------------------------------------------------ hooks


@program(item="fresh", **TRAIN)
def f7_hook_clips_param_grad(paddle):
    lin = _init(paddle.nn.Linear(2, 2))
    h = lin.weight.register_hook(lambda g: paddle.clip(g, -0.5, 0.5))
    x = _t(paddle, [[3.0, -4.0]], grad=False, dtype="float32")
    lin(x).sum().backward()
    clipped = lin.weight.grad.clone()
    h.remove()
    lin.clear_gradients()
    lin(x).sum().backward()
    return {"clipped": clipped, "raw": lin.weight.grad}


@program(item="fresh")
def f7_hook_logs_intermediate_grad(paddle):
    seen = []
    x = _t(paddle, [1.0, 2.0, 3.0])
    h = x * 2.0
    h.register_hook(lambda g: seen.append(g.numpy().copy()))
    y = (h ** 2).sum()
    y.backward()
    return {"seen": seen, "gx": x.grad, "h_grad": h.grad}


@program(item="fresh")
def f7_hook_scales_and_chain(paddle):
    x = _t(paddle, [1.0, -1.0])
    x.register_hook(lambda g: g * 10.0)
    x.register_hook(lambda g: g + 1.0)
    (x * 3.0).sum().backward()
    return {"gx": x.grad}


@program(item="fresh")
def f7_hook_returning_none_keeps_grad(paddle):
    x = _t(paddle, [2.0, 3.0])
    y = x * x
    y.register_hook(lambda g: None)
    y.sum().backward()
    return {"gx": x.grad}


# ------------------------------------------------------------------ state dicts and parameters


@program(item="fresh", **TRAIN)
def f7_state_dict_roundtrip(paddle):
    nn = paddle.nn
    a = _init(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3), nn.Linear(3, 1)))
    b = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3), nn.Linear(3, 1))
    sd = a.state_dict()
    res = b.set_state_dict(sd)
    a.eval()
    b.eval()
    x = paddle.to_tensor(np.array([[1.0, 2.0], [-1.0, 0.5]], dtype="float32"))
    return {"keys": sorted(sd.keys()), "same": bool(paddle.allclose(a(x), b(x))),
            "out": b(x), "res": [sorted(r) for r in res] if isinstance(res, tuple) else res}


@program(item="fresh")
def f7_named_parameters_shapes(paddle):
    nn = paddle.nn

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 4, 3, bias_attr=False)
            self.norm = nn.LayerNorm(4)
            self.heads = nn.LayerList([nn.Linear(4, 2), nn.Linear(4, 5)])

        def forward(self, x):
            return x

    blk = Block()
    names = [(n, list(p.shape), bool(p.stop_gradient)) for n, p in blk.named_parameters()]
    subs = [n for n, _ in blk.named_sublayers()]
    return {"names": names, "subs": subs, "count": len(blk.parameters()),
            "numel": int(sum(int(np.prod(p.shape)) for p in blk.parameters()))}


@program(item="fresh")
def f7_set_state_dict_numpy_values(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.set_state_dict({"weight": np.eye(2, dtype="float32") * 2,
                        "bias": np.array([1.0, -1.0], dtype="float32")})
    out = lin(paddle.to_tensor(np.array([[1.0, 3.0]], dtype="float32")))
    return {"out": out, "w": lin.weight, "sg": lin.weight.stop_gradient}


@program(item="fresh")
def f7_create_parameter_in_layer(paddle):
    class Scale(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.s = self.create_parameter(
                [2], dtype="float64",
                default_initializer=paddle.nn.initializer.Constant(1.5))

        def forward(self, x):
            return x * self.s

    m = Scale()
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]], grad=False)
    m(x).sum().backward()
    return {"s": m.s, "g": m.s.grad, "names": [n for n, _ in m.named_parameters()],
            "sd": sorted(m.state_dict().keys())}


# ------------------------------------------------------------------ masked losses


@program(item="fresh")
def f7_masked_mse_with_where(paddle):
    pred = _t(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    target = _t(paddle, [[1.5, 0.0, 2.0], [4.0, 0.0, 7.0]], grad=False)
    mask = target != 0
    err = paddle.where(mask, (pred - target) ** 2, paddle.zeros_like(pred))
    loss = err.sum() / mask.astype("float64").sum()
    loss.backward()
    return {"loss": loss, "g": pred.grad}


@program(item="fresh")
def f7_masked_fill_logits_softmax(paddle):
    logits = _t(paddle, [[1.0, 2.0, 3.0], [0.5, 0.5, -1.0]])
    mask = paddle.to_tensor(np.array([[False, False, True], [True, False, False]]))
    filled = paddle.masked_fill(logits, mask, -1e9)
    p = paddle.nn.functional.softmax(filled, axis=-1)
    (p * _t(paddle, [[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], grad=False)).sum().backward()
    return {"p": p, "g": logits.grad}


@program(item="fresh")
def f7_masked_select_mean(paddle):
    x = _t(paddle, [[1.0, -2.0], [3.0, -4.0]])
    sel = paddle.masked_select(x, x > 0)
    sel.mean().backward()
    return {"sel": sel, "g": x.grad}


@program(item="fresh")
def f7_where_grad_safe_log(paddle):
    x = _t(paddle, [0.0, 1.0, 4.0])
    safe = paddle.where(x > 0, x, paddle.ones_like(x))
    y = paddle.where(x > 0, paddle.log(safe), paddle.zeros_like(x))
    y.sum().backward()
    return {"y": y, "g": x.grad}


# ------------------------------------------------------------------ sequence ops


@program(item="fresh")
def f7_cumsum_cumprod_grad(paddle):
    x = _t(paddle, [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    c = paddle.cumsum(x, axis=1)
    p = paddle.cumprod(x, dim=1)
    (c * _t(paddle, _a([2, 3], 1.0), grad=False)).sum().backward()
    g1 = x.grad.clone()
    x.clear_gradient()
    p.sum().backward()
    return {"c": c, "p": p, "g1": g1, "g2": x.grad, "flat": paddle.cumsum(x)}


@program(item="fresh")
def f7_diff_grad(paddle):
    x = _t(paddle, [1.0, 4.0, 9.0, 16.0])
    d = paddle.diff(x)
    d2 = paddle.diff(x, n=2)
    (d * _t(paddle, [1.0, 2.0, 3.0], grad=False)).sum().backward()
    return {"d": d, "d2": d2, "g": x.grad}


@program(item="fresh")
def f7_flip_roll_grad(paddle):
    x = _t(paddle, _a([2, 3], 1.0))
    f = paddle.flip(x, axis=[1])
    r = paddle.roll(x, shifts=1, axis=1)
    r2 = paddle.roll(x, shifts=-2)
    w = _t(paddle, _a([2, 3], 0.0, 1.0), grad=False)
    (f * w + r * w * 2 + r2 * w * 3).sum().backward()
    return {"f": f, "r": r, "r2": r2, "g": x.grad}


@program(item="fresh")
def f7_sequence_shift_mask_pipeline(paddle):
    seq = _t(paddle, [[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 1.0, 0.0]])
    lengths = paddle.to_tensor(np.array([4, 3], dtype="int64"))
    pos = paddle.arange(4).unsqueeze(0)
    mask = (pos < lengths.unsqueeze(1)).astype("float64")
    delta = (seq[:, 1:] - seq[:, :-1]) * mask[:, 1:]
    loss = (delta ** 2).sum() / mask.sum()
    loss.backward()
    return {"mask": mask, "delta": delta, "loss": loss, "g": seq.grad}


# ------------------------------------------------------------------ einsum and matmul


@program(item="fresh")
def f7_einsum_bilinear_grad(paddle):
    x = _t(paddle, _a([2, 3], 0.1))
    W = _t(paddle, _wave([3, 4]))
    y = _t(paddle, _a([2, 4], -0.5))
    s = paddle.einsum("bi,ij,bj->b", x, W, y)
    s.sum().backward()
    return {"s": s, "gx": x.grad, "gW": W.grad}


@program(item="fresh")
def f7_einsum_batch_matmul_and_trace(paddle):
    a = _t(paddle, _a([2, 2, 3], 0.0, 0.5))
    b = _t(paddle, _wave([2, 3, 2]))
    c = paddle.einsum("bij,bjk->bik", a, b)
    tr = paddle.einsum("bii->b", c)
    outer = paddle.einsum("i,j->ij", a[0, 0], b[0, :, 0])
    (tr.sum() + outer.sum()).backward()
    return {"c": c, "tr": tr, "outer": outer, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f7_matmul_broadcast_batch_grad(paddle):
    a = _t(paddle, _a([2, 1, 2, 3], 0.1))
    b = _t(paddle, _wave([3, 2]))
    c = paddle.matmul(a, b)
    p = _t(paddle, _a([1, 2, 3], -0.2))
    q = _t(paddle, _wave([2, 3, 2], 0.3))
    d = paddle.matmul(p, q)
    ((c ** 2).sum() + (d ** 2).sum()).backward()
    return {"shape": c.shape, "c": c, "d": d, "ga": a.grad, "gb": b.grad, "gp": p.grad,
            "gq": q.grad}


@program(item="fresh")
def f7_matmul_transpose_flags_and_vector(paddle):
    a = _t(paddle, _a([3, 2], 1.0))
    b = _t(paddle, _wave([4, 3]))
    c = paddle.matmul(a, b, transpose_x=True, transpose_y=True)
    v = _t(paddle, [1.0, -1.0])
    d = paddle.matmul(a, v)
    (c.sum() + d.sum()).backward()
    return {"c": c, "d": d, "ga": a.grad, "gb": b.grad, "gv": v.grad}


# ------------------------------------------------------------------ norms


@program(item="fresh")
def f7_linalg_norm_fro_and_axis(paddle):
    x = _t(paddle, [[3.0, -4.0], [1.0, 2.0]])
    fro = paddle.linalg.norm(x)
    rows = paddle.linalg.norm(x, p=2, axis=1)
    l1 = paddle.linalg.norm(x, p=1, axis=0, keepdim=True)
    (fro + rows.sum() + l1.sum()).backward()
    return {"fro": fro, "rows": rows, "l1": l1, "g": x.grad}


@program(item="fresh")
def f7_vector_norm_orders(paddle):
    x = _t(paddle, [[1.0, -3.0, 2.0], [0.5, 0.0, -1.0]])
    inf = paddle.linalg.vector_norm(x, p=float("inf"), axis=1)
    p3 = paddle.linalg.vector_norm(x, p=3)
    p0 = paddle.linalg.vector_norm(x, p=0, axis=-1)
    (inf.sum() + p3).backward()
    return {"inf": inf, "p3": p3, "p0": p0, "g": x.grad}


@program(item="fresh")
def f7_matrix_norm_fro_and_one(paddle):
    x = _t(paddle, [[[1.0, -2.0], [3.0, 0.5]], [[0.0, 1.0], [-1.0, 2.0]]])
    fro = paddle.linalg.matrix_norm(x, p="fro")
    one = paddle.linalg.matrix_norm(x, p=1)
    ninf = paddle.linalg.matrix_norm(x, p=float("inf"), keepdim=True)
    (fro.sum() + one.sum() + ninf.sum()).backward()
    return {"fro": fro, "one": one, "ninf": ninf, "g": x.grad}


@program(item="fresh")
def f7_tensor_norm_method_and_normalize(paddle):
    x = _t(paddle, [[3.0, 4.0], [0.6, 0.8]])
    n = x.norm(p=2, axis=-1, keepdim=True)
    u = paddle.nn.functional.normalize(x, p=2, axis=1)
    (u * _t(paddle, [[1.0, 0.0], [0.0, 1.0]], grad=False)).sum().backward()
    return {"n": n, "u": u, "g": x.grad}


# ------------------------------------------------------------------ statistics


@program(item="fresh")
def f7_mean_var_std_axis_keepdim(paddle):
    x = _t(paddle, _wave([3, 4], 0.2, 2.0))
    m = paddle.mean(x, axis=1, keepdim=True)
    v = paddle.var(x, axis=0)
    s = paddle.std(x, axis=[0, 1], unbiased=False)
    (m.sum() + v.sum() + s).backward()
    return {"m": m, "v": v, "s": s, "g": x.grad}


@program(item="fresh")
def f7_standardize_features(paddle):
    x = _t(paddle, _a([4, 2], 1.0, 0.7))
    mu = x.mean(axis=0, keepdim=True)
    sd = x.std(axis=0, keepdim=True)
    z = (x - mu) / (sd + 1e-6)
    (z * _t(paddle, _wave([4, 2]), grad=False)).sum().backward()
    return {"z": z, "g": x.grad}


@program(item="fresh")
def f7_median_max_min_stats(paddle):
    x = _t(paddle, [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    mx = paddle.max(x, axis=1)
    mn = paddle.min(x)
    lse = paddle.logsumexp(x, axis=1)
    (mx.sum() + mn + lse.sum()).backward()
    return {"mx": mx, "mn": mn, "lse": lse, "g": x.grad,
            "amax": paddle.amax(x, axis=0)}


# ------------------------------------------------------------------ argmax / one_hot


@program(item="fresh")
def f7_argmax_one_hot_accuracy(paddle):
    logits = _t(paddle, [[0.1, 2.0, -1.0], [3.0, 0.0, 0.5], [0.2, 0.1, 0.3]])
    label = paddle.to_tensor(np.array([1, 0, 2], dtype="int64"))
    pred = logits.argmax(axis=-1)
    acc = (pred == label).astype("float32").mean()
    oh = paddle.nn.functional.one_hot(label, num_classes=3)
    picked = (paddle.nn.functional.log_softmax(logits, axis=-1) * oh).sum(axis=1)
    (-picked.mean()).backward()
    return {"pred": pred, "acc": acc, "oh": oh, "picked": picked, "g": logits.grad}


@program(item="fresh")
def f7_paddle_metric_accuracy_topk(paddle):
    logits = _t(paddle, [[0.1, 2.0, -1.0, 0.5], [3.0, 0.0, 0.5, 2.9]], grad=False)
    label = paddle.to_tensor(np.array([[3], [3]], dtype="int64"))
    vals, idx = paddle.topk(logits, k=2, axis=1)
    top1 = paddle.metric.accuracy(logits.astype("float32"), label, k=1)
    top2 = paddle.metric.accuracy(logits.astype("float32"), label, k=2)
    return {"vals": vals, "idx": idx, "top1": top1, "top2": top2}


@program(item="fresh")
def f7_one_hot_gather_take_along_axis(paddle):
    probs = _t(paddle, [[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
    label = paddle.to_tensor(np.array([[2], [0]], dtype="int64"))
    p = paddle.take_along_axis(probs, label, axis=1)
    loss = -paddle.log(p).mean()
    loss.backward()
    return {"p": p, "loss": loss, "g": probs.grad}


# ------------------------------------------------------------------ losses and dtypes


@program(item="fresh")
def f7_cross_entropy_soft_label_and_smoothing(paddle):
    F = paddle.nn.functional
    logits = _t(paddle, [[1.0, 2.0, 0.5], [0.0, -1.0, 1.0]])
    soft = _t(paddle, [[0.1, 0.8, 0.1], [0.3, 0.3, 0.4]], grad=False)
    a = F.cross_entropy(logits, soft, soft_label=True)
    label = paddle.to_tensor(np.array([1, 2], dtype="int64"))
    b = F.cross_entropy(logits, label, label_smoothing=0.1)
    (a + b).backward()
    return {"a": a, "b": b, "g": logits.grad}


@program(item="fresh")
def f7_cross_entropy_ignore_index_and_weight(paddle):
    F = paddle.nn.functional
    logits = _t(paddle, [[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 0.1, 0.3]])
    label = paddle.to_tensor(np.array([1, -100, 0], dtype="int64"))
    w = _t(paddle, [1.0, 2.0, 0.5], grad=False)
    a = F.cross_entropy(logits, label, ignore_index=-100)
    b = F.cross_entropy(logits, paddle.to_tensor(np.array([1, 2, 0], dtype="int64")), weight=w)
    c = F.cross_entropy(logits, paddle.to_tensor(np.array([[1], [2], [0]], dtype="int64")),
                        reduction="none")
    (a + b + c.sum()).backward()
    return {"a": a, "b": b, "c": c, "g": logits.grad}


@program(item="fresh")
def f7_nll_after_log_softmax_class_layer(paddle):
    logits = _t(paddle, [[1.0, 2.0, 0.5], [0.0, -1.0, 1.0]])
    lsm = paddle.nn.LogSoftmax(axis=1)(logits)
    loss_fn = paddle.nn.NLLLoss(reduction="sum")
    loss = loss_fn(lsm, paddle.to_tensor(np.array([2, 0], dtype="int64")))
    loss.backward()
    return {"loss": loss, "g": logits.grad}


@program(item="fresh")
def f7_bce_with_logits_pos_weight(paddle):
    logit = _t(paddle, [[0.5, -1.0], [2.0, 0.0]])
    target = _t(paddle, [[1.0, 0.0], [1.0, 1.0]], grad=False)
    weighted = paddle.nn.BCEWithLogitsLoss(pos_weight=_t(paddle, [2.0, 0.5], grad=False),
                                           reduction="sum")
    prob_loss = paddle.nn.BCELoss(weight=_t(paddle, [[1.0], [3.0]], grad=False))
    total = weighted(logit, target) + prob_loss(paddle.nn.functional.sigmoid(logit), target)
    total.backward()
    return {"total": total, "g": logit.grad}


@program(item="fresh")
def f7_smooth_l1_and_l1_losses(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [0.2, -1.5, 3.0, 0.9])
    y = _t(paddle, [0.0, 0.0, 1.0, 1.0], grad=False)
    a = F.smooth_l1_loss(x, y, delta=1.0)
    b = F.l1_loss(x, y, reduction="sum")
    c = paddle.nn.HuberLoss(delta=0.5)(x, y) if hasattr(paddle.nn, "HuberLoss") else None
    (a + b).backward()
    return {"a": a, "b": b, "has_huber": c is not None, "g": x.grad}


@program(item="fresh")
def f7_kl_div_distillation(paddle):
    F = paddle.nn.functional
    student = _t(paddle, [[1.0, 2.0, 0.0], [0.5, 0.5, 1.5]])
    teacher = _t(paddle, [[2.0, 1.0, 0.0], [0.0, 1.0, 1.0]], grad=False)
    T = 2.0
    loss = F.kl_div(F.log_softmax(student / T, axis=-1), F.softmax(teacher / T, axis=-1),
                    reduction="batchmean") * T * T
    loss.backward()
    return {"loss": loss, "g": student.grad}


@program(item="fresh", **TRAIN)
def f7_float32_model_mixed_dtype_errors(paddle):
    lin = _init(paddle.nn.Linear(2, 1))
    x64 = paddle.to_tensor(np.array([[1.0, 2.0]], dtype="float64"))
    bad = attempt(lin, x64)
    y32 = lin(x64.astype("float32"))
    target64 = paddle.to_tensor(np.array([[0.5]], dtype="float64"))
    mixed = attempt(lambda: paddle.nn.functional.mse_loss(y32, target64))
    loss = paddle.nn.functional.mse_loss(y32, target64.astype("float32"))
    loss.backward()
    return {"bad": bad, "mixed_ok": not hasattr(mixed, "family"), "loss": loss,
            "dtype": str(loss.dtype), "gw": lin.weight.grad}


@program(item="fresh")
def f7_int_label_to_float_target(paddle):
    label = paddle.to_tensor(np.array([1, 0, 1], dtype="int64"))
    logit = _t(paddle, [0.3, -0.2, 1.0])
    t = label.astype(logit.dtype)
    loss = paddle.nn.functional.binary_cross_entropy_with_logits(logit, t)
    loss.backward()
    return {"t": t, "loss": loss, "g": logit.grad}


# ------------------------------------------------------------------ schedulers


@program(item="fresh")
def f7_lr_cosine_and_warmup_values(paddle):
    lr = paddle.optimizer.lr
    cos = lr.CosineAnnealingDecay(learning_rate=1.0, T_max=4)
    warm = lr.LinearWarmup(learning_rate=0.5, warmup_steps=3, start_lr=0.0, end_lr=0.5)
    a, b = [], []
    for _ in range(6):
        a.append(cos())
        b.append(warm())
        cos.step()
        warm.step()
    return {"cos": a, "warm": b}


@program(item="fresh")
def f7_lr_multistep_and_set_lr(paddle):
    lin = _init(paddle.nn.Linear(1, 1))
    sched = paddle.optimizer.lr.MultiStepDecay(learning_rate=1.0, milestones=[2, 3], gamma=0.5)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=lin.parameters())
    vals = []
    for _ in range(5):
        vals.append(opt.get_lr())
        sched.step()
    opt2 = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    opt2.set_lr(0.01)
    err = attempt(opt.set_lr, 0.5)
    return {"vals": vals, "lr2": opt2.get_lr(), "err": err}


# ------------------------------------------------------------------ misc model pieces


@program(item="fresh", **TRAIN)
def f7_no_grad_eval_and_detach_target(paddle):
    lin = _init(paddle.nn.Linear(2, 2))
    x = _t(paddle, [[1.0, -1.0]], grad=False, dtype="float32")
    with paddle.no_grad():
        target = lin(x) * 0.5
    out = lin(x)
    ema = out.detach() * 0.9
    loss = ((out - target) ** 2).sum() + (ema * out).sum()
    loss.backward()
    return {"target_sg": target.stop_gradient, "ema_sg": ema.stop_gradient,
            "gw": lin.weight.grad, "loss": loss}


@program(item="fresh", **TRAIN)
def f7_embedding_padding_idx_train(paddle):
    emb = paddle.nn.Embedding(5, 2, padding_idx=0)
    emb.weight.set_value(_a([5, 2], 0.1).astype("float32"))
    ids = paddle.to_tensor(np.array([[0, 1, 1], [3, 0, 4]], dtype="int64"))
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=emb.parameters())
    out = emb(ids)
    out.sum().backward()
    g = emb.weight.grad.clone()
    opt.step()
    return {"out": out, "g": g, "w": emb.weight}


@program(item="fresh", **TRAIN)
def f7_adaptive_avgpool_layernorm_head(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(_wave([2, 3, 4, 4], 0.5).astype("float32"), stop_gradient=False)
    pooled = nn.AdaptiveAvgPool2D(1)(x).flatten(1)
    ln = _init(nn.LayerNorm(3))
    y = ln(pooled)
    avg = nn.functional.avg_pool2d(x, kernel_size=2, stride=2)
    (y * paddle.to_tensor(np.array([1.0, 2.0, 3.0], dtype="float32"))).sum().backward()
    return {"pooled": pooled, "y": y, "avg": avg, "gx": x.grad, "ln_g": ln.weight.grad}


@program(item="fresh")
def f7_clone_vs_detach_grad_flow(paddle):
    x = _t(paddle, [1.0, 2.0])
    c = x.clone()
    d = x.detach()
    (c * 3 + d * 5).sum().backward()
    return {"gx": x.grad, "c_sg": c.stop_gradient, "d_sg": d.stop_gradient,
            "c_leaf": c.is_leaf}


@program(item="fresh")
def f7_sequential_ordered_dict_and_layerlist_train(paddle):
    nn = paddle.nn
    seq = nn.Sequential(("fc1", nn.Linear(2, 2)), ("act", nn.GELU()), ("fc2", nn.Linear(2, 1)))
    _init(seq, "float32")
    x = paddle.to_tensor(np.array([[0.5, -0.5]], dtype="float32"))
    seq(x).sum().backward()
    return {"names": [n for n, _ in seq.named_parameters()], "g1": seq.fc1.weight.grad,
            "len": len(seq)}
