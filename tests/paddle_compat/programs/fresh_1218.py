"""Fresh differential programs (batch 1218): a mixed draw of what Paddle users write: autograd
as the seed articles teach it (backward, grad with create_graph, hooks, PyLayer, no_grad and
detach, retain_graph, accumulation); small training scripts after Paddle's beginner tutorials
(paddle.io, Conv2D/LSTM/MultiHeadAttention, optimizers and lr schedulers, paddle.metric,
save/load to a temporary directory) with weights fixed through Assign or set_state_dict; and
tensor maths and manipulation as a NumPy user writes it. Written without looking at opsdk
(issue 26)."""
import os
import tempfile

import numpy as np

from ..harness import attempt
from . import program


def _a(shape, start=0.0, step=0.25, dtype="float32"):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape).astype(dtype)


def _w(shape, scale=0.1, dtype="float32"):
    n = int(np.prod(shape))
    return (scale * np.sin(np.arange(1, n + 1, dtype="float64"))).reshape(shape).astype(dtype)


def _assign(paddle, arr):
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(arr))


def _fix(paddle, layer, scale=0.1):
    """Every parameter of layer set to a deterministic pattern through set_state_dict."""
    state = {k: _w(v.shape, scale) for k, v in layer.state_dict().items()}
    layer.set_state_dict(state)
    return layer


# ---------------------------------------------------------------- autograd (seed articles)


@program(item="fresh")
def f18_ag_cube_second_order(paddle):
    x = paddle.to_tensor([2.0, -1.0], dtype="float64", stop_gradient=False)
    first, = paddle.grad(outputs=paddle.sum(x ** 3 + 2 * x ** 2), inputs=x, create_graph=True)
    second, = paddle.grad(outputs=first.sum(), inputs=x)
    return {"first": first, "second": second, "first_sg": first.stop_gradient, "x_grad": x.grad}


@program(item="fresh", differs=(["w", "same_object", "w_grad_none", "w_sg", "w0", "w0_grad"],
                                "docs/paddle.md, In place and views: under no_grad `w -= lr * "
                                "w.grad` updates the leaf w in place in opsdk; Paddle rebinds w "
                                "to a new stop_gradient=True tensor without a grad"))
def f18_ag_seed_manual_update_loop(paddle):
    w = paddle.to_tensor([0.0], stop_gradient=False)
    w0 = w
    loss = (w - 3.0) ** 2
    loss.backward()
    g = w.grad.numpy().copy()
    with paddle.no_grad():
        w -= 0.1 * w.grad
    return {"g": g, "w": w, "same_object": w is w0, "w_grad_none": w.grad is None,
            "w_sg": w.stop_gradient, "w0": w0, "w0_grad": w0.grad,
            "clear": attempt(lambda: w.clear_gradient())}


@program(item="fresh")
def f18_ag_create_parameter_sgd(paddle):
    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]])
    y_true = 2 * x + 1
    w = paddle.create_parameter(shape=[1, 1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.5))
    b = paddle.create_parameter(shape=[1], dtype="float32", is_bias=True)
    optimizer = paddle.optimizer.SGD(learning_rate=0.02, parameters=[w, b])
    history = []
    for epoch in range(6):
        mse = paddle.mean((paddle.matmul(x, w) + b - y_true) ** 2)
        mse.backward()
        optimizer.step()
        optimizer.clear_grad()
        history.append(float(mse))
    return {"w": w, "b": b, "history": history, "trainable": w.trainable,
            "b_grad_after_clear": b.grad}


@program(item="fresh")
def f18_ag_retain_graph_twice(paddle):
    x = paddle.to_tensor([1.0, -2.0, 0.5], stop_gradient=False)
    y = paddle.sum(paddle.tanh(x) * x)
    y.backward(retain_graph=True)
    g1 = x.grad.numpy().copy()
    y.backward()
    g2 = x.grad.numpy().copy()
    third = attempt(y.backward)
    return {"g1": g1, "g2": g2, "third": third}


@program(item="fresh")
def f18_ag_hook_scales_and_removes(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    h = x.register_hook(lambda g: g * 2)
    paddle.sum(x ** 2).backward()
    first = x.grad.numpy().copy()
    h.remove()
    x.clear_gradient()
    paddle.sum(x ** 2).backward()
    return {"first": first, "second": x.grad}


@program(item="fresh")
def f18_ag_hook_on_intermediate(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64", stop_gradient=False)
    seen = []
    h = x * 3
    h.register_hook(lambda g: seen.append(g.numpy().copy()))
    z = paddle.mean(h * h)
    z.backward()
    return {"seen": seen, "gx": x.grad, "h_grad": h.grad, "z": z}


def _saving_layer(paddle, fwd, bwd):
    """A PyLayer that keeps its input and output for a backward bwd(g, x, out, *extra)."""
    class Saving(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, *extra):
            out = fwd(x, *extra)
            ctx.save_for_backward(x, out)
            ctx.extra = extra
            return out

        @staticmethod
        def backward(ctx, grad_out):
            x, out = ctx.saved_tensor()
            return bwd(grad_out, x, out, *ctx.extra)
    return Saving


PYLAYER_NONE = ("docs/paddle.md, PyLayer: backward may return one gradient per forward "
                "argument (None for a non-Tensor); Paddle 3.3.1 raises a ValueError, so its "
                "later gradient misses the first backward's")


@program(item="fresh", differs=(["with_none", "none_grad", "gx"], PYLAYER_NONE))
def f18_ag_pylayer_seed_power(paddle):
    seed_style = _saving_layer(paddle, lambda x, alpha: x ** alpha,
                               lambda g, x, out, alpha: (alpha * x ** (alpha - 1) * g, None))
    one_grad = _saving_layer(paddle, lambda x, alpha: x ** alpha,
                             lambda g, x, out, alpha: alpha * x ** (alpha - 1) * g)
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 0.5]], stop_gradient=False)
    with_none = attempt(lambda: paddle.sum(seed_style.apply(x, 2.0)).backward())
    none_grad = x.grad
    y = one_grad.apply(x * 2, 3.0) + x
    paddle.sum(y).backward()
    return {"with_none": with_none, "none_grad": none_grad, "y": y, "gx": x.grad,
            "y_sg": y.stop_gradient}


@program(item="fresh")
def f18_ag_pylayer_exp_saved_output(paddle):
    op = _saving_layer(paddle, paddle.exp, lambda g, x, out: g * out)
    x = paddle.to_tensor([[0.0, 1.0], [-1.0, 0.5]], dtype="float64", stop_gradient=False)
    y = op.apply(x)
    (y * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64")).sum().backward()
    return {"y": y, "gx": x.grad}


@program(item="fresh")
def f18_ag_detach_and_no_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    d = x.detach()
    with paddle.no_grad():
        c = x * 2
    z = paddle.sum(d * x + c * x)
    z.backward()
    return {"gx": x.grad, "d_sg": d.stop_gradient, "c_sg": c.stop_gradient, "z": z,
            "c_leaf": c.is_leaf}


@program(item="fresh")
def f18_ag_grad_allow_unused(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = paddle.to_tensor([5.0, 6.0], stop_gradient=False)
    y = paddle.sum(x * x)
    gx, gz = paddle.grad(y, [x, z], allow_unused=True, retain_graph=True)
    refused = attempt(paddle.grad, y, [x, z])
    return {"gx": gx, "gz_none": gz is None, "refused": refused}


@program(item="fresh")
def f18_ag_grad_outputs_weighted(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    y = x * x
    go = paddle.to_tensor([[1.0, 0.5, -1.0]])
    g, = paddle.grad([y], [x], grad_outputs=[go])
    x2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y2 = paddle.exp(x2)
    y2.backward(grad_tensor=paddle.to_tensor([1.0, 0.0, 2.0]))
    return {"g": g, "g2": x2.grad}


@program(item="fresh")
def f18_ag_grad_accumulation_matches_full_batch(paddle):
    x = paddle.to_tensor(_a([6, 3], -1.0, 0.3))
    t = paddle.to_tensor(_a([6, 1], 0.5, -0.2))
    lin = paddle.nn.Linear(3, 1, weight_attr=_assign(paddle, _w([3, 1])),
                           bias_attr=_assign(paddle, np.array([0.2], "float32")))
    for i in range(3):
        loss = paddle.nn.functional.mse_loss(lin(x[2 * i:2 * i + 2]), t[2 * i:2 * i + 2]) / 3
        loss.backward()
    acc_w = lin.weight.grad.numpy().copy()
    acc_b = lin.bias.grad.numpy().copy()
    lin.clear_gradients()
    paddle.nn.functional.mse_loss(lin(x), t).backward()
    return {"acc_w": acc_w, "acc_b": acc_b, "full_w": lin.weight.grad, "full_b": lin.bias.grad}


@program(item="fresh")
def f18_ag_zero_dim_and_empty(paddle):
    s = paddle.to_tensor(1.5, stop_gradient=False)
    y = s * s * s
    y.backward()
    e = paddle.zeros([0, 3], dtype="float32")
    e.stop_gradient = False
    le = paddle.sum(e * 2.0)
    le.backward()
    return {"y": y, "gs": s.grad, "le": le, "ge": e.grad, "gshape": list(s.grad.shape)}


@program(item="fresh")
def f18_ag_hessian_by_double_grad(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    f = x[0] ** 2 * x[1] + paddle.sin(x[1])
    g, = paddle.grad(f, x, create_graph=True)
    rows = []
    for i in range(2):
        r, = paddle.grad(g[i], x, retain_graph=True)
        rows.append(r.numpy())
    return {"g": g, "H": np.stack(rows), "g_sg": g.stop_gradient}


@program(item="fresh")
def f18_ag_activation_grads_f64(paddle):
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0], dtype="float64", stop_gradient=False)
    F = paddle.nn.functional
    out = {}
    for name, fn in (("relu", F.relu), ("sigmoid", F.sigmoid), ("gelu", F.gelu),
                     ("softplus", F.softplus), ("leaky", lambda v: F.leaky_relu(v, 0.1))):
        g, = paddle.grad(paddle.sum(fn(x)), x)
        out[name] = g
    return out


@program(item="fresh")
def f18_ag_embedding_rows_grad(paddle):
    emb = paddle.nn.Embedding(num_embeddings=8, embedding_dim=3,
                              weight_attr=_assign(paddle, _w([8, 3])))
    ids = paddle.to_tensor([[1, 3, 5, 3]])
    e = emb(ids)
    loss = e.sum()
    loss.backward()
    g = emb.weight.grad
    return {"e_shape": e.shape, "g": g, "rows_touched": np.nonzero(g.numpy().sum(1))[0]}


@program(item="fresh")
def f18_ag_clip_global_norm_adam(paddle):
    lin = paddle.nn.Linear(2, 2, weight_attr=_assign(paddle, np.array([[1.0, -2.0], [3.0, 0.5]],
                                                                      "float32")),
                           bias_attr=_assign(paddle, np.zeros(2, "float32")))
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=lin.parameters(), grad_clip=clip)
    x = paddle.to_tensor([[10.0, 20.0], [-5.0, 3.0]])
    loss = paddle.sum(lin(x) ** 2)
    loss.backward()
    raw = lin.weight.grad.numpy().copy()
    opt.step()
    return {"raw": raw, "w": lin.weight, "b": lin.bias, "loss": loss}


@program(item="fresh")
def f18_ag_argmax_is_not_differentiable(paddle):
    x = paddle.to_tensor([[0.1, 0.9, 0.3], [0.7, 0.2, 0.4]], stop_gradient=False)
    idx = paddle.argmax(x, axis=1)
    picked = paddle.take_along_axis(x, idx.unsqueeze(1), axis=1)
    paddle.sum(picked).backward()
    return {"idx": idx, "idx_sg": idx.stop_gradient, "gx": x.grad, "idx_dtype": str(idx.dtype)}


@program(item="fresh")
def f18_ag_grad_modes(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)

    @paddle.no_grad()
    def f(v):
        return v * 3, paddle.is_grad_enabled()

    y, inside = f(x)
    with paddle.no_grad():
        with paddle.enable_grad():
            z = x * 4
    with paddle.set_grad_enabled(False):
        w = x * 5
    return {"y_sg": y.stop_gradient, "inside": inside, "z_sg": z.stop_gradient,
            "w_sg": w.stop_gradient, "outside": paddle.is_grad_enabled()}


@program(item="fresh", differs=(["bad_shape"],
                                "docs/paddle.md, Errors: a grad_outputs shape that differs from "
                                "the output's other than by dims of size 1 is a BackwardError; "
                                "Paddle runs on and returns a gradient of the wrong shape ([3] "
                                "for a [2] input; PyTorch refuses it too)"))
def f18_ag_backward_errors(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    y = x * 2
    no_grad_backward = attempt(y.backward)
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = a * 3
    bad_shape = attempt(paddle.grad, b, a, grad_outputs=paddle.ones([3]))
    ints = paddle.to_tensor([1, 2, 3])
    ints_sg = ints.stop_gradient
    return {"no_grad_backward": no_grad_backward, "x_grad": x.grad, "bad_shape": bad_shape,
            "ints_sg": ints_sg}


# ---------------------------------------------------------------- training scripts


@program(item="fresh")
def f18_tr_dataset_dataloader_batches(paddle):
    class Squares(paddle.io.Dataset):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def __getitem__(self, i):
            return np.array([i, i * i], "float32"), np.array([i % 3], "int64")

        def __len__(self):
            return self.n

    ds = Squares(10)
    loader = paddle.io.DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
    shapes, sums, labels = [], [], []
    for x, y in loader:
        shapes.append(list(x.shape))
        sums.append(float(x.sum()))
        labels.append(y.numpy().ravel().tolist())
    return {"len_ds": len(ds), "len_loader": len(loader), "shapes": shapes, "sums": sums,
            "labels": labels, "x_dtype": str(x.dtype), "y_dtype": str(y.dtype)}


@program(item="fresh")
def f18_tr_tensor_dataset_drop_last(paddle):
    xs = paddle.to_tensor(_a([7, 2]))
    ys = paddle.arange(7)
    ds = paddle.io.TensorDataset([xs, ys])
    loader = paddle.io.DataLoader(ds, batch_size=3, drop_last=True)
    got = [(x.numpy().copy(), y.numpy().copy()) for x, y in loader]
    item = ds[2]
    return {"n_batches": len(got), "first_x": got[0][0], "last_y": got[-1][1],
            "len_loader": len(loader), "item0": item[0], "item1": item[1]}


@program(item="fresh")
def f18_tr_linear_regression_sgd(paddle):
    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]])
    y = paddle.to_tensor([[3.0], [5.0], [7.0], [9.0]])
    lin = paddle.nn.Linear(1, 1, weight_attr=_assign(paddle, np.array([[0.1]], "float32")),
                           bias_attr=_assign(paddle, np.array([0.0], "float32")))
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=lin.parameters())
    mse = paddle.nn.MSELoss()
    losses = []
    for _ in range(20):
        loss = mse(lin(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses[::5], "w": lin.weight, "b": lin.bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f18_tr_mlp_adam_crossentropy_accuracy(paddle):
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    _fix(paddle, model, 0.5)
    x = paddle.to_tensor(_a([6, 4], -1.0, 0.15))
    y = paddle.to_tensor(np.array([[0], [1], [2], [0], [1], [2]], "int64"))
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    metric = paddle.metric.Accuracy()
    losses, accs = [], []
    for _ in range(5):
        logits = model(x)
        loss = loss_fn(logits, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        correct = metric.compute(logits, y)
        metric.update(correct)
        losses.append(float(loss))
        accs.append(metric.accumulate())
    return {"losses": losses, "accs": accs, "name": metric.name(), "last": model(x)}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f18_tr_conv_pool_classifier(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(1, 2, kernel_size=3, padding=1)
            self.pool = paddle.nn.MaxPool2D(kernel_size=2, stride=2)
            self.flat = paddle.nn.Flatten()
            self.fc = paddle.nn.Linear(2 * 3 * 3, 4)

        def forward(self, x):
            return self.fc(self.flat(self.pool(paddle.nn.functional.relu(self.conv(x)))))

    net = _fix(paddle, Net(), 0.3)
    x = paddle.to_tensor(_a([2, 1, 6, 6], -1.0, 0.03))
    out = net(x)
    loss = paddle.nn.functional.cross_entropy(out, paddle.to_tensor([1, 3]))
    loss.backward()
    return {"out": out, "loss": loss, "gconv": net.conv.weight.grad, "gfc_b": net.fc.bias.grad,
            "keys": sorted(net.state_dict().keys())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f18_tr_lstm_fixed_weights(paddle):
    lstm = paddle.nn.LSTM(input_size=3, hidden_size=4, num_layers=1)
    _fix(paddle, lstm, 0.2)
    x = paddle.to_tensor(_a([2, 5, 3], -0.5, 0.05), stop_gradient=False)
    out, (h, c) = lstm(x)
    paddle.mean(out).backward()
    return {"out": out, "h": h, "c": c, "gx": x.grad,
            "n_params": len(lstm.parameters()), "keys": sorted(lstm.state_dict().keys())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f18_tr_gru_and_simplernn(paddle):
    gru = _fix(paddle, paddle.nn.GRU(2, 3), 0.3)
    rnn = _fix(paddle, paddle.nn.SimpleRNN(2, 3, activation="tanh"), 0.3)
    x = paddle.to_tensor(_a([1, 4, 2], 0.0, 0.2))
    h0 = paddle.full([1, 1, 3], 0.1)
    og, hg = gru(x, h0)
    orr, hr = rnn(x)
    return {"og": og, "hg": hg, "or": orr, "hr": hr}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f18_tr_multihead_attention_mask(paddle):
    mha = _fix(paddle, paddle.nn.MultiHeadAttention(embed_dim=4, num_heads=2), 0.3)
    q = paddle.to_tensor(_a([2, 3, 4], -0.6, 0.05), stop_gradient=False)
    mask = paddle.to_tensor(np.tril(np.ones([3, 3])).astype("bool"))
    out = mha(q, q, q, attn_mask=mask)
    out.sum().backward()
    unmasked = mha(q, q, q)
    return {"out": out, "unmasked": unmasked, "gq": q.grad, "gout": mha.out_proj.weight.grad}


@program(item="fresh")
def f18_tr_step_decay_schedule(paddle):
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    lin = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=lin.parameters())
    lrs = []
    for _ in range(6):
        lrs.append(opt.get_lr())
        sched.step()
    return {"lrs": lrs, "last_epoch": sched.last_epoch, "last_lr": sched.last_lr}


@program(item="fresh")
def f18_tr_cosine_and_warmup(paddle):
    cos = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=1.0, T_max=4)
    warm = paddle.optimizer.lr.LinearWarmup(learning_rate=0.5, warmup_steps=3, start_lr=0.0,
                                            end_lr=0.5)
    multi = paddle.optimizer.lr.MultiStepDecay(learning_rate=1.0, milestones=[2, 4], gamma=0.5)
    expo = paddle.optimizer.lr.ExponentialDecay(learning_rate=1.0, gamma=0.9)
    out = {"cos": [], "warm": [], "multi": [], "expo": []}
    for _ in range(6):
        for k, s in (("cos", cos), ("warm", warm), ("multi", multi), ("expo", expo)):
            out[k].append(s())
            s.step()
    return out


@program(item="fresh")
def f18_tr_momentum_l2decay(paddle):
    lin = paddle.nn.Linear(2, 2, weight_attr=_assign(paddle, np.array([[1.0, 2.0], [-1.0, 0.5]],
                                                                      "float32")),
                           bias_attr=_assign(paddle, np.array([0.1, -0.1], "float32")))
    opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=lin.parameters(),
                                    weight_decay=paddle.regularizer.L2Decay(0.01))
    x = paddle.to_tensor([[1.0, -1.0], [0.5, 2.0]])
    ws = []
    for _ in range(3):
        loss = paddle.mean(lin(x) ** 2)
        loss.backward()
        opt.step()
        opt.clear_grad()
        ws.append(lin.weight.numpy().copy())
    return {"ws": ws, "b": lin.bias}


@program(item="fresh")
def f18_tr_adamw_text_classifier(paddle):
    class TextCls(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = paddle.nn.Embedding(10, 4)
            self.fc = paddle.nn.Linear(4, 2)

        def forward(self, ids):
            return self.fc(paddle.mean(self.emb(ids), axis=1))

    model = _fix(paddle, TextCls(), 0.4)
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=model.parameters(),
                                 weight_decay=0.01)
    ids = paddle.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    label = paddle.to_tensor([0, 1, 0])
    losses = []
    for _ in range(4):
        loss = paddle.nn.functional.cross_entropy(model(ids), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "emb0": model.emb.weight[0], "fc": model.fc.weight}


@program(item="fresh")
def f18_tr_save_load_tempdir(paddle):
    model = _fix(paddle, paddle.nn.Sequential(paddle.nn.Linear(3, 2), paddle.nn.Tanh()), 0.7)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=model.parameters())
    x = paddle.to_tensor(_a([2, 3]))
    model(x).sum().backward()
    opt.step()
    with tempfile.TemporaryDirectory() as d:
        paddle.save(model.state_dict(), os.path.join(d, "model.pdparams"))
        paddle.save(opt.state_dict(), os.path.join(d, "opt.pdopt"))
        files = sorted(os.listdir(d))
        state = paddle.load(os.path.join(d, "model.pdparams"))
        ostate = paddle.load(os.path.join(d, "opt.pdopt"))
    fresh = paddle.nn.Sequential(paddle.nn.Linear(3, 2), paddle.nn.Tanh())
    fresh.set_state_dict(state)
    return {"files": files, "same": fresh(x), "orig": model(x), "keys": sorted(state.keys()),
            "opt_has_lr": "LR_Scheduler" in ostate or len(ostate) > 0}


@program(item="fresh")
def f18_tr_save_load_tensor_and_dict(paddle):
    t = paddle.to_tensor(_a([2, 2], 1.0, 0.5, "float64"))
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "t.pdtensor")
        paddle.save({"t": t, "n": 3, "lst": [1, 2]}, p)
        back = paddle.load(p)
        missing = attempt(paddle.load, os.path.join(d, "nope.pdparams"))
    return {"t": back["t"], "n": back["n"], "lst": back["lst"], "missing": missing}


@program(item="fresh")
def f18_tr_metric_accuracy_topk(paddle):
    m = paddle.metric.Accuracy(topk=(1, 2))
    pred = paddle.to_tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
    label = paddle.to_tensor([[1], [1], [0], [2]])
    c = m.compute(pred, label)
    r = m.update(c)
    acc = m.accumulate()
    m.reset()
    after = m.accumulate()
    return {"correct": c, "update": r, "acc": acc, "after_reset": after, "names": m.name()}


@program(item="fresh")
def f18_tr_batchnorm_train_eval(paddle):
    bn = paddle.nn.BatchNorm1D(3, momentum=0.9)
    x = paddle.to_tensor(_a([4, 3], -1.0, 0.4))
    y_train = bn(x)
    mean, var = bn._mean.numpy().copy(), bn._variance.numpy().copy()
    bn.eval()
    y_eval = bn(x)
    return {"y_train": y_train, "mean": mean, "var": var, "y_eval": y_eval,
            "training": bn.training}


@program(item="fresh")
def f18_tr_dropout_modes(paddle):
    drop = paddle.nn.Dropout(p=0.5)
    x = paddle.ones([200, 50])
    y = drop(x)
    vals = np.unique(y.numpy())
    frac = float((y.numpy() == 0).mean())
    drop.eval()
    z = drop(x)
    return {"vals": vals, "frac_ok": 0.4 < frac < 0.6, "eval": z, "shape": y.shape}


@program(item="fresh")
def f18_tr_layer_bookkeeping(paddle):
    model = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    names = [n for n, _ in model.named_parameters()]
    shapes = [list(p.shape) for p in model.parameters()]
    n = sum(int(np.prod(p.shape)) for p in model.parameters())
    sub = [type(l).__name__ for l in model.sublayers()]
    model.eval()
    ev = [l.training for l in model.sublayers()]
    model[0].weight.stop_gradient = True
    trainable = [not p.stop_gradient for p in model.parameters()]
    return {"names": names, "shapes": shapes, "n": n, "sub": sub, "ev": ev, "len": len(model),
            "trainable": trainable}


@program(item="fresh")
def f18_tr_samplers_and_split(paddle):
    ds = paddle.io.TensorDataset([paddle.arange(10, dtype="float32").reshape([10, 1])])
    a, b = paddle.io.random_split(ds, [7, 3])
    bs = paddle.io.BatchSampler(dataset=ds, batch_size=4, shuffle=False, drop_last=False)
    batches = list(bs)
    seq = list(paddle.io.SequenceSampler(ds))
    loader = paddle.io.DataLoader(ds, batch_sampler=bs)
    firsts = [x[0].numpy().ravel().tolist() for x in loader]
    return {"lens": [len(a), len(b)], "batches": batches, "seq": seq, "firsts": firsts,
            "len_bs": len(bs)}


@program(item="fresh")
def f18_tr_user_errors(paddle):
    lin = paddle.nn.Linear(3, 2)
    wrong_in = attempt(lin, paddle.ones([2, 4]))
    zero_bs = attempt(paddle.io.DataLoader, paddle.io.TensorDataset([paddle.ones([4, 2])]),
                      batch_size=0)
    bad_state = attempt(lin.set_state_dict, {"weight": np.ones([5, 5], "float32")})
    conv = paddle.nn.Conv2D(3, 4, 3)
    wrong_ch = attempt(conv, paddle.ones([1, 2, 5, 5]))
    return {"wrong_in": wrong_in, "zero_bs": zero_bs, "bad_state": bad_state,
            "wrong_ch": wrong_ch, "w_after": lin.weight.shape}


# ---------------------------------------------------------------- NumPy-style tensor maths


@program(item="fresh")
def f18_np_broadcast_mixed_dtypes(paddle):
    a = paddle.to_tensor(_a([3, 1]))
    b = paddle.to_tensor(_a([4], 1.0, 1.0, "float64"))
    i = paddle.to_tensor(np.array([[1, 2, 3, 4]], "int64"))
    r = {"f32_f64": a + b, "f32_i64": attempt(lambda: a * i), "i_div": i / 2, "i_floordiv": i // 3,
         "i_mod": paddle.to_tensor([-7, 7]) % 3, "pow_int": i ** 2, "f_scalar": a * 2.5}
    r["bad"] = attempt(lambda: paddle.ones([2, 3]) + paddle.ones([4, 3]))
    return r


@program(item="fresh")
def f18_np_zero_dim_reductions(paddle):
    s = paddle.to_tensor(3.5)
    v = paddle.to_tensor([1.0, 4.0, 2.0])
    return {"sum0": paddle.sum(s), "mean0": s.mean(), "max_v": v.max(), "argmax": v.argmax(),
            "item": v.max().item(), "r1": s.reshape([1]), "shape0": s.shape, "ndim": s.ndim,
            "unsq": s.unsqueeze(0), "float": float(v.sum()), "s_index": v[1]}


@program(item="fresh")
def f18_np_empty_tensors(paddle):
    e = paddle.zeros([0, 3])
    return {"sum0": e.sum(axis=0), "sum_all": e.sum(), "mean_all": e.mean(), "prod": e.prod(),
            "concat": paddle.concat([e, paddle.ones([2, 3])]), "shape": e.shape,
            "max": attempt(paddle.max, e), "numel": e.numel(), "T": e.T.shape}


@program(item="fresh")
def f18_np_reshape_transpose_stack(paddle):
    x = paddle.arange(24).reshape([2, 3, 4])
    return {"t": x.transpose([2, 0, 1]), "r": x.reshape([-1, 6]), "flat": x.flatten(1),
            "st": paddle.stack([x[0], x[1]], axis=-1).shape, "cat": paddle.concat([x, x], 1).shape,
            "split": [p.shape for p in paddle.split(x, [1, 3], axis=2)],
            "chunk": [p.shape for p in paddle.chunk(x, 2, axis=2)],
            "sq": paddle.squeeze(x[:, :1], axis=1).shape, "moveaxis": paddle.moveaxis(x, 0, 2).shape,
            "bad": attempt(x.reshape, [5, 5])}


@program(item="fresh")
def f18_np_sort_topk_argsort(paddle):
    x = paddle.to_tensor([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 4.0, 4.0]])
    v, i = paddle.topk(x, k=2)
    return {"sort": paddle.sort(x, axis=1, descending=True), "argsort": paddle.argsort(x, axis=1),
            "argsort_stable": paddle.argsort(x, axis=1, stable=True), "topk_v": v, "topk_i": i,
            "kth": paddle.kthvalue(x, 2, axis=1)[0], "min_axis0": paddle.min(x, axis=0),
            "bad_k": attempt(paddle.topk, x, 5)}


@program(item="fresh")
def f18_np_where_masked_nonzero(paddle):
    x = paddle.to_tensor([[1, -2, 3], [-4, 5, -6]])
    m = x > 0
    return {"where": paddle.where(m, x, paddle.zeros_like(x)), "masked": paddle.masked_select(x, m),
            "nonzero": paddle.nonzero(m), "nz_tuple": paddle.nonzero(m, as_tuple=True),
            "where1": paddle.where(m), "mask_sum": m.sum(), "mask_dtype": str(m.dtype),
            "count": paddle.count_nonzero(x > 0, axis=1),
            "where_scalar": paddle.where(m, x.astype("float32"), -1.0)}


@program(item="fresh")
def f18_np_cumulative_and_diff(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    i = paddle.to_tensor([1, 2, 3, 4])
    return {"cumsum": paddle.cumsum(x, axis=1), "cumsum_flat": paddle.cumsum(x),
            "cumprod": paddle.cumprod(x, dim=0), "diff": paddle.diff(x, axis=1),
            "diff_i": paddle.diff(i), "cumsum_i": paddle.cumsum(i), "cummax": paddle.cummax(x[:, ::-1], axis=1)[0],
            "logcumsumexp": paddle.logcumsumexp(x, axis=1)}


@program(item="fresh")
def f18_np_matmul_broadcast(paddle):
    a = paddle.to_tensor(_a([2, 1, 3, 4], -1.0, 0.1))
    b = paddle.to_tensor(_a([3, 4, 2], 0.5, -0.05))
    v = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    return {"mm": paddle.matmul(a, b), "mv": paddle.matmul(a, v), "vv": paddle.matmul(v, v),
            "at": a @ b, "tx": paddle.matmul(b, b, transpose_x=True).shape,
            "dot": paddle.dot(v, v), "outer": paddle.outer(v[:2], v[:3]),
            "bad": attempt(paddle.matmul, a, a)}


@program(item="fresh")
def f18_np_rounding_and_sign(paddle):
    x = paddle.to_tensor([-2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 2.7])
    return {"round": paddle.round(x), "floor": paddle.floor(x), "ceil": paddle.ceil(x),
            "trunc": paddle.trunc(x), "sign": paddle.sign(x), "abs": paddle.abs(x),
            "clip": paddle.clip(x, -1.0, 1.0), "frac": paddle.frac(x),
            "clip_i": paddle.clip(paddle.to_tensor([-5, 0, 5]), min=-2, max=2),
            "round_dec": paddle.round(paddle.to_tensor([1.234, 5.678]), decimals=1)}


@program(item="fresh")
def f18_np_indexing_and_setitem(paddle):
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    r = {"neg": x[-1], "step": x[:, ::2], "rev_rows": x[::-1], "fancy": x[[0, 2]],
         "pair": x[[0, 2], [1, 3]], "mask": x[x > 6], "ellipsis": x[..., 1],
         "none": x[None, 1].shape, "oob": attempt(lambda: x[5])}
    y = x.clone()
    y[1] = 0.0
    y[:, 0] = paddle.to_tensor([9.0, 8.0, 7.0])
    y[y > 10] = -1.0
    r["y"] = y
    return r


@program(item="fresh")
def f18_np_unique_and_counts(paddle):
    x = paddle.to_tensor([3, 1, 2, 3, 1, 3])
    u, inv, cnt = paddle.unique(x, return_inverse=True, return_counts=True)
    uc = paddle.unique_consecutive(paddle.to_tensor([1, 1, 2, 2, 1]))
    return {"u": u, "inv": inv, "cnt": cnt, "uc": uc,
            "bincount": paddle.bincount(x), "hist": paddle.histogram(
                paddle.to_tensor([0.1, 0.5, 0.9, 0.7]), bins=2, min=0, max=1)}


@program(item="fresh", rtol=1e-5, atol=1e-5)
def f18_np_einsum_and_linalg(paddle):
    a = paddle.to_tensor(_a([2, 3], 0.5, 0.5, "float64"))
    b = paddle.to_tensor(_a([3, 2], -1.0, 0.4, "float64"))
    m = paddle.to_tensor([[4.0, 1.0], [2.0, 3.0]], dtype="float64")
    return {"ij_jk": paddle.einsum("ij,jk->ik", a, b), "trace": paddle.einsum("ii", m),
            "outer": paddle.einsum("i,j->ij", a[0], b[:, 0]), "inv": paddle.linalg.inv(m),
            "det": paddle.linalg.det(m), "norm": paddle.linalg.norm(a),
            "solve": paddle.linalg.solve(m, paddle.to_tensor([[1.0], [2.0]], dtype="float64")),
            "singular": attempt(paddle.linalg.inv, paddle.zeros([2, 2], dtype="float64"))}


@program(item="fresh")
def f18_np_tile_expand_repeat(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return {"tile": paddle.tile(x, [2, 1]), "tile1": paddle.tile(paddle.to_tensor([5, 6]), [3]),
            "expand": paddle.expand(paddle.to_tensor([[1], [2]]), [2, 3]),
            "bcast": paddle.broadcast_to(paddle.to_tensor([7.0]), [2, 2]),
            "rep": paddle.repeat_interleave(x, 2, axis=0),
            "rep_t": paddle.repeat_interleave(paddle.to_tensor([1, 2, 3]),
                                              paddle.to_tensor([1, 0, 2])),
            "flip": paddle.flip(x, [0, 1]), "roll": paddle.roll(x, 1),
            "bad_expand": attempt(paddle.expand, paddle.to_tensor([1, 2]), [3, 3])}


@program(item="fresh")
def f18_np_gather_scatter(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    idx = paddle.to_tensor([2, 0])
    upd = paddle.to_tensor([[10.0, 20.0], [30.0, 40.0]])
    return {"gather": paddle.gather(x, idx), "gather_nd": paddle.gather_nd(
        x, paddle.to_tensor([[0, 1], [2, 0]])), "scatter": paddle.scatter(x, idx, upd),
            "scatter_add": paddle.scatter(x, paddle.to_tensor([1, 1]), upd, overwrite=False),
            "tala": paddle.take_along_axis(x, paddle.to_tensor([[1], [0], [1]]), 1),
            "index_select": paddle.index_select(x, paddle.to_tensor([1]), axis=1),
            "put": paddle.put_along_axis(x, paddle.to_tensor([[0], [1], [0]]), 0.0, 1)}


@program(item="fresh", rtol=1e-5, atol=1e-5)
def f18_np_statistics(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 4.0, 7.0], [0.0, -1.0, 3.0, 3.0]], dtype="float64")
    return {"std": paddle.std(x), "std_ax": paddle.std(x, axis=1, unbiased=False),
            "var": paddle.var(x, axis=0), "median": paddle.median(x, axis=1),
            "median_all": paddle.median(x), "quant": paddle.quantile(x, 0.25, axis=1),
            "nanmean": paddle.nanmean(paddle.to_tensor([1.0, float("nan"), 3.0])),
            "logsumexp": paddle.logsumexp(x, axis=1), "mode": paddle.mode(
                paddle.to_tensor([1, 2, 2, 3]))[0], "amax": paddle.amax(x, axis=0)}


@program(item="fresh")
def f18_np_astype_conversions(paddle):
    x = paddle.to_tensor([-1.7, -0.2, 0.0, 0.9, 2.5])
    return {"to_int": x.astype("int64"), "to_int32": x.astype(paddle.int32),
            "to_bool": x.astype("bool"), "to_f64": x.astype("float64").dtype == paddle.float64,
            "cast": paddle.cast(x, "int8"), "bool_to_f": paddle.to_tensor([True, False]).astype(
                "float32"), "numpy_dtype": str(x.numpy().dtype), "tolist": x.astype("int64").tolist(),
            "f16": x.astype("float16"), "is_float": paddle.is_floating_point(x)}


@program(item="fresh")
def f18_np_elementwise_special_values(paddle):
    x = paddle.to_tensor([0.0, 1.0, -1.0, float("inf")])
    return {"log": paddle.log(x), "sqrt": paddle.sqrt(x), "div0": x / 0.0,
            "isnan": paddle.isnan(paddle.sqrt(x)), "isinf": paddle.isinf(x),
            "nan_to_num": paddle.nan_to_num(paddle.log(x)), "exp": paddle.exp(x),
            "int_div0": attempt(lambda: paddle.to_tensor([1, 2]) // paddle.to_tensor([0, 1])),
            "maximum": paddle.maximum(x, paddle.to_tensor(0.5)), "fmax": paddle.fmax(
                paddle.to_tensor([float("nan"), 1.0]), paddle.to_tensor([2.0, float("nan")]))}


@program(item="fresh")
def f18_np_user_errors(paddle):
    a = paddle.ones([2, 3])
    return {"concat_dtype": attempt(paddle.concat, [a, paddle.ones([2, 3], dtype="int64")]),
            "concat_shape": attempt(paddle.concat, [a, paddle.ones([3, 2])], axis=0),
            "stack_shape": attempt(paddle.stack, [a, paddle.ones([3, 3])]),
            "bad_axis": attempt(paddle.sum, a, axis=3), "bad_perm": attempt(a.transpose, [0, 0]),
            "to_tensor_ragged": attempt(paddle.to_tensor, [[1, 2], [3]]),
            "item_many": attempt(a.item), "split_uneven": attempt(paddle.split, a, 2, axis=1)}


@program(item="fresh")
def f18_np_numpy_interop(paddle):
    arr = np.arange(6, dtype="float64").reshape(2, 3)
    t = paddle.to_tensor(arr)
    back = t.numpy()
    arr[0, 0] = 100.0
    i32 = paddle.to_tensor(np.array([1, 2], dtype="int32"))
    return {"t00": t[0, 0], "back_type": type(back).__name__, "dtype": str(t.dtype),
            "i32": str(i32.dtype), "np_add": (t + np.ones(3)), "list_sum": paddle.to_tensor(
                [1, 2.5]).sum(), "from_scalar": paddle.to_tensor(7).shape,
            "np_bool": str(paddle.to_tensor(np.array([True])).dtype),
            "array_of_t": np.asarray(t).shape, "len": len(t)}


@program(item="fresh")
def f18_np_inplace_methods(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.add_(paddle.to_tensor([1.0, 1.0, 1.0]))
    x.scale_(2.0)
    y = paddle.to_tensor([[1.0, -1.0], [2.0, -2.0]])
    y.clip_(-1.5, 1.5)
    z = paddle.zeros([3])
    z.fill_(4.0)
    u = paddle.to_tensor([4.0, 9.0])
    u.sqrt_()
    x2 = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    leaf_inplace = attempt(x2.exp_)
    return {"x": x, "y": y, "z": z, "u": u, "leaf_inplace": leaf_inplace}
