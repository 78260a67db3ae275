"""Fresh differential programs (batch 1216): model code as users write it from Paddle 3.3.1's
tutorials: small networks built with paddle.nn (MLPs, CNNs, sequence models, attention,
residual blocks), custom Layers and their parameters, buffers and state dicts, train/eval,
weight initialization, a few optimizer steps with learning-rate schedulers and gradient
clipping, saving and loading state dicts, and losses. Every weight is fixed from NumPy (random
initialization differs between implementations); written without looking at opsdk (issue 26)."""
import os
import tempfile

import numpy as np

from ..harness import attempt
from . import program

EMPTY_BATCH = ("docs/paddle.md, Paddle 3.3.1 slips: the backward of a Linear over an empty batch "
               "raises in Paddle; opsdk gives the zero gradient, as PyTorch")
KERNEL_TOO_LARGE = ("docs/paddle.md, Paddle 3.3.1 slips: a Conv2D kernel larger than its input: "
                    "Paddle returns an empty tensor after an MKL error; opsdk raises a ShapeError")
NO_SUMMARY = ("docs/paddle.md, Every public name: paddle.summary is Paddle's high-level API, not "
              "provided")
NO_BASE = ("docs/paddle.md, paddle.framework: paddle.base, Paddle's internal framework package, "
           "is not provided")


def _values(shape, key, scale=0.1, dtype="float32"):
    n = int(np.prod(shape)) if len(shape) else 1
    v = scale * np.sin(0.37 * np.arange(n, dtype="float64") + 0.11 * key)
    return v.reshape(shape).astype(dtype)


def _fix(layer, scale=0.1):
    """Set every parameter of layer from NumPy; the values depend on the parameter's name."""
    for name, p in layer.named_parameters():
        key = sum(map(ord, name)) % 89
        p.set_value(_values(list(p.shape), key, scale, str(p.numpy().dtype)))
    return layer


def _x(shape, start=-1.0, step=0.1, dtype="float32"):
    n = int(np.prod(shape))
    return ((start + step * np.arange(n)) % 2.0 - 1.0).reshape(shape).astype(dtype)


def _assign(paddle, array):
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(np.array(array, "float32")))


def _mlp(paddle, sizes=(4, 8, 3)):
    nn = paddle.nn
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return _fix(nn.Sequential(*layers), 0.3)


def _train(paddle, model, opt, x, y, steps, loss_fn=None, scheduler=None):
    loss_fn = loss_fn or paddle.nn.MSELoss()
    losses = []
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        if scheduler is not None:
            scheduler.step()
        losses.append(float(loss))
    return losses


def _data(paddle, n=6, d=4, k=3):
    x = paddle.to_tensor(_x([n, d]))
    y = paddle.to_tensor(_x([n, k], 0.3, 0.17))
    return x, y


# ---------------------------------------------------------------- Linear and MLPs


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_linear_assign_init_forward_backward(paddle):
    w = _values([3, 2], 1, 0.5)
    fc = paddle.nn.Linear(3, 2, weight_attr=_assign(paddle, w),
                          bias_attr=_assign(paddle, [0.1, -0.2]))
    x = paddle.to_tensor(_x([4, 3]), stop_gradient=False)
    out = fc(x)
    loss = paddle.nn.functional.mse_loss(out, paddle.zeros([4, 2]))
    loss.backward()
    return {"out": out, "loss": loss, "gw": fc.weight.grad, "gb": fc.bias.grad, "gx": x.grad,
            "w_shape": fc.weight.shape, "w_sg": fc.weight.stop_gradient,
            "w_trainable": fc.weight.trainable}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_linear_no_bias_and_3d_input(paddle):
    fc = paddle.nn.Linear(4, 2, bias_attr=False)
    _fix(fc)
    x = paddle.to_tensor(_x([2, 3, 4]), stop_gradient=False)
    out = fc(x)
    out.sum().backward()
    return {"bias": fc.bias, "out": out, "nparams": len(fc.parameters()), "gw": fc.weight.grad,
            "gx": x.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_mlp_sequential_sgd_steps(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    losses = _train(paddle, model, opt, x, y, 5)
    return {"losses": losses, "w0": model[0].weight, "b2": model[2].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_mlp_momentum_nesterov_steps(paddle):
    out = {}
    for nesterov in (False, True):
        model = _mlp(paddle)
        x, y = _data(paddle)
        opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9,
                                        parameters=model.parameters(), use_nesterov=nesterov)
        out[str(nesterov)] = {"losses": _train(paddle, model, opt, x, y, 4),
                              "w": model[2].weight}
    return out


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_mlp_adam_steps(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.01, beta1=0.8, beta2=0.99,
                                parameters=model.parameters())
    losses = _train(paddle, model, opt, x, y, 5)
    return {"losses": losses, "w0": model[0].weight, "b0": model[0].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_mlp_adamw_weight_decay(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.AdamW(learning_rate=0.01, weight_decay=0.1,
                                 parameters=model.parameters())
    losses = _train(paddle, model, opt, x, y, 4)
    return {"losses": losses, "w2": model[2].weight, "b2": model[2].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_adamw_apply_decay_param_fun(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    names = {p.name: n for n, p in model.named_parameters()}
    opt = paddle.optimizer.AdamW(learning_rate=0.05, weight_decay=0.5,
                                 parameters=model.parameters(),
                                 apply_decay_param_fun=lambda n: names[n].endswith("weight"))
    # with a zero gradient only decay moves a parameter
    zero = paddle.zeros([6, 3])
    for _ in range(2):
        (model(x) * zero).sum().backward()
        opt.step()
        opt.clear_grad()
    return {"w0": model[0].weight, "b0": model[0].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_momentum_float_weight_decay_and_l2decay(paddle):
    out = {}
    for wd in (0.1, "L2"):
        model = _mlp(paddle)
        x, y = _data(paddle)
        decay = 0.1 if wd == 0.1 else paddle.regularizer.L2Decay(0.1)
        opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.5,
                                        parameters=model.parameters(), weight_decay=decay)
        out[str(wd)] = {"losses": _train(paddle, model, opt, x, y, 3), "w": model[0].weight}
    return out


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_sgd_param_attr_learning_rate_and_regularizer(paddle):
    nn = paddle.nn
    fc = nn.Linear(2, 1, weight_attr=paddle.ParamAttr(
        learning_rate=0.5, initializer=nn.initializer.Constant(1.0),
        regularizer=paddle.regularizer.L1Decay(0.2)),
        bias_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.0)))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=fc.parameters())
    x = paddle.to_tensor([[1.0, -2.0], [0.5, 0.5]])
    fc(x).sum().backward()
    g = fc.weight.grad.numpy().copy()
    opt.step()
    return {"grad": g, "w": fc.weight, "b": fc.bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_clip_grad_by_global_norm_sgd(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=0.05)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=model.parameters(), grad_clip=clip)
    loss = paddle.nn.functional.mse_loss(model(x), y * 10)
    loss.backward()
    norm = float(paddle.sqrt(sum((p.grad ** 2).sum() for p in model.parameters())))
    before = model[0].weight.numpy().copy()
    opt.step()
    delta = model[0].weight.numpy() - before
    total = float(np.sqrt(sum(((p.numpy() - q) ** 2).sum() for p, q in
                              [(model[0].weight, before)])))
    return {"norm": norm, "delta": delta, "delta0_norm": total, "loss": loss}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_clip_grad_by_norm_and_value(paddle):
    out = {}
    for kind in ("norm", "value"):
        model = _mlp(paddle)
        x, y = _data(paddle)
        clip = (paddle.nn.ClipGradByNorm(clip_norm=0.1) if kind == "norm"
                else paddle.nn.ClipGradByValue(max=0.02, min=-0.01))
        opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=model.parameters(),
                                   grad_clip=clip)
        out[kind] = _train(paddle, model, opt, x, y * 5, 3) + [model[0].weight, model[2].bias]
    return out


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_utils_clip_grad_norm_and_vector(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    paddle.nn.functional.mse_loss(model(x), y).backward()
    total = paddle.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
    clipped = float(paddle.sqrt(sum((p.grad ** 2).sum() for p in model.parameters())))
    vec = paddle.nn.utils.parameters_to_vector(model.parameters())
    paddle.nn.utils.vector_to_parameters(vec * 2, model.parameters())
    return {"total": total, "clipped": clipped, "vec_shape": vec.shape, "vec_head": vec[:5],
            "b2": model[2].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_gradient_accumulation_two_batches(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    for i in range(2):
        loss = paddle.nn.functional.mse_loss(model(x[i * 3:(i + 1) * 3]), y[i * 3:(i + 1) * 3])
        (loss / 2).backward()
    g = model[0].bias.grad.numpy().copy()
    opt.step()
    opt.clear_grad(set_to_zero=False)
    after = model[0].bias.grad
    return {"g": g, "after_clear": after, "b0": model[0].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_clear_grad_set_to_zero_default(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=model.parameters())
    paddle.nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    opt.clear_grad()
    g1 = model[0].weight.grad
    model.clear_gradients()
    return {"after_opt_clear": g1, "after_layer_clear": model[0].weight.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_trainable_false_frozen_layer(paddle):
    model = _mlp(paddle)
    for p in model[0].parameters():
        p.trainable = False
    x, y = _data(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    before = model[0].weight.numpy().copy()
    losses = _train(paddle, model, opt, x, y, 2)
    return {"losses": losses, "sg": model[0].weight.stop_gradient, "grad": model[0].weight.grad,
            "unchanged": bool(np.array_equal(before, model[0].weight.numpy())),
            "w2": model[2].weight}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_optimizer_param_groups(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[
        {"params": model[0].parameters()},
        {"params": model[2].parameters(), "learning_rate": 0.01}])
    losses = _train(paddle, model, opt, x, y, 2)
    return {"losses": losses, "w0": model[0].weight, "w2": model[2].weight}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_gradient_penalty_double_backward(paddle):
    nn = paddle.nn
    model = _fix(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), 0.5)
    x = paddle.to_tensor(_x([5, 3]), stop_gradient=False)
    out = model(x)
    (gx,) = paddle.grad(out.sum(), x, create_graph=True)
    penalty = ((gx.norm(p=2, axis=1) - 1.0) ** 2).mean()
    penalty.backward()
    return {"gx": gx, "penalty": penalty, "g_w0": model[0].weight.grad,
            "g_w2": model[2].weight.grad, "x_grad": x.grad}


@program(item="fresh", differs=(["bw"], EMPTY_BATCH), rtol=1e-4, atol=1e-5)
def f16_empty_batch_linear(paddle):
    fc = _fix(paddle.nn.Linear(4, 2))
    x = paddle.zeros([0, 4])
    out = fc(x)
    loss = out.sum()
    bw = attempt(loss.backward)
    return {"out": out, "loss": loss, "bw": bw, "gb": fc.bias.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_float64_model_via_to(paddle):
    model = _mlp(paddle)
    model.to(dtype="float64")
    x = paddle.to_tensor(_x([2, 4], dtype="float64"))
    out = model(x)
    out.sum().backward()
    return {"dtype": str(model[0].weight.dtype).split(".")[-1], "out": out,
            "g": model[0].weight.grad}


@program(item="fresh")
def f16_linear_wrong_input_size_error(paddle):
    fc = paddle.nn.Linear(4, 2)
    return {"wrong": attempt(lambda: fc(paddle.ones([3, 5]))),
            "ok": fc(paddle.ones([3, 4])).shape}


# ---------------------------------------------------------------- custom layers


def _custom_net(paddle):
    nn = paddle.nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 6)
            self.blocks = nn.LayerList([nn.Linear(6, 6) for _ in range(2)])
            self.act = nn.GELU()
            self.head = nn.Sequential(("drop", nn.Dropout(0.5)), ("out", nn.Linear(6, 2)))
            self.scale = self.create_parameter(
                [2], default_initializer=nn.initializer.Assign(np.array([1.5, -0.5], "float32")))
            self.register_buffer("steps", paddle.zeros([1], dtype="int64"))
            self.register_buffer("tmp", paddle.ones([2]), persistable=False)

        def forward(self, x):
            h = self.act(self.fc1(x))
            for blk in self.blocks:
                h = h + self.act(blk(h))
            return self.head(h) * self.scale + self.tmp

    return Net()


@program(item="fresh")
def f16_custom_layer_names(paddle):
    net = _custom_net(paddle)
    return {"params": [n for n, _ in net.named_parameters()],
            "sublayers": [n for n, _ in net.named_sublayers()],
            "children": [n for n, _ in net.named_children()],
            "n_params": len(net.parameters()), "n_sub": len(net.sublayers()),
            "shapes": [p.shape for p in net.parameters()],
            "buffers": [n for n, _ in net.named_buffers()],
            "state_keys": list(net.state_dict().keys())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_custom_layer_train_eval_outputs(paddle):
    net = _fix(_custom_net(paddle))
    x = paddle.to_tensor(_x([3, 4]))
    net.eval()
    flags = [net.training, net.head.drop.training]
    e1 = net(x)
    e2 = net(x)
    net.train()
    t = net(x)
    train_differs = not bool(np.allclose(t.numpy(), e1.numpy()))
    return {"flags": flags, "train_flags": [net.training, net.blocks[0].training],
            "eval_out": e1, "same": bool(np.array_equal(e1.numpy(), e2.numpy())),
            "train_shape": t.shape, "train_differs": train_differs}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_custom_layer_backward_scale_param(paddle):
    net = _fix(_custom_net(paddle))
    net.eval()
    x = paddle.to_tensor(_x([3, 4]))
    loss = (net(x) ** 2).mean()
    loss.backward()
    return {"loss": loss, "g_scale": net.scale.grad, "g_fc1": net.fc1.bias.grad,
            "g_blk1": net.blocks[1].weight.grad, "buffer_grad": net.steps.grad,
            "buffer_sg": net.steps.stop_gradient}


@program(item="fresh")
def f16_register_buffer_state_dict(paddle):
    nn = paddle.nn

    class Counter(nn.Layer):
        def __init__(self):
            super().__init__()
            self.register_buffer("count", paddle.to_tensor([0.0]))
            self.register_buffer("scratch", paddle.to_tensor([5.0]), persistable=False)
            self.fc = nn.Linear(1, 1)

        def forward(self, x):
            self.count.set_value(self.count + 1)
            return self.fc(x)

    c = Counter()
    _fix(c)
    for _ in range(3):
        c(paddle.ones([2, 1]))
    sd = c.state_dict()
    d = Counter()
    d.set_state_dict(sd)
    return {"keys": sorted(sd.keys()), "count": c.count, "loaded": d.count,
            "scratch": d.scratch, "n_buffers": len(c.buffers()), "n_params": len(c.parameters()),
            "attr": attempt(lambda: float(c.count))}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_create_parameter_and_add_parameter(paddle):
    nn = paddle.nn

    class Affine(nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter(
                [3, 2], attr=_assign(paddle, _values([3, 2], 4, 0.5)))
            b = self.create_parameter([2], is_bias=True)
            self.add_parameter("b", b)

        def forward(self, x):
            return x @ self.w + self.b

    m = Affine()
    x = paddle.to_tensor(_x([4, 3]))
    out = m(x)
    out.mean().backward()
    return {"names": [n for n, _ in m.named_parameters()], "b_init": m.b, "out": out,
            "gw": m.w.grad, "gb": m.b.grad, "dtype": str(m.w.dtype).split(".")[-1]}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_layer_apply_init(paddle):
    nn = paddle.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    seen = []

    def init(layer):
        seen.append(type(layer).__name__)
        if isinstance(layer, nn.Linear):
            layer.weight.set_value(paddle.full(layer.weight.shape, 0.25))
            layer.bias.set_value(paddle.full(layer.bias.shape, -0.1))

    model.apply(init)
    out = model(paddle.to_tensor(_x([2, 3])))
    return {"seen": seen, "out": out, "w": model[2].weight}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_initializers_deterministic(paddle):
    nn = paddle.nn
    I = nn.initializer
    a = nn.Linear(2, 3, weight_attr=paddle.ParamAttr(initializer=I.Constant(0.7)),
                  bias_attr=paddle.ParamAttr(initializer=I.Constant(-1.0)))
    b = nn.Linear(3, 3, weight_attr=paddle.ParamAttr(initializer=I.Assign(
        paddle.to_tensor(np.eye(3, dtype="float32")))))
    c = nn.Conv2D(1, 2, 3, weight_attr=nn.initializer.Constant(0.5), bias_attr=False)
    d = nn.Linear(2, 2)
    I.Constant(2.0)(d.weight)
    return {"a_w": a.weight, "a_b": a.bias, "b_w": b.weight, "b_b": b.bias, "c": c.weight,
            "d": d.weight}


@program(item="fresh")
def f16_initializers_random_statistics(paddle):
    nn = paddle.nn
    I = nn.initializer
    fan_in, fan_out = 200, 300
    out = {}
    specs = {"xavier_u": I.XavierUniform(), "xavier_n": I.XavierNormal(),
             "kaiming_n": I.KaimingNormal(), "kaiming_u": I.KaimingUniform(),
             "normal": I.Normal(mean=1.0, std=0.5), "uniform": I.Uniform(-0.3, 0.3),
             "trunc": I.TruncatedNormal(std=0.2)}
    for k, init in specs.items():
        fc = nn.Linear(fan_in, fan_out, weight_attr=paddle.ParamAttr(initializer=init))
        w = fc.weight.numpy()
        out[k] = [list(w.shape), round(float(w.mean()), 1), round(float(w.std()), 2)]
    xl = np.sqrt(6.0 / (fan_in + fan_out))
    w = nn.Linear(fan_in, fan_out, weight_attr=I.XavierUniform()).weight.numpy()
    out["xavier_bound"] = bool(np.abs(w).max() <= xl)
    t = nn.Linear(fan_in, fan_out, weight_attr=I.TruncatedNormal(std=0.2)).weight.numpy()
    out["trunc_bound"] = bool(np.abs(t).max() <= 0.4 + 1e-6)
    out["bias_zero"] = bool(np.all(fc.bias.numpy() == 0))
    return out


@program(item="fresh")
def f16_set_state_dict_missing_and_mismatch(paddle):
    nn = paddle.nn
    a = _fix(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)))
    b = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    sd = a.state_dict()
    partial = {"0.weight": sd["0.weight"], "extra.bias": paddle.ones([2])}
    res = b.set_state_dict(partial)
    res_norm = [sorted(r) for r in res] if isinstance(res, (list, tuple)) else repr(res)
    bad = {"0.weight": paddle.ones([5, 5])}
    w0 = b[0].weight.numpy().copy()
    mismatch = attempt(lambda: b.set_state_dict(bad))
    if isinstance(mismatch, (list, tuple)):
        mismatch = [sorted(r) for r in mismatch]
    return {"res": res_norm, "w0": w0, "mismatch": mismatch, "w0_after": b[0].weight}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_state_dict_copy_between_models(paddle):
    a = _mlp(paddle)
    b = _mlp(paddle, (4, 8, 3))
    b.set_state_dict({k: v * 0 for k, v in b.state_dict().items()})
    sd = a.state_dict()
    b.set_state_dict(sd)
    x = paddle.to_tensor(_x([2, 4]))
    sd["0.bias"].set_value(paddle.ones([8]))
    return {"equal": bool(np.allclose(a(x).numpy(), b(x).numpy())), "out": b(x),
            "a_bias_shared": a[0].bias, "b_bias": b[0].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_paddle_save_load_state_dict(paddle):
    model = _mlp(paddle)
    x = paddle.to_tensor(_x([3, 4]))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.pdparams")
        paddle.save(model.state_dict(), path)
        exists = os.path.exists(path)
        loaded = paddle.load(path)
    fresh = _mlp(paddle, (4, 8, 3))
    _fix(fresh, 0.01)
    fresh.set_state_dict(loaded)
    return {"exists": exists, "keys": sorted(loaded.keys()), "out": fresh(x),
            "ref": model(x), "loaded_w": loaded["2.weight"],
            "is_tensor": all(hasattr(v, "numpy") for v in loaded.values())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_paddle_save_load_optimizer_resume(paddle):
    x, y = _data(paddle)
    model = _mlp(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
    _train(paddle, model, opt, x, y, 2)
    with tempfile.TemporaryDirectory() as d:
        paddle.save(model.state_dict(), os.path.join(d, "m.pdparams"))
        paddle.save(opt.state_dict(), os.path.join(d, "m.pdopt"))
        m_sd = paddle.load(os.path.join(d, "m.pdparams"))
        o_sd = paddle.load(os.path.join(d, "m.pdopt"))
    cont = _train(paddle, model, opt, x, y, 2)
    # rewind to the checkpoint and train again: the same two losses
    model.set_state_dict(m_sd)
    opt.set_state_dict(o_sd)
    resumed = _train(paddle, model, opt, x, y, 2)
    return {"cont": cont, "resumed": resumed, "w": model[0].weight,
            "o_keys": len(o_sd)}


@program(item="fresh")
def f16_paddle_save_load_nested_objects(paddle):
    obj = {"epoch": 3, "weights": paddle.to_tensor([[1.0, 2.0]]), "tag": "best",
           "arr": np.arange(3), "ids": paddle.to_tensor([1, 2], dtype="int64")}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ckpt.pdparams")
        paddle.save(obj, path)
        back = paddle.load(path)
    return {"keys": sorted(back.keys()), "epoch": back["epoch"], "tag": back["tag"],
            "weights": back["weights"], "ids": back["ids"], "arr": back["arr"],
            "arr_type": type(back["arr"]).__name__}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_forward_hooks(paddle):
    fc = _fix(paddle.nn.Linear(3, 2))
    calls = []

    def pre(layer, inputs):
        calls.append("pre")
        return (inputs[0] * 2,)

    def post(layer, inputs, output):
        calls.append("post")
        return output + 1

    h1 = fc.register_forward_pre_hook(pre)
    h2 = fc.register_forward_post_hook(post)
    x = paddle.to_tensor(_x([2, 3]))
    hooked = fc(x)
    h1.remove()
    h2.remove()
    plain = fc(x)
    return {"hooked": hooked, "plain": plain, "calls": calls}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_layerdict_and_parameterlist(paddle):
    nn = paddle.nn

    class Mixer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.heads = nn.LayerDict({"a": nn.Linear(2, 2), "b": nn.Linear(2, 1)})
            self.ws = nn.ParameterList([self.create_parameter([2]) for _ in range(3)])

        def forward(self, x):
            for w in self.ws:
                x = x * w
            return self.heads["b"](self.heads["a"](x))

    m = _fix(Mixer())
    x = paddle.to_tensor(_x([3, 2]))
    m(x).sum().backward()
    return {"names": [n for n, _ in m.named_parameters()], "keys": list(m.heads.keys()),
            "len_ws": len(m.ws), "g_ws1": m.ws[1].grad, "g_head": m.heads["a"].weight.grad}


@program(item="fresh")
def f16_sequential_indexing_and_add(paddle):
    nn = paddle.nn
    s = nn.Sequential(("fc1", nn.Linear(2, 3)), ("act", nn.ReLU()), ("fc2", nn.Linear(3, 1)))
    s.add_sublayer("out_act", nn.Sigmoid())
    return {"len": len(s), "names": [n for n, _ in s.named_children()],
            "first": type(s[0]).__name__, "last": type(s[-1]).__name__,
            "fc1_shape": s.fc1.weight.shape, "out": s(paddle.zeros([4, 2])).shape}


@program(item="fresh", differs=([""], NO_SUMMARY))
def f16_paddle_summary_counts(paddle):
    nn = paddle.nn
    model = nn.Sequential(nn.Conv2D(1, 4, 3), nn.BatchNorm2D(4), nn.ReLU(), nn.Flatten(),
                          nn.Linear(4 * 6 * 6, 10))
    info = paddle.summary(model, (1, 1, 8, 8))
    return {"info": info}


# ---------------------------------------------------------------- normalization and dropout


DROPOUT_INFER_1D = ("docs/paddle.md, nn: Dropout in downscale_in_infer mode on a 0-D or 1-D input "
                    "at eval: Paddle 3.3.1's kernel raises ValueError (num_col_dims); opsdk returns "
                    "x * (1 - p) at every rank, the formula Paddle's documentation gives")


@program(item="fresh", differs=(["infer_eval"], DROPOUT_INFER_1D), rtol=1e-4, atol=1e-5)
def f16_dropout_train_eval(paddle):
    drop = paddle.nn.Dropout(p=0.25)
    x = paddle.ones([2000])
    drop.train()
    y = drop(x).numpy()
    kept = y[y != 0]
    drop.eval()
    e = drop(x)
    d2 = paddle.nn.Dropout(p=0.25, mode="downscale_in_infer")
    d2.eval()
    e2 = attempt(lambda: d2(paddle.ones([3])))
    e2b = d2(paddle.ones([2, 3]))
    d2.train()
    t2 = d2(paddle.ones([2000])).numpy()
    return {"kept_value": float(kept.max()), "kept_all_same": bool(np.allclose(kept, kept[0])),
            "zero_frac_ok": bool(0.2 < float((y == 0).mean()) < 0.3), "eval": e[:3], "infer_eval": e2, "infer_eval_2d": e2b,
            "infer_train_kept": float(t2.max())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_batchnorm1d_running_stats(paddle):
    bn = paddle.nn.BatchNorm1D(3, momentum=0.8)
    x = paddle.to_tensor(_x([5, 3], -0.7, 0.23) * 3)
    bn.train()
    y = bn(x)
    rm = bn.state_dict()["_mean"].numpy().copy()
    rv = bn.state_dict()["_variance"].numpy().copy()
    bn.eval()
    e = bn(x)
    return {"y": y, "rm": rm, "rv": rv, "eval": e,
            "state_keys": sorted(bn.state_dict().keys())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_batchnorm2d_grad_train(paddle):
    bn = _fix(paddle.nn.BatchNorm2D(2), 1.0)
    x = paddle.to_tensor(_x([2, 2, 3, 3], -0.9, 0.13), stop_gradient=False)
    y = bn(x)
    w = paddle.to_tensor(_x([2, 2, 3, 3], 0.2, 0.31))
    (y * w).sum().backward()
    return {"y": y, "gx": x.grad, "g_weight": bn.weight.grad, "g_bias": bn.bias.grad,
            "mean": bn._mean}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_batchnorm_eval_no_update_and_grad(paddle):
    bn = paddle.nn.BatchNorm2D(2)
    bn.set_state_dict({"_mean": paddle.to_tensor([0.5, -0.5]),
                       "_variance": paddle.to_tensor([4.0, 0.25])})
    bn.eval()
    x = paddle.to_tensor(_x([1, 2, 2, 2]), stop_gradient=False)
    y = bn(x)
    y.sum().backward()
    return {"y": y, "gx": x.grad, "mean": bn._mean, "var": bn._variance}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_batchnorm_use_global_stats_and_batchnorm_alias(paddle):
    bn = paddle.nn.BatchNorm1D(2, use_global_stats=True)
    bn.train()
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])
    y = bn(x)
    old = paddle.nn.BatchNorm(2)
    old.train()
    z = old(x)
    return {"y": y, "z": z, "old_mean": old._mean}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_layernorm_groupnorm_grad(paddle):
    ln = _fix(paddle.nn.LayerNorm(4), 1.0)
    gn = _fix(paddle.nn.GroupNorm(num_groups=2, num_channels=4), 1.0)
    x = paddle.to_tensor(_x([2, 4], -0.5, 0.37), stop_gradient=False)
    x4 = paddle.to_tensor(_x([2, 4, 2, 1], -0.5, 0.29), stop_gradient=False)
    a, b = ln(x), gn(x4)
    ((a * a).sum() + (b * paddle.arange(16, dtype="float32").reshape([2, 4, 2, 1])).sum()
     ).backward()
    return {"ln": a, "gn": b, "gx": x.grad, "gx4": x4.grad, "ln_w": ln.weight.grad,
            "gn_b": gn.bias.grad}


@program(item="fresh")
def f16_batchnorm_wrong_channels_error(paddle):
    bn = paddle.nn.BatchNorm2D(3)
    return {"err": attempt(lambda: bn(paddle.ones([2, 4, 3, 3]))),
            "bad_rank": attempt(lambda: paddle.nn.BatchNorm1D(3)(paddle.ones([2, 3, 4, 5])))}


# ---------------------------------------------------------------- CNNs


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_conv2d_forward_backward(paddle):
    conv = _fix(paddle.nn.Conv2D(2, 3, kernel_size=3, stride=2, padding=1), 0.5)
    x = paddle.to_tensor(_x([1, 2, 5, 5]), stop_gradient=False)
    y = conv(x)
    (y ** 2).mean().backward()
    return {"y": y, "gx": x.grad, "gw": conv.weight.grad, "gb": conv.bias.grad,
            "w_shape": conv.weight.shape}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_conv2d_groups_dilation_padding_same(paddle):
    conv = _fix(paddle.nn.Conv2D(4, 4, 3, groups=2, dilation=2, padding="same"), 0.5)
    x = paddle.to_tensor(_x([2, 4, 5, 5], -1.0, 0.07), stop_gradient=False)
    y = conv(x)
    y.sum().backward()
    return {"shape": y.shape, "y": y, "gw": conv.weight.grad, "w_shape": conv.weight.shape,
            "gx": x.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_conv1d_and_nhwc(paddle):
    c1 = _fix(paddle.nn.Conv1D(2, 3, 2, padding=1), 0.5)
    x = paddle.to_tensor(_x([1, 2, 4]))
    c2 = _fix(paddle.nn.Conv2D(2, 2, 1, data_format="NHWC"), 0.5)
    x2 = paddle.to_tensor(_x([1, 3, 3, 2]))
    return {"c1": c1(x), "c2": c2(x2), "c1_w": c1.weight.shape}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_conv2d_transpose(paddle):
    ct = _fix(paddle.nn.Conv2DTranspose(2, 1, kernel_size=2, stride=2), 0.5)
    x = paddle.to_tensor(_x([1, 2, 2, 2]), stop_gradient=False)
    y = ct(x)
    (y * y).sum().backward()
    return {"y": y, "gx": x.grad, "w_shape": ct.weight.shape, "gw": ct.weight.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_pools_forward_backward(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(_x([1, 1, 4, 4], -0.8, 0.37), stop_gradient=False)
    mp = nn.MaxPool2D(2, 2)(x)
    ap = nn.AvgPool2D(kernel_size=3, stride=1, padding=1)(x)
    ad = nn.AdaptiveAvgPool2D(1)(x)
    am = nn.AdaptiveMaxPool2D((2, 1))(x)
    (mp.sum() + ap.sum() * 2 + ad.sum() * 3 + am.sum() * 5).backward()
    return {"mp": mp, "ap": ap, "ad": ad, "am": am, "gx": x.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_maxpool_return_mask_and_ceil(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(_x([1, 1, 5, 5], -0.8, 0.29))
    out, idx = nn.MaxPool2D(2, 2, return_mask=True)(x)
    c = nn.MaxPool2D(2, 2, ceil_mode=True)(x)
    a = nn.AvgPool2D(2, 2, ceil_mode=True, exclusive=False)(x)
    return {"out": out, "idx": idx, "ceil": c, "avg": a}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_small_cnn_train_steps(paddle):
    nn = paddle.nn

    class CNN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(1, 4, 3, padding=1)
            self.bn = nn.BatchNorm2D(4)
            self.pool = nn.MaxPool2D(2)
            self.fc = nn.Linear(4 * 3 * 3, 3)

        def forward(self, x):
            x = self.pool(nn.functional.relu(self.bn(self.conv(x))))
            return self.fc(paddle.flatten(x, 1))

    model = _fix(CNN(), 0.4)
    x = paddle.to_tensor(_x([4, 1, 6, 6], -1.0, 0.053))
    label = paddle.to_tensor([0, 2, 1, 2])
    opt = paddle.optimizer.Momentum(0.1, parameters=model.parameters())
    losses = _train(paddle, model, opt, x, label, 3, nn.CrossEntropyLoss())
    model.eval()
    pred = model(x).argmax(axis=1)
    return {"losses": losses, "pred": pred, "mean": model.bn._mean, "fc_b": model.fc.bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_residual_block(paddle):
    nn = paddle.nn

    class Res(nn.Layer):
        def __init__(self, c):
            super().__init__()
            self.c1 = nn.Conv2D(c, c, 3, padding=1, bias_attr=False)
            self.b1 = nn.BatchNorm2D(c)
            self.c2 = nn.Conv2D(c, c, 3, padding=1, bias_attr=False)
            self.b2 = nn.BatchNorm2D(c)

        def forward(self, x):
            h = nn.functional.relu(self.b1(self.c1(x)))
            return nn.functional.relu(x + self.b2(self.c2(h)))

    blk = _fix(Res(2), 0.5)
    x = paddle.to_tensor(_x([2, 2, 3, 3], -1.0, 0.09), stop_gradient=False)
    y = blk(x)
    y.mean().backward()
    blk.eval()
    e = blk(x)
    return {"y": y, "gx": x.grad, "g_c1": blk.c1.weight.grad, "eval": e,
            "n_params": len(blk.parameters()), "n_buffers": len(blk.buffers())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_flatten_upsample_layers(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(_x([1, 2, 2, 2]), stop_gradient=False)
    up = nn.Upsample(scale_factor=2, mode="nearest")(x)
    bil = nn.Upsample(size=[3, 3], mode="bilinear", align_corners=True)(x)
    fl = nn.Flatten()(up)
    fl2 = nn.Flatten(start_axis=2)(x)
    (fl.sum() + (bil ** 2).sum()).backward()
    return {"up_shape": up.shape, "bil": bil, "fl_shape": fl.shape, "fl2_shape": fl2.shape,
            "gx": x.grad}


@program(item="fresh", differs=(["too_small"], KERNEL_TOO_LARGE))
def f16_conv_wrong_channels_error(paddle):
    conv = paddle.nn.Conv2D(3, 2, 3)
    return {"err": attempt(lambda: conv(paddle.ones([1, 4, 5, 5]))),
            "rank": attempt(lambda: conv(paddle.ones([4, 5, 5]))),
            "too_small": attempt(lambda: conv(paddle.ones([1, 3, 2, 2])))}


# ---------------------------------------------------------------- sequence models


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_embedding_padding_idx_grad(paddle):
    emb = paddle.nn.Embedding(5, 3, padding_idx=0)
    before = emb.weight.numpy()[0].copy()
    _fix(emb)
    ids = paddle.to_tensor([[0, 2, 2], [4, 0, 1]])
    out = emb(ids)
    (out * paddle.to_tensor(_x([2, 3, 3]))).sum().backward()
    return {"init_pad_row": before, "out": out, "grad": emb.weight.grad, "shape": out.shape}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_embedding_sgd_updates_rows(paddle):
    emb = _fix(paddle.nn.Embedding(4, 2))
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=emb.parameters())
    ids = paddle.to_tensor([1, 1, 3])
    emb(ids).sum().backward()
    opt.step()
    return {"w": emb.weight, "ids0d": emb(paddle.to_tensor(2)).shape,
            "oob": attempt(lambda: emb(paddle.to_tensor([4])).numpy())}


def _fix_rnn(layer, scale=0.3):
    return _fix(layer, scale)


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_simple_rnn_forward_backward(paddle):
    rnn = _fix_rnn(paddle.nn.SimpleRNN(3, 4))
    x = paddle.to_tensor(_x([2, 5, 3]), stop_gradient=False)
    out, h = rnn(x)
    (out.sum() + h.sum()).backward()
    return {"out": out, "h": h, "h_shape": h.shape, "gx": x.grad,
            "names": [n for n, _ in rnn.named_parameters()], "g_whh": rnn.weight_hh_l0.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lstm_forward_backward(paddle):
    lstm = _fix_rnn(paddle.nn.LSTM(3, 4))
    x = paddle.to_tensor(_x([2, 4, 3]), stop_gradient=False)
    out, (h, c) = lstm(x)
    (out ** 2).mean().backward()
    return {"out": out, "h": h, "c": c, "gx": x.grad,
            "shapes": [p.shape for p in lstm.parameters()],
            "g_bih": lstm.bias_ih_l0.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lstm_initial_states_and_bidirect(paddle):
    lstm = _fix_rnn(paddle.nn.LSTM(3, 2, num_layers=2, direction="bidirect"))
    x = paddle.to_tensor(_x([2, 3, 3]))
    h0 = paddle.to_tensor(_x([4, 2, 2], 0.1, 0.07))
    c0 = paddle.to_tensor(_x([4, 2, 2], -0.2, 0.05))
    out, (h, c) = lstm(x, (h0, c0))
    return {"out": out, "h": h, "c": c, "n_params": len(lstm.parameters()),
            "names": [n for n, _ in lstm.named_parameters()][:4]}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_gru_time_major_and_sequence_length(paddle):
    gru = _fix_rnn(paddle.nn.GRU(2, 3, time_major=True))
    x = paddle.to_tensor(_x([4, 2, 2]), stop_gradient=False)
    out, h = gru(x)
    gru2 = _fix_rnn(paddle.nn.GRU(2, 3))
    xb = paddle.to_tensor(_x([2, 4, 2]))
    out2, h2 = gru2(xb, sequence_length=paddle.to_tensor([4, 2]))
    out.sum().backward()
    return {"out": out, "h": h, "gx": x.grad, "out2": out2, "h2": h2}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_rnn_cells_single_step(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(_x([2, 3]))
    lc = _fix_rnn(nn.LSTMCell(3, 2))
    gc = _fix_rnn(nn.GRUCell(3, 2))
    sc = _fix_rnn(nn.SimpleRNNCell(3, 2, activation="relu"))
    y, (h, c) = lc(x)
    gy, gh = gc(x, paddle.ones([2, 2]))
    sy, sh = sc(x)
    wrapped = nn.RNN(lc)
    wy, (wh, wc) = wrapped(paddle.to_tensor(_x([2, 3, 3])))
    return {"lstm": [y, h, c], "gru": [gy, gh], "srnn": [sy, sh], "rnn_wrap": [wy, wh, wc]}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_text_classifier_train_steps(paddle):
    nn = paddle.nn

    class TextCls(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4, padding_idx=0)
            self.rnn = nn.LSTM(4, 5)
            self.fc = nn.Linear(5, 2)

        def forward(self, ids):
            _, (h, _) = self.rnn(self.emb(ids))
            return self.fc(h[-1])

    model = _fix(TextCls(), 0.4)
    ids = paddle.to_tensor([[1, 2, 3, 0], [4, 5, 6, 7], [9, 8, 0, 0]])
    label = paddle.to_tensor([[0], [1], [1]])
    opt = paddle.optimizer.Adam(0.05, parameters=model.parameters())
    losses = _train(paddle, model, opt, ids, label, 4, nn.CrossEntropyLoss())
    acc = paddle.metric.accuracy(nn.functional.softmax(model(ids)), label)
    return {"losses": losses, "acc": acc, "fc_w": model.fc.weight}


@program(item="fresh")
def f16_lstm_wrong_input_size_error(paddle):
    lstm = paddle.nn.LSTM(3, 2)
    return {"err": attempt(lambda: lstm(paddle.ones([2, 4, 5]))),
            "rank": attempt(lambda: lstm(paddle.ones([4, 3])))}


# ---------------------------------------------------------------- attention


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_multihead_attention_forward_backward(paddle):
    mha = _fix(paddle.nn.MultiHeadAttention(embed_dim=4, num_heads=2), 0.5)
    q = paddle.to_tensor(_x([2, 3, 4]), stop_gradient=False)
    out = mha(q, q, q)
    out.sum().backward()
    return {"out": out, "gq": q.grad, "names": [n for n, _ in mha.named_parameters()],
            "g_q_proj": mha.q_proj.weight.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_multihead_attention_mask_and_weights(paddle):
    mha = _fix(paddle.nn.MultiHeadAttention(4, 2, need_weights=True, kdim=3, vdim=2), 0.5)
    q = paddle.to_tensor(_x([1, 2, 4]))
    k = paddle.to_tensor(_x([1, 3, 3], 0.1))
    v = paddle.to_tensor(_x([1, 3, 2], 0.4))
    bool_mask = paddle.to_tensor([[[[True, True, False], [True, False, False]]]])
    out, w = mha(q, k, v, attn_mask=bool_mask)
    add_mask = paddle.to_tensor([[0.0, -1e9, 0.0]])
    out2, w2 = mha(q, k, v, attn_mask=add_mask)
    return {"out": out, "w": w, "out2": out2, "w2": w2}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_transformer_encoder_layer_eval(paddle):
    nn = paddle.nn
    layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.1)
    _fix(layer, 0.4)
    layer.eval()
    x = paddle.to_tensor(_x([2, 3, 4]))
    y = layer(x)
    pre = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation="gelu",
                                     normalize_before=True)
    _fix(pre, 0.4)
    z = pre(x)
    return {"y": y, "z": z, "names": sorted(n for n, _ in layer.named_parameters())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_transformer_encoder_stack_train(paddle):
    nn = paddle.nn
    enc_layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0)
    enc = nn.TransformerEncoder(enc_layer, num_layers=2, norm=nn.LayerNorm(4))
    _fix(enc, 0.3)
    x = paddle.to_tensor(_x([2, 3, 4]))
    mask = paddle.to_tensor([[[[0.0, 0.0, -1e9]]], [[[0.0, 0.0, 0.0]]]])
    opt = paddle.optimizer.AdamW(0.01, parameters=enc.parameters(), weight_decay=0.01)
    target = paddle.to_tensor(_x([2, 3, 4], 0.5, 0.21))
    losses = []
    for _ in range(3):
        loss = nn.functional.mse_loss(enc(x, src_mask=mask), target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "n_params": len(enc.parameters()),
            "same_init": bool(np.allclose(enc.layers[0].linear1.weight.numpy(),
                                          enc.layers[1].linear1.weight.numpy()))}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_manual_scaled_dot_product_attention(paddle):
    F = paddle.nn.functional
    q = paddle.to_tensor(_x([1, 2, 3, 4]), stop_gradient=False)
    k = paddle.to_tensor(_x([1, 2, 3, 4], 0.3), stop_gradient=False)
    v = paddle.to_tensor(_x([1, 2, 3, 4], -0.4, 0.17), stop_gradient=False)
    scores = paddle.matmul(q, k, transpose_y=True) / 2.0
    causal = paddle.triu(paddle.full([3, 3], float("-inf")), diagonal=1)
    attn = F.softmax(scores + causal, axis=-1)
    out = paddle.matmul(attn, v)
    out.sum().backward()
    return {"attn": attn, "out": out, "gq": q.grad, "gk": k.grad, "gv": v.grad}


@program(item="fresh")
def f16_mha_bad_embed_dim_error(paddle):
    return {"heads": attempt(lambda: paddle.nn.MultiHeadAttention(5, 2)),
            "ok": type(paddle.nn.MultiHeadAttention(6, 2)).__name__}


# ---------------------------------------------------------------- losses


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_cross_entropy_variants(paddle):
    nn = paddle.nn
    logits = paddle.to_tensor(_x([4, 3], -1.0, 0.31), stop_gradient=False)
    label = paddle.to_tensor([0, 2, 1, 1])
    plain = nn.CrossEntropyLoss()(logits, label)
    wt = nn.CrossEntropyLoss(weight=paddle.to_tensor([1.0, 2.0, 0.5]))(logits, label)
    ign = nn.CrossEntropyLoss(ignore_index=1)(logits, label)
    none = nn.CrossEntropyLoss(reduction="none")(logits, label)
    none2 = nn.CrossEntropyLoss(reduction="none")(logits, label.unsqueeze(1))
    (plain + wt + ign).backward()
    return {"plain": plain, "wt": wt, "ign": ign, "none": none, "none2": none2,
            "g": logits.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_cross_entropy_soft_label_and_smoothing(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor(_x([3, 4], -0.5, 0.23), stop_gradient=False)
    soft = F.softmax(paddle.to_tensor(_x([3, 4], 0.2, 0.41)))
    a = F.cross_entropy(logits, soft, soft_label=True)
    b = F.cross_entropy(logits, paddle.to_tensor([3, 0, 1]), label_smoothing=0.1)
    probs = F.softmax(logits)
    c = F.cross_entropy(probs, paddle.to_tensor([3, 0, 1]), use_softmax=False)
    (a + b + c).backward()
    return {"a": a, "b": b, "c": c, "g": logits.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_regression_losses(paddle):
    nn = paddle.nn
    p = paddle.to_tensor(_x([2, 3], -1.0, 0.43), stop_gradient=False)
    t = paddle.to_tensor(_x([2, 3], 0.1, 0.29))
    mse = nn.MSELoss()(p, t)
    l1 = nn.L1Loss(reduction="sum")(p, t)
    sl1 = nn.SmoothL1Loss(delta=0.5)(p, t)
    hub = attempt(lambda: nn.HuberLoss(delta=0.5)(p, t)) if hasattr(nn, "HuberLoss") else None
    (mse + l1 + sl1).backward()
    return {"mse": mse, "l1": l1, "sl1": sl1, "g": p.grad, "shape0d": mse.shape,
            "has_huber": hub is not None}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_binary_losses(paddle):
    nn = paddle.nn
    z = paddle.to_tensor(_x([4, 2], -2.0, 0.61), stop_gradient=False)
    y = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    a = nn.BCEWithLogitsLoss()(z, y)
    b = nn.BCEWithLogitsLoss(pos_weight=paddle.to_tensor([2.0, 0.5]))(z, y)
    c = nn.BCELoss(weight=paddle.to_tensor([1.0, 3.0]))(nn.functional.sigmoid(z), y)
    (a + b + c).backward()
    return {"a": a, "b": b, "c": c, "g": z.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_nll_kldiv_losses(paddle):
    nn = paddle.nn
    logits = paddle.to_tensor(_x([3, 4], -1.0, 0.27), stop_gradient=False)
    logp = nn.LogSoftmax(axis=1)(logits)
    nll = nn.NLLLoss()(logp, paddle.to_tensor([1, 3, 0]))
    target = nn.functional.softmax(paddle.to_tensor(_x([3, 4], 0.4, 0.19)))
    kl = nn.KLDivLoss(reduction="batchmean")(logp, target)
    kl_none = nn.KLDivLoss(reduction="none")(logp, target)
    (nll + kl).backward()
    return {"nll": nll, "kl": kl, "kl_none": kl_none, "g": logits.grad}


@program(item="fresh")
def f16_loss_label_errors(paddle):
    nn = paddle.nn
    logits = paddle.ones([3, 4])
    return {"float_label": attempt(lambda: nn.CrossEntropyLoss()(logits,
                                                                 paddle.to_tensor([0.0, 1.0, 2.0]))),
            "out_of_range": attempt(lambda: nn.CrossEntropyLoss()(
                logits, paddle.to_tensor([0, 1, 7])).numpy()),
            "mse_shape": attempt(lambda: nn.MSELoss()(paddle.ones([3, 4]), paddle.ones([4, 3]))),
            "bad_reduction": attempt(lambda: nn.MSELoss(reduction="avg"))}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_accuracy_metric(paddle):
    pred = paddle.to_tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.3, 0.5],
                             [0.4, 0.35, 0.25]])
    label = paddle.to_tensor([[1], [2], [2], [1]])
    top1 = paddle.metric.accuracy(pred, label)
    top2 = paddle.metric.accuracy(pred, label, k=2)
    m = paddle.metric.Accuracy(topk=(1, 2))
    m.update(m.compute(pred, label))
    return {"top1": top1, "top2": top2, "acc": m.accumulate(), "name": m.name()}


# ---------------------------------------------------------------- learning-rate schedulers


def _sched_run(paddle, sched, steps=6, metric=None):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=model.parameters())
    lrs, losses = [], []
    for i in range(steps):
        lrs.append(opt.get_lr())
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
        if metric is None:
            sched.step()
        else:
            sched.step(metric[i])
    return {"lrs": lrs, "losses": losses, "last": sched.last_lr, "epoch": sched.last_epoch}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lr_step_and_multistep_decay(paddle):
    lr = paddle.optimizer.lr
    return {"step": _sched_run(paddle, lr.StepDecay(0.1, step_size=2, gamma=0.5)),
            "multi": _sched_run(paddle, lr.MultiStepDecay(0.1, milestones=[1, 4], gamma=0.1))}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lr_cosine_and_exponential(paddle):
    lr = paddle.optimizer.lr
    return {"cos": _sched_run(paddle, lr.CosineAnnealingDecay(0.2, T_max=4, eta_min=0.01)),
            "exp": _sched_run(paddle, lr.ExponentialDecay(0.2, gamma=0.7))}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lr_linear_warmup_wrapping(paddle):
    lr = paddle.optimizer.lr
    inner = lr.PiecewiseDecay(boundaries=[3, 5], values=[0.1, 0.05, 0.01])
    return {"warm": _sched_run(paddle, lr.LinearWarmup(inner, warmup_steps=2, start_lr=0.0,
                                                       end_lr=0.1), 7),
            "warm_float": _sched_run(paddle, lr.LinearWarmup(0.3, 3, 0.0, 0.3), 5)}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lr_reduce_on_plateau(paddle):
    lr = paddle.optimizer.lr
    sched = lr.ReduceOnPlateau(learning_rate=0.2, factor=0.5, patience=1, verbose=False)
    return _sched_run(paddle, sched, 6, metric=[1.0, 0.9, 0.95, 0.97, 0.99, 0.5])


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lr_noam_polynomial_onecycle(paddle):
    lr = paddle.optimizer.lr

    def value_then_step(sched):
        value = sched()
        sched.step()
        return value

    scheds = {"noam": lr.NoamDecay(d_model=16, warmup_steps=3, learning_rate=1.0),
              "poly": lr.PolynomialDecay(0.1, decay_steps=4, end_lr=0.01, power=2.0),
              "lambda": lr.LambdaDecay(0.5, lambda e: 0.9 ** e),
              "onecycle": lr.OneCycleLR(max_learning_rate=0.1, total_steps=6)}
    return {k: [value_then_step(s) for _ in range(6)] for k, s in scheds.items()}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_lr_scheduler_with_adam_and_state(paddle):
    lr = paddle.optimizer.lr
    sched = lr.StepDecay(0.05, step_size=1, gamma=0.5)
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters())
    losses = _train(paddle, model, opt, x, y, 3, scheduler=sched)
    st = sched.state_dict()
    s2 = lr.StepDecay(0.05, step_size=1, gamma=0.5)
    s2.set_state_dict(st)
    return {"losses": losses, "state": {k: st[k] for k in ("last_epoch", "last_lr")},
            "restored": [s2.last_epoch, s2()], "w": model[0].bias}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_optimizer_set_lr_and_get_lr(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    first = opt.get_lr()
    opt.set_lr(0.01)
    losses = _train(paddle, model, opt, x, y, 2)
    sch_opt = paddle.optimizer.SGD(learning_rate=paddle.optimizer.lr.StepDecay(0.1, 1),
                                   parameters=model.parameters())
    return {"first": first, "second": opt.get_lr(), "losses": losses,
            "set_on_sched": attempt(lambda: sch_opt.set_lr(0.5)), "b": model[2].bias}


# ---------------------------------------------------------------- activations and misc layers


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_activation_layers_grads(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(_x([7], -2.0, 0.6), stop_gradient=False)
    acts = {"relu": nn.ReLU(), "lrelu": nn.LeakyReLU(0.2), "gelu": nn.GELU(),
            "gelu_t": nn.GELU(approximate=True), "silu": nn.Silu(), "elu": nn.ELU(0.5),
            "sigmoid": nn.Sigmoid(), "tanh": nn.Tanh(), "softplus": nn.Softplus(),
            "hswish": nn.Hardswish(), "relu6": nn.ReLU6(), "mish": nn.Mish()}
    outs = {k: a(x) for k, a in acts.items()}
    sum(o.sum() for o in outs.values()).backward()
    outs["grad"] = x.grad
    return outs


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_prelu_softmax_layers(paddle):
    nn = paddle.nn
    pr = nn.PReLU(num_parameters=2, init=0.1)
    x = paddle.to_tensor(_x([2, 2, 2], -1.0, 0.31), stop_gradient=False)
    y = pr(x)
    sm = nn.Softmax(axis=1)(x)
    lsm = nn.LogSoftmax()(x)
    (y.sum() + (sm * sm).sum() + lsm[:, 0].sum()).backward()
    return {"y": y, "sm": sm, "lsm": lsm, "gx": x.grad, "g_alpha": pr.parameters()[0].grad,
            "alpha_shape": pr.parameters()[0].shape}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_no_grad_inference_and_stop_gradient(paddle):
    model = _mlp(paddle)
    x = paddle.to_tensor(_x([2, 4]))
    with paddle.no_grad():
        y = model(x)
    z = model(x)
    feat = model[0](x).detach()
    h = model[2](paddle.nn.functional.relu(feat))
    h.sum().backward()
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "y": y,
            "w0_grad": model[0].weight.grad, "w2_grad": model[2].weight.grad}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_weight_sharing_tied_layers(paddle):
    nn = paddle.nn

    class Tied(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(5, 3)
            self.fc = nn.Linear(3, 3)

        def forward(self, ids):
            h = self.fc(self.emb(ids))
            return paddle.matmul(h, self.emb.weight, transpose_y=True)

    m = _fix(Tied(), 0.5)
    ids = paddle.to_tensor([1, 3])
    out = m(ids)
    nn.functional.cross_entropy(out, paddle.to_tensor([3, 1])).backward()
    return {"out": out, "g_emb": m.emb.weight.grad, "g_fc": m.fc.weight.grad,
            "n_params": len(m.parameters())}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_shared_layer_reused_twice(paddle):
    fc = _fix(paddle.nn.Linear(2, 2), 0.8)
    x = paddle.to_tensor([[1.0, -1.0]])
    y = fc(paddle.tanh(fc(x)))
    y.sum().backward()
    opt = paddle.optimizer.SGD(0.1, parameters=fc.parameters())
    g = fc.weight.grad.numpy().copy()
    opt.step()
    return {"y": y, "g": g, "w": fc.weight}


@program(item="fresh", differs=(["is_param"], NO_BASE), rtol=1e-4, atol=1e-5)
def f16_parameter_set_value_and_assign_in_no_grad(paddle):
    fc = paddle.nn.Linear(2, 2)
    fc.weight.set_value(np.array([[1.0, 2.0], [3.0, 4.0]], "float32"))
    fc.bias.set_value(paddle.to_tensor([0.5, -0.5]))
    with paddle.no_grad():
        fc.weight.scale_(0.5)
        paddle.assign(paddle.to_tensor([1.0, 1.0]), output=fc.bias)
    out = fc(paddle.to_tensor([[1.0, 1.0]]))
    bad = attempt(lambda: fc.weight.set_value(np.ones([3, 3], "float32")))
    return {"w": fc.weight, "b": fc.bias, "out": out, "bad": bad,
            "is_param": isinstance(fc.weight, paddle.base.framework.EagerParamBase)
            if hasattr(paddle, "base") else None}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_optimizer_state_dict_keys_adam(paddle):
    model = _mlp(paddle, (2, 2))
    x = paddle.ones([1, 2])
    opt = paddle.optimizer.Adam(0.1, parameters=model.parameters())
    model(x).sum().backward()
    opt.step()
    sd = opt.state_dict()
    moments = sorted(k.split("_")[-2] if k.count("_") >= 2 else k for k in sd
                     if "moment" in k)
    return {"n_keys": len(sd), "moments": moments,
            "has_beta_pow": any("beta1_pow" in k for k in sd)}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_optimizer_without_parameters_error(paddle):
    return {"sgd": attempt(lambda: paddle.optimizer.SGD(0.1)),
            "bad_lr": attempt(lambda: paddle.optimizer.Adam(learning_rate="fast",
                                                            parameters=[paddle.create_parameter(
                                                                [1], "float32")]))}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_rmsprop_adagrad_steps(paddle):
    out = {}
    for name in ("RMSProp", "Adagrad", "Adadelta", "Adamax", "Lamb"):
        model = _mlp(paddle)
        x, y = _data(paddle)
        opt = getattr(paddle.optimizer, name)(learning_rate=0.05,
                                              parameters=model.parameters())
        out[name] = _train(paddle, model, opt, x, y, 3) + [model[0].bias]
    return out


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_eval_loop_no_grad_batches(paddle):
    model = _mlp(paddle)
    x, y = _data(paddle)
    model.eval()
    outs = []
    for i in range(0, 6, 2):
        with paddle.no_grad():
            outs.append(paddle.nn.functional.mse_loss(model(x[i:i + 2]), y[i:i + 2]))
    mean = paddle.stack(outs).mean()
    return {"outs": outs, "mean": mean, "stack_shape": paddle.stack(outs).shape}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_io_dataset_dataloader_training(paddle):
    class DS(paddle.io.Dataset):
        def __init__(self):
            self.x = _x([8, 4])
            self.y = _x([8, 3], 0.3, 0.17)

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return 8

    loader = paddle.io.DataLoader(DS(), batch_size=3, shuffle=False, drop_last=False)
    model = _mlp(paddle)
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    losses, shapes = [], []
    for xb, yb in loader:
        shapes.append(xb.shape)
        loss = paddle.nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "shapes": shapes, "n_batches": len(loader)}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_tensor_dataset_and_random_split_sizes(paddle):
    xs = paddle.to_tensor(_x([10, 2]))
    ys = paddle.arange(10)
    ds = paddle.io.TensorDataset([xs, ys])
    a, b = paddle.io.random_split(ds, [7, 3])
    loader = paddle.io.DataLoader(ds, batch_size=4, shuffle=True)
    seen = sorted(int(v) for _, yb in loader for v in yb.numpy().ravel())
    return {"len": len(ds), "item": ds[2], "split": [len(a), len(b)], "seen": seen}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_bilinear_and_identity_layers(paddle):
    nn = paddle.nn
    bl = _fix(nn.Bilinear(2, 3, 2), 0.5)
    x1 = paddle.to_tensor(_x([2, 2]), stop_gradient=False)
    x2 = paddle.to_tensor(_x([2, 3], 0.3))
    y = bl(x1, x2)
    y.sum().backward()
    ident = nn.Identity()(x2)
    return {"y": y, "gx1": x1.grad, "w_shape": bl.weight.shape, "ident": ident}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_embedding_sparse_sgd(paddle):
    emb = paddle.nn.Embedding(4, 3, sparse=True)
    _fix(emb, 2.0)
    out = emb(paddle.to_tensor([0, 2]))
    opt = paddle.optimizer.SGD(0.1, parameters=emb.parameters())
    out.sum().backward()
    opt.step()
    return {"out": out, "w": emb.weight}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f16_gru_bidirect_training(paddle):
    nn = paddle.nn

    class Tagger(nn.Layer):
        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(3, 2, direction="bidirectional")
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            out, _ = self.gru(x)
            return self.fc(out)

    m = _fix(Tagger(), 0.4)
    x = paddle.to_tensor(_x([2, 4, 3]))
    tags = paddle.to_tensor([[0, 1, 2, 1], [2, 2, 0, 1]])
    opt = paddle.optimizer.Adam(0.05, parameters=m.parameters(),
                                grad_clip=nn.ClipGradByGlobalNorm(1.0))
    losses = []
    for _ in range(3):
        loss = nn.functional.cross_entropy(m(x), tags)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "fc_b": m.fc.bias}
