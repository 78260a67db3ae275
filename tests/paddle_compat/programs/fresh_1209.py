"""Fresh differential programs (batch 1209): paddle.nn as a user training a small model meets it:
Layer subclasses and containers, parameters and state dicts, initializers, train/eval with
Dropout, the common layers, functional activations and losses, optimizers with weight decay and
parameter groups, learning-rate schedulers, gradient clipping and short training loops; written
without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

DROPOUT_LOW_RANK = ("docs/paddle.md, paddle.nn: layers: Paddle 3.3.1's downscale_in_infer dropout "
                    "raises at eval for a 0-D or 1-D input with 0 < p (a kernel check; 2-D and "
                    "larger give x * (1 - p), as documented); opsdk returns x * (1 - p)")
BCE_LOGIT_ZERO = ("docs/paddle.md, paddle.nn.functional: at a logit of exactly 0 without "
                  "pos_weight Paddle's gradient kernel gives sigmoid(0) - label - 1; opsdk gives "
                  "the derivative sigmoid(0) - label (here the Linear bias column whose "
                  "logits are 0 while the ReLU features are all 0)")


def _a(shape, start=0.0, step=0.25):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape)


def _x(paddle, shape, start=-1.0, step=0.125, dtype="float32", grad=False):
    return paddle.to_tensor(_a(shape, start, step).astype(dtype), stop_gradient=not grad)


def _linear(paddle, fin, fout, start=-0.5, step=0.1, bias=0.05):
    """A Linear whose weight and bias are fixed through Assign initializers."""
    w = np.cos(start + step * np.arange(fin * fout)).reshape(fin, fout).astype("float32")
    b = (bias * np.arange(fout)).astype("float32")
    return paddle.nn.Linear(
        fin, fout,
        weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(w)),
        bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(b)))


def _mlp(paddle):
    return paddle.nn.Sequential(_linear(paddle, 3, 4), paddle.nn.Tanh(),
                                _linear(paddle, 4, 2, start=0.3, step=-0.2))


def _fit(opt, loss_fn, steps, after_step=None):
    """steps of backward, step, clear_grad; the losses as floats."""
    losses = []
    for _ in range(steps):
        loss = loss_fn()
        loss.backward()
        opt.step()
        opt.clear_grad()
        if after_step is not None:
            after_step()
        losses.append(float(loss))
    return losses


def _step_loop(paddle, opt_factory, steps=3, clip=None):
    net = _mlp(paddle)
    opt = opt_factory(net.parameters())
    x = _x(paddle, [5, 3])
    y = paddle.to_tensor(np.sin(_a([5, 2])).astype("float32"))
    losses = _fit(opt, lambda: paddle.nn.functional.mse_loss(net(x), y), steps)
    return {"losses": losses, "params": [p for p in net.parameters()]}


# ---------------------------------------------------------------- Layer subclasses and containers


@program(item="fresh")
def f9_layer_subclass_forward_backward(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = _linear(paddle, 3, 4)
            self.fc2 = _linear(paddle, 4, 1, start=0.2)

        def forward(self, x):
            return self.fc2(paddle.nn.functional.relu(self.fc1(x)))

    net = Net()
    x = _x(paddle, [2, 3])
    out = net(x)
    out.sum().backward()
    return {"out": out, "g_w1": net.fc1.weight.grad, "g_b2": net.fc2.bias.grad,
            "n_params": len(net.parameters()),
            "names": [n for n, _ in net.named_parameters()]}


@program(item="fresh")
def f9_named_parameters_and_sublayers(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU(),
                               paddle.nn.Sequential(paddle.nn.Linear(3, 3), paddle.nn.Sigmoid()))
    return {"names": [n for n, _ in net.named_parameters()],
            "shapes": [list(p.shape) for p in net.parameters()],
            "n_sublayers": len(net.sublayers()),
            "n_children": len(list(net.children())),
            "sub_names": [n for n, _ in net.named_sublayers()],
            "trainable": [not p.stop_gradient for p in net.parameters()]}


@program(item="fresh")
def f9_sequential_indexing_and_len(paddle):
    net = paddle.nn.Sequential(_linear(paddle, 3, 3), paddle.nn.ReLU(), _linear(paddle, 3, 2))
    x = _x(paddle, [2, 3])
    first = net[0](x)
    return {"len": len(net), "first": first, "full": net(x),
            "type1": type(net[1]).__name__,
            "slice_len": attempt(lambda: len(net[0:2])),
            "bad": attempt(lambda: net[5])}


@program(item="fresh")
def f9_sequential_named_tuples(paddle):
    net = paddle.nn.Sequential(("lin", _linear(paddle, 3, 2)), ("act", paddle.nn.Tanh()))
    x = _x(paddle, [2, 3])
    return {"out": net(x), "keys": list(net.state_dict().keys()),
            "lin_w": net.lin.weight}


@program(item="fresh")
def f9_layerlist_append_and_iterate(paddle):
    layers = paddle.nn.LayerList([_linear(paddle, 3, 3, start=0.1 * i) for i in range(2)])
    layers.append(_linear(paddle, 3, 2))
    x = _x(paddle, [2, 3], grad=True)
    h = x
    for layer in layers:
        h = layer(h)
    h.sum().backward()
    return {"len": len(layers), "out": h, "gx": x.grad,
            "n_params": len(layers.parameters()),
            "names": [n for n, _ in layers.named_parameters()]}


@program(item="fresh")
def f9_layerlist_insert_extend_index(paddle):
    layers = paddle.nn.LayerList([paddle.nn.ReLU(), paddle.nn.Tanh()])
    layers.insert(1, paddle.nn.Sigmoid())
    layers.extend([paddle.nn.Softplus()])
    x = _x(paddle, [4])
    outs = [layer(x) for layer in layers]
    return {"types": [type(l).__name__ for l in layers], "outs": outs,
            "neg": type(layers[-1]).__name__}


@program(item="fresh")
def f9_layerdict_access(paddle):
    d = paddle.nn.LayerDict({"a": _linear(paddle, 2, 2), "b": paddle.nn.ReLU()})
    d["c"] = _linear(paddle, 2, 1, start=0.4)
    x = _x(paddle, [3, 2])
    out = d["c"](d["b"](d["a"](x)))
    popped = d.pop("b")
    return {"keys": list(d.keys()), "out": out, "popped": type(popped).__name__,
            "len": len(d), "has_a": "a" in d,
            "names": [n for n, _ in d.named_parameters()]}


@program(item="fresh")
def f9_parameterlist_in_layer(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.ps = paddle.nn.ParameterList([
                self.create_parameter([2, 2], default_initializer=paddle.nn.initializer.Constant(
                    0.5 * (i + 1))) for i in range(3)])

        def forward(self, x):
            for p in self.ps:
                x = paddle.matmul(x, p)
            return x

    net = Net()
    x = _x(paddle, [1, 2])
    out = net(x)
    out.sum().backward()
    return {"out": out, "grads": [p.grad for p in net.ps], "len": len(net.ps),
            "names": [n for n, _ in net.named_parameters()]}


@program(item="fresh")
def f9_create_parameter_defaults(paddle):
    net = paddle.nn.Layer()
    net.w = net.create_parameter([3, 2])
    net.b = net.create_parameter([2], is_bias=True)
    net.d = net.create_parameter([2], dtype="float64",
                                 default_initializer=paddle.nn.initializer.Constant(2.0))
    return {"w_shape": net.w.shape, "w_dtype": str(net.w.dtype).split(".")[-1],
            "b": net.b, "d": net.d, "w_trainable": not net.w.stop_gradient,
            "names": [n for n, _ in net.named_parameters()],
            "w_nonzero": bool(float(paddle.abs(net.w).sum()) > 0)}


@program(item="fresh")
def f9_add_parameter_and_buffer(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            p = self.create_parameter([2], default_initializer=paddle.nn.initializer.Constant(1.5))
            self.add_parameter("scale", p)
            self.register_buffer("offset", paddle.to_tensor([0.5, -0.5]))
            self.register_buffer("tmp", paddle.to_tensor([9.0]), persistable=False)

        def forward(self, x):
            return x * self.scale + self.offset

    net = Net()
    out = net(_x(paddle, [2]))
    return {"out": out, "params": [n for n, _ in net.named_parameters()],
            "buffers": [n for n, _ in net.named_buffers()],
            "state": sorted(net.state_dict().keys()),
            "offset_sg": net.offset.stop_gradient}


@program(item="fresh")
def f9_state_dict_roundtrip(paddle):
    a = _mlp(paddle)
    b = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Tanh(), paddle.nn.Linear(4, 2))
    x = _x(paddle, [2, 3])
    before = b(x)
    b.set_state_dict(a.state_dict())
    return {"keys": list(a.state_dict().keys()), "after": b(x), "ref": a(x),
            "changed": bool(float(paddle.abs(before - a(x)).sum()) > 0)}


@program(item="fresh")
def f9_set_state_dict_shape_mismatch(paddle):
    net = paddle.nn.Linear(3, 2)
    sd = {"weight": paddle.ones([2, 3]), "bias": paddle.ones([2])}
    r = attempt(net.set_state_dict, sd)
    return {"result": r if not isinstance(r, tuple) else [list(v) for v in r],
            "bias": net.bias}


@program(item="fresh")
def f9_set_state_dict_missing_unexpected(paddle):
    net = paddle.nn.Linear(2, 2, bias_attr=paddle.ParamAttr(
        initializer=paddle.nn.initializer.Constant(0.0)))
    missing, unexpected = net.set_state_dict({"bias": paddle.full([2], 3.0),
                                              "extra": paddle.ones([1])})
    return {"missing": list(missing), "unexpected": list(unexpected), "bias": net.bias}


@program(item="fresh")
def f9_state_dict_numpy_values(paddle):
    net = paddle.nn.Linear(2, 3)
    sd = {"weight": np.arange(6, dtype="float32").reshape(2, 3),
          "bias": np.array([1.0, 2.0, 3.0], dtype="float32")}
    net.set_state_dict(sd)
    return {"w": net.weight, "b": net.bias, "out": net(paddle.ones([1, 2]))}


@program(item="fresh")
def f9_stop_gradient_freezes_layer(paddle):
    net = _mlp(paddle)
    for p in net[0].parameters():
        p.stop_gradient = True
    x = _x(paddle, [2, 3])
    net(x).sum().backward()
    return {"g0": net[0].weight.grad, "g2": net[2].weight.grad,
            "trainable": [not p.stop_gradient for p in net.parameters()]}


@program(item="fresh")
def f9_layer_to_dtype_float64(paddle):
    net = _linear(paddle, 2, 2)
    net.to(dtype="float64")
    x = _x(paddle, [1, 2], dtype="float64")
    out = net(x)
    return {"dtype": str(net.weight.dtype).split(".")[-1], "out": out}


@program(item="fresh")
def f9_apply_init_fn(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.ReLU(), paddle.nn.Linear(2, 1))

    def init(layer):
        if isinstance(layer, paddle.nn.Linear):
            paddle.nn.initializer.Constant(0.25)(layer.weight)
            paddle.nn.initializer.Constant(-1.0)(layer.bias)

    net.apply(init)
    return {"params": net.parameters(), "out": net(paddle.ones([1, 2]))}


# ---------------------------------------------------------------- initializers


@program(item="fresh")
def f9_initializer_constant_and_assign(paddle):
    c = paddle.nn.Linear(2, 3, weight_attr=paddle.nn.initializer.Constant(0.7),
                         bias_attr=paddle.nn.initializer.Constant(-0.2))
    a = paddle.nn.Linear(2, 2, weight_attr=paddle.nn.initializer.Assign(
        np.array([[1.0, 2.0], [3.0, 4.0]], dtype="float32")))
    return {"cw": c.weight, "cb": c.bias, "aw": a.weight, "ab": a.bias}


@program(item="fresh")
def f9_initializer_statistics(paddle):
    paddle.seed(7)
    out = {}
    for name, init, mean, std in [
            ("normal", paddle.nn.initializer.Normal(mean=1.0, std=0.5), 1.0, 0.5),
            ("uniform", paddle.nn.initializer.Uniform(low=-2.0, high=2.0), 0.0, 4 / 12 ** 0.5),
            ("trunc", paddle.nn.initializer.TruncatedNormal(mean=0.0, std=1.0), 0.0, 0.88)]:
        lin = paddle.nn.Linear(100, 100, weight_attr=init)
        w = lin.weight.numpy()
        out[name] = {"shape": list(w.shape), "mean_ok": bool(abs(w.mean() - mean) < 0.05),
                     "std_ok": bool(abs(w.std() - std) < 0.05), "min_ok": bool(w.min() >= -2.0),
                     "max_ok": bool(w.max() <= 2.0)}
    return out


@program(item="fresh")
def f9_initializer_xavier_kaiming_bounds(paddle):
    paddle.seed(3)
    init = paddle.nn.initializer
    xu = paddle.nn.Linear(60, 40, weight_attr=init.XavierUniform()).weight.numpy()
    ku = paddle.nn.Linear(60, 40, weight_attr=init.KaimingUniform()).weight.numpy()
    xn = paddle.nn.Linear(200, 300, weight_attr=init.XavierNormal()).weight.numpy()
    kn = paddle.nn.Linear(200, 300, weight_attr=init.KaimingNormal()).weight.numpy()
    return {"xu_in": bool(np.abs(xu).max() <= np.sqrt(6.0 / 100)),
            "ku_in": bool(np.abs(ku).max() <= np.sqrt(6.0 / 60)),
            "xu_wide": bool(np.abs(xu).max() > 0.8 * np.sqrt(6.0 / 100)),
            "xn_std": round(float(xn.std() / np.sqrt(2.0 / 500)), 1),
            "kn_std": round(float(kn.std() / np.sqrt(2.0 / 200)), 1)}


@program(item="fresh")
def f9_default_linear_init(paddle):
    paddle.seed(11)
    lin = paddle.nn.Linear(50, 80)
    w = lin.weight.numpy()
    return {"bias": lin.bias, "w_shape": list(w.shape),
            "w_bound": bool(np.abs(w).max() <= np.sqrt(6.0 / 130) + 1e-6),
            "w_spread": bool(np.abs(w).max() > 0.8 * np.sqrt(6.0 / 130)),
            "dtype": str(lin.weight.dtype).split(".")[-1]}


@program(item="fresh")
def f9_initializer_seed_repeatable(paddle):
    paddle.seed(42)
    a = paddle.nn.Linear(4, 4).weight.numpy().copy()
    paddle.seed(42)
    b = paddle.nn.Linear(4, 4).weight.numpy().copy()
    c = paddle.nn.Linear(4, 4).weight.numpy().copy()
    return {"same": bool(np.array_equal(a, b)), "differs": bool(not np.array_equal(b, c))}


@program(item="fresh")
def f9_param_attr_learning_rate_and_trainable(paddle):
    lin = paddle.nn.Linear(
        2, 1,
        weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0),
                                     learning_rate=0.5),
        bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.0),
                                   trainable=False))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    lin(paddle.to_tensor([[1.0, 2.0]])).sum().backward()
    opt.step()
    return {"w": lin.weight, "b": lin.bias, "b_sg": lin.bias.stop_gradient}


# ---------------------------------------------------------------- train / eval and Dropout


@program(item="fresh")
def f9_dropout_train_eval(paddle):
    drop = paddle.nn.Dropout(p=0.5)
    x = paddle.ones([200, 50])
    y = drop(x).numpy()
    drop.eval()
    z = drop(x)
    return {"train_vals": sorted(set(np.round(np.unique(y), 4).tolist())),
            "frac_zero": round(float((y == 0).mean()), 1), "eval": z,
            "training": drop.training}


@program(item="fresh", differs=(["eval_1d"], DROPOUT_LOW_RANK))
def f9_dropout_downscale_mode(paddle):
    drop = paddle.nn.Dropout(p=0.25, mode="downscale_in_infer")
    x = paddle.ones([100, 40])
    y = drop(x).numpy()
    drop.eval()
    return {"train_vals": sorted(np.unique(y).tolist()), "eval": drop(paddle.ones([2, 3])),
            "eval_1d": attempt(drop, paddle.ones([3]))}


@program(item="fresh")
def f9_model_eval_propagates(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.Dropout(0.3),
                               paddle.nn.BatchNorm1D(2))
    net.eval()
    flags_eval = [l.training for l in net.sublayers(include_self=True)]
    net.train()
    flags_train = [l.training for l in net.sublayers(include_self=True)]
    return {"eval": flags_eval, "train": flags_train}


@program(item="fresh")
def f9_functional_dropout_and_p_edges(paddle):
    x = _x(paddle, [3, 4], grad=True)
    y0 = paddle.nn.functional.dropout(x, p=0.0)
    y1 = paddle.nn.functional.dropout(x, p=1.0)
    ye = paddle.nn.functional.dropout(x, p=0.5, training=False)
    (y0 + y1 + ye).sum().backward()
    return {"y0": y0, "y1": y1, "ye": ye, "gx": x.grad,
            "bad": attempt(paddle.nn.functional.dropout, x, p=1.5)}


@program(item="fresh")
def f9_dropout_gradient_matches_mask(paddle):
    x = paddle.ones([50, 20])
    x.stop_gradient = False
    y = paddle.nn.functional.dropout(x, p=0.4)
    y.sum().backward()
    g, v = x.grad.numpy(), y.numpy()
    return {"same_mask": bool(np.array_equal(g, v)),
            "vals": sorted(np.round(np.unique(g), 4).tolist())}


# ---------------------------------------------------------------- common layers


@program(item="fresh")
def f9_linear_empty_batch_and_3d(paddle):
    lin = _linear(paddle, 3, 2)
    e = lin(paddle.zeros([0, 3]))
    x = _x(paddle, [2, 2, 3], grad=True)
    y = lin(x)
    y.sum().backward()
    return {"empty": e, "y": y, "gx": x.grad, "gw": lin.weight.grad,
            "bad": attempt(lin, paddle.ones([2, 4]))}


@program(item="fresh")
def f9_conv2d_forward_backward(paddle):
    w = np.cos(np.arange(2 * 1 * 3 * 3)).reshape(2, 1, 3, 3).astype("float32")
    conv = paddle.nn.Conv2D(1, 2, 3, padding=1, stride=2,
                            weight_attr=paddle.nn.initializer.Assign(w),
                            bias_attr=paddle.nn.initializer.Constant(0.1))
    x = _x(paddle, [1, 1, 5, 5], step=0.05, grad=True)
    y = conv(x)
    (y ** 2).sum().backward()
    return {"y": y, "gx": x.grad, "gw": conv.weight.grad, "gb": conv.bias.grad}


@program(item="fresh")
def f9_conv1d_groups_dilation(paddle):
    w = np.sin(np.arange(4 * 1 * 2)).reshape(4, 1, 2).astype("float32")
    conv = paddle.nn.Conv1D(2, 4, 2, groups=2, dilation=2,
                            weight_attr=paddle.nn.initializer.Assign(w), bias_attr=False)
    x = _x(paddle, [2, 2, 6], grad=True)
    y = conv(x)
    y.sum().backward()
    return {"y": y, "gx": x.grad, "gw": conv.weight.grad, "bias": conv.bias,
            "bad": attempt(conv, paddle.ones([2, 3, 6]))}


@program(item="fresh")
def f9_conv2d_nhwc_same_padding(paddle):
    conv = paddle.nn.Conv2D(2, 3, 3, padding="same", data_format="NHWC",
                            weight_attr=paddle.nn.initializer.Constant(0.1), bias_attr=False)
    x = _x(paddle, [1, 4, 4, 2], step=0.1)
    y = conv(x)
    return {"shape": y.shape, "y": y, "wshape": conv.weight.shape}


@program(item="fresh")
def f9_pools_2d(paddle):
    x = _x(paddle, [1, 2, 4, 5], grad=True)
    mp = paddle.nn.MaxPool2D(2, stride=2)(x)
    ap = paddle.nn.AvgPool2D(2, stride=2, padding=1)(x)
    ad = paddle.nn.AdaptiveAvgPool2D(1)(x)
    am = paddle.nn.AdaptiveMaxPool2D((2, 3))(x)
    (mp.sum() + ap.sum() * 2 + ad.sum() * 3 + am.sum()).backward()
    return {"mp": mp, "ap": ap, "ad": ad, "am": am, "gx": x.grad}


@program(item="fresh")
def f9_pools_1d_ceil_and_exclusive(paddle):
    x = _x(paddle, [1, 1, 7], grad=True)
    m = paddle.nn.MaxPool1D(3, stride=2, ceil_mode=True)(x)
    a = paddle.nn.AvgPool1D(3, stride=2, padding=1, exclusive=False)(x)
    a2 = paddle.nn.AvgPool1D(3, stride=2, padding=1)(x)
    (m.sum() + a.sum() + a2.sum()).backward()
    return {"m": m, "a": a, "a2": a2, "gx": x.grad}


@program(item="fresh")
def f9_batchnorm1d_train_running_stats(paddle):
    bn = paddle.nn.BatchNorm1D(3, momentum=0.8)
    x = _x(paddle, [4, 3], step=0.3, grad=True)
    y = bn(x)
    (y * _x(paddle, [4, 3], start=0.5, step=0.2)).sum().backward()
    return {"y": y, "gx": x.grad, "mean": bn._mean, "var": bn._variance,
            "gw": bn.weight.grad, "gb": bn.bias.grad,
            "buffers": sorted(bn.state_dict().keys())}


@program(item="fresh")
def f9_batchnorm2d_eval_uses_running(paddle):
    bn = paddle.nn.BatchNorm2D(2)
    x = _x(paddle, [2, 2, 2, 2], step=0.2)
    bn(x)
    bn(x * 2)
    bn.eval()
    y = bn(x)
    return {"y": y, "mean": bn._mean, "var": bn._variance}


@program(item="fresh")
def f9_batchnorm_3d_input_and_bad_channels(paddle):
    bn = paddle.nn.BatchNorm1D(2)
    x = _x(paddle, [2, 2, 3], step=0.2)
    y = bn(x)
    return {"y": y, "bad": attempt(paddle.nn.BatchNorm2D(3), paddle.ones([1, 2, 2, 2]))}


@program(item="fresh")
def f9_layernorm_forward_backward(paddle):
    ln = paddle.nn.LayerNorm([3], epsilon=1e-5)
    x = paddle.to_tensor(np.array([[1.0, 2.0, 4.0], [0.0, -1.0, 3.0]], dtype="float32"),
                         stop_gradient=False)
    y = ln(x)
    (y * paddle.to_tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])).sum().backward()
    ln2 = paddle.nn.LayerNorm([2, 3], weight_attr=False, bias_attr=False)
    return {"y": y, "gx": x.grad, "gw": ln.weight.grad, "gb": ln.bias.grad,
            "y2": attempt(ln2, x), "y3": ln2(x.reshape([1, 2, 3])),
            "ln2_params": len(ln2.parameters())}


@program(item="fresh")
def f9_embedding_padding_idx_and_grad(paddle):
    w = np.arange(12, dtype="float32").reshape(4, 3) * 0.5
    emb = paddle.nn.Embedding(4, 3, padding_idx=0,
                              weight_attr=paddle.ParamAttr(
                                  initializer=paddle.nn.initializer.Assign(w)))
    ids = paddle.to_tensor([[0, 1], [1, 3]], dtype="int64")
    y = emb(ids)
    (y * 2).sum().backward()
    return {"y": y, "gw": emb.weight.grad, "weight": emb.weight,
            "bad": attempt(emb, paddle.to_tensor([[1.5]]))}


@program(item="fresh")
def f9_embedding_sparse_false_int32_ids(paddle):
    emb = paddle.nn.Embedding(5, 2, weight_attr=paddle.nn.initializer.Constant(1.0))
    y = emb(paddle.to_tensor([4, 4, 2], dtype="int32"))
    y.sum().backward()
    return {"y": y, "gw": emb.weight.grad, "shape0": emb(paddle.to_tensor(3)).shape}


@program(item="fresh")
def f9_flatten_and_activation_layers(paddle):
    x = _x(paddle, [2, 2, 3], grad=True)
    f = paddle.nn.Flatten()(x)
    f2 = paddle.nn.Flatten(start_axis=0, stop_axis=1)(x)
    acts = [paddle.nn.ReLU(), paddle.nn.LeakyReLU(0.1), paddle.nn.GELU(), paddle.nn.Sigmoid(),
            paddle.nn.Tanh(), paddle.nn.Softmax(axis=-1), paddle.nn.ELU(), paddle.nn.Silu(),
            paddle.nn.Hardswish(), paddle.nn.ReLU6(), paddle.nn.LogSoftmax()]
    outs = [a(f) for a in acts]
    sum(o.sum() for o in outs).backward()
    return {"f": f.shape, "f2": f2.shape, "outs": outs, "gx": x.grad}


@program(item="fresh")
def f9_prelu_layer_parameter(paddle):
    pr = paddle.nn.PReLU(num_parameters=2, init=0.2)
    x = _x(paddle, [2, 2, 2], grad=True)
    y = pr(x)
    y.sum().backward()
    (w,) = pr.parameters()
    return {"y": y, "gx": x.grad, "gw": w.grad, "w": w}


# ---------------------------------------------------------------- functional activations


@program(item="fresh")
def f9_functional_activations_values_and_grads(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [7], start=-1.5, step=0.5, dtype="float64", grad=True)
    outs = {"relu": F.relu(x), "gelu": F.gelu(x), "gelu_t": F.gelu(x, approximate=True),
            "silu": F.silu(x), "softplus": F.softplus(x, beta=2.0), "elu": F.elu(x, 0.5),
            "selu": F.selu(x), "mish": F.mish(x), "hsig": F.hardsigmoid(x),
            "lrelu": F.leaky_relu(x, 0.05), "softsign": F.softsign(x),
            "tanhshrink": F.tanhshrink(x), "log_sig": F.log_sigmoid(x)}
    grads = {}
    for k, v in outs.items():
        grads[k] = paddle.grad(v.sum(), x, retain_graph=True)[0]
    return {"outs": outs, "grads": grads}


@program(item="fresh")
def f9_functional_softmax_dtypes_and_axis(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [2, 3], grad=True)
    s0 = F.softmax(x, axis=0)
    s1 = F.softmax(x, dtype="float64")
    ls = F.log_softmax(x, axis=1)
    (s0[0, 1] + ls[1, 2]).backward()
    return {"s0": s0, "s1": s1, "ls": ls, "gx": x.grad,
            "int": attempt(F.softmax, paddle.to_tensor([1, 2, 3]))}


@program(item="fresh")
def f9_relu_second_order(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [5], start=-1.0, step=0.5, dtype="float64", grad=True)
    y = F.sigmoid(x) * F.softplus(x)
    (g,) = paddle.grad(y.sum(), x, create_graph=True)
    (gg,) = paddle.grad(g.sum(), x)
    return {"g": g, "gg": gg}


# ---------------------------------------------------------------- losses


@program(item="fresh")
def f9_regression_losses_reductions(paddle):
    F = paddle.nn.functional
    p = _x(paddle, [2, 3], start=-0.5, step=0.3, grad=True)
    t = _x(paddle, [2, 3], start=0.5, step=-0.2)
    out = {}
    for red in ("mean", "sum", "none"):
        out[red] = {"mse": F.mse_loss(p, t, reduction=red), "l1": F.l1_loss(p, t, reduction=red),
                    "smooth": F.smooth_l1_loss(p, t, reduction=red, delta=0.5)}
    total = sum(v.sum() for d in out.values() for v in d.values())
    total.backward()
    out["gp"] = p.grad
    out["bad"] = attempt(F.mse_loss, p, t, reduction="avg")
    return out


@program(item="fresh")
def f9_loss_layers_match_functional(paddle):
    p = _x(paddle, [4], start=-1.0, step=0.6)
    t = _x(paddle, [4], start=0.3, step=0.1)
    return {"mse": paddle.nn.MSELoss()(p, t), "l1": paddle.nn.L1Loss(reduction="sum")(p, t),
            "smooth": paddle.nn.SmoothL1Loss()(p, t),
            "huber": paddle.nn.functional.smooth_l1_loss(p, t, delta=2.0)}


@program(item="fresh")
def f9_cross_entropy_hard_labels(paddle):
    F = paddle.nn.functional
    logits = _x(paddle, [3, 4], start=-1.0, step=0.37, grad=True)
    label = paddle.to_tensor([2, 0, 3], dtype="int64")
    l = F.cross_entropy(logits, label)
    l.backward()
    l2 = F.cross_entropy(logits, label.unsqueeze(1), reduction="none")
    return {"loss": l, "g": logits.grad, "none": l2, "none_shape": l2.shape}


@program(item="fresh")
def f9_cross_entropy_soft_labels(paddle):
    F = paddle.nn.functional
    logits = _x(paddle, [2, 3], start=0.2, step=0.4, grad=True)
    soft = paddle.to_tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]])
    l = F.cross_entropy(logits, soft, soft_label=True)
    l.backward()
    return {"loss": l, "g": logits.grad,
            "sum": F.cross_entropy(logits, soft, soft_label=True, reduction="sum")}


@program(item="fresh")
def f9_cross_entropy_ignore_index_and_weight(paddle):
    F = paddle.nn.functional
    logits = _x(paddle, [4, 3], start=-0.7, step=0.21, grad=True)
    label = paddle.to_tensor([0, 2, -100, 1], dtype="int64")
    w = paddle.to_tensor([1.0, 2.0, 0.5])
    l = F.cross_entropy(logits, label, weight=w, ignore_index=-100)
    l.backward()
    ln = F.cross_entropy(logits, label, ignore_index=-100, reduction="none")
    return {"loss": l, "g": logits.grad, "none": ln,
            "layer": paddle.nn.CrossEntropyLoss(ignore_index=2)(logits, paddle.to_tensor(
                [0, 2, 2, 1], dtype="int64"))}


@program(item="fresh")
def f9_cross_entropy_label_smoothing(paddle):
    F = paddle.nn.functional
    logits = _x(paddle, [3, 4], start=0.1, step=0.3, grad=True)
    label = paddle.to_tensor([1, 3, 0], dtype="int64")
    l = F.cross_entropy(logits, label, label_smoothing=0.1)
    l.backward()
    return {"loss": l, "g": logits.grad}


@program(item="fresh")
def f9_cross_entropy_axis_and_no_softmax(paddle):
    F = paddle.nn.functional
    logits = _x(paddle, [2, 3, 2], start=0.1, step=0.1)
    label = paddle.to_tensor([[1, 0], [2, 1]], dtype="int64")
    a = F.cross_entropy(logits, label, axis=1)
    probs = F.softmax(_x(paddle, [2, 3]), axis=-1)
    b = F.cross_entropy(probs, paddle.to_tensor([1, 2]), use_softmax=False)
    bad = attempt(F.cross_entropy, _x(paddle, [2, 3]), paddle.to_tensor([1, 3, 0]))
    return {"a": a, "b": b, "bad": bad}


@program(item="fresh")
def f9_nll_loss_weight_ignore(paddle):
    F = paddle.nn.functional
    logp = F.log_softmax(_x(paddle, [4, 3], start=-0.4, step=0.17, grad=True), axis=1)
    label = paddle.to_tensor([2, 1, 0, 1], dtype="int64")
    w = paddle.to_tensor([0.2, 1.0, 3.0])
    return {"mean": F.nll_loss(logp, label), "w": F.nll_loss(logp, label, weight=w),
            "ign": F.nll_loss(logp, label, ignore_index=1),
            "none": F.nll_loss(logp, label, reduction="none"),
            "layer": paddle.nn.NLLLoss(reduction="sum")(logp, label)}


@program(item="fresh")
def f9_bce_and_bce_with_logits(paddle):
    F = paddle.nn.functional
    z = _x(paddle, [2, 3], start=-1.2, step=0.45, grad=True)
    t = paddle.to_tensor([[1.0, 0.0, 1.0], [0.0, 0.5, 1.0]])
    p = F.sigmoid(z)
    a = F.binary_cross_entropy(p, t)
    b = F.binary_cross_entropy_with_logits(z, t)
    c = F.binary_cross_entropy_with_logits(z, t, pos_weight=paddle.to_tensor([2.0, 1.0, 0.5]))
    d = F.binary_cross_entropy(p, t, weight=paddle.to_tensor([1.0, 2.0, 3.0]), reduction="sum")
    (a + b + c + d).backward()
    return {"a": a, "b": b, "c": c, "d": d, "g": z.grad,
            "layer": paddle.nn.BCEWithLogitsLoss(reduction="none")(z, t)}


@program(item="fresh")
def f9_bce_out_of_range_input(paddle):
    F = paddle.nn.functional
    r = attempt(F.binary_cross_entropy, paddle.to_tensor([1.5, 0.5]), paddle.to_tensor([1.0, 0.0]))
    edge = F.binary_cross_entropy(paddle.to_tensor([1.0, 0.0]), paddle.to_tensor([1.0, 0.0]))
    return {"r": r, "edge": edge}


@program(item="fresh")
def f9_kl_div_reductions(paddle):
    F = paddle.nn.functional
    logq = F.log_softmax(_x(paddle, [2, 3], start=-0.3, step=0.2, grad=True), axis=-1)
    p = paddle.to_tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    out = {r: F.kl_div(logq, p, reduction=r) for r in ("mean", "batchmean", "sum", "none")}
    out["log_target"] = F.kl_div(logq, paddle.log(p), reduction="sum", log_target=True)
    out["layer"] = paddle.nn.KLDivLoss(reduction="batchmean")(logq, p)
    return out


@program(item="fresh")
def f9_loss_float64_and_zero_dim(paddle):
    F = paddle.nn.functional
    p = paddle.to_tensor(0.5, dtype="float64", stop_gradient=False)
    t = paddle.to_tensor(2.0, dtype="float64")
    l = F.mse_loss(p, t) + F.l1_loss(p, t) + F.smooth_l1_loss(p, t)
    l.backward()
    return {"l": l, "g": p.grad, "shape": l.shape}


# ---------------------------------------------------------------- optimizers


@program(item="fresh")
def f9_sgd_loop(paddle):
    return _step_loop(paddle, lambda ps: paddle.optimizer.SGD(learning_rate=0.1, parameters=ps))


@program(item="fresh")
def f9_momentum_nesterov_loop(paddle):
    r = _step_loop(paddle, lambda ps: paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9,
                                                               parameters=ps))
    r2 = _step_loop(paddle, lambda ps: paddle.optimizer.Momentum(
        learning_rate=0.05, momentum=0.9, use_nesterov=True, parameters=ps))
    return {"plain": r, "nesterov": r2}


@program(item="fresh")
def f9_adam_loop(paddle):
    return _step_loop(paddle, lambda ps: paddle.optimizer.Adam(learning_rate=0.01, parameters=ps),
                      steps=4)


@program(item="fresh")
def f9_adamw_loop_weight_decay(paddle):
    return _step_loop(paddle, lambda ps: paddle.optimizer.AdamW(
        learning_rate=0.01, weight_decay=0.1, parameters=ps), steps=4)


@program(item="fresh")
def f9_rmsprop_and_adagrad_loops(paddle):
    a = _step_loop(paddle, lambda ps: paddle.optimizer.RMSProp(learning_rate=0.01, parameters=ps))
    b = _step_loop(paddle, lambda ps: paddle.optimizer.RMSProp(
        learning_rate=0.01, momentum=0.5, centered=True, parameters=ps))
    c = _step_loop(paddle, lambda ps: paddle.optimizer.Adagrad(learning_rate=0.1, parameters=ps))
    return {"rms": a, "rms_c": b, "adagrad": c}


@program(item="fresh")
def f9_sgd_l2_weight_decay(paddle):
    a = _step_loop(paddle, lambda ps: paddle.optimizer.SGD(
        learning_rate=0.1, weight_decay=0.01, parameters=ps), steps=2)
    b = _step_loop(paddle, lambda ps: paddle.optimizer.Momentum(
        learning_rate=0.1, weight_decay=paddle.regularizer.L2Decay(0.05), parameters=ps), steps=2)
    c = _step_loop(paddle, lambda ps: paddle.optimizer.SGD(
        learning_rate=0.1, weight_decay=paddle.regularizer.L1Decay(0.05), parameters=ps), steps=2)
    return {"float": a, "l2": b, "l1": c}


@program(item="fresh")
def f9_adam_parameter_groups(paddle):
    net = _mlp(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=[
        {"params": net[0].parameters()},
        {"params": net[2].parameters(), "learning_rate": 0.1, "weight_decay": 0.01}])
    x = _x(paddle, [4, 3])
    for _ in range(2):
        net(x).pow(2).mean().backward()
        opt.step()
        opt.clear_grad()
    return {"params": net.parameters(), "lr": opt.get_lr()}


@program(item="fresh")
def f9_optimizer_state_dict_resume(paddle):
    def snapshot(sd):
        return {k: (paddle.to_tensor(v.numpy()) if hasattr(v, "numpy") else v)
                for k, v in sd.items() if k != "LR_Scheduler"}

    def run(detour):
        net = _mlp(paddle)
        opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=net.parameters())
        x = _x(paddle, [3, 3])
        for i in range(4):
            if detour and i == 2:
                sd, osd = snapshot(net.state_dict()), snapshot(opt.state_dict())
                for _ in range(2):
                    net(x * 3).sum().backward()
                    opt.step()
                    opt.clear_grad()
                net.set_state_dict(sd)
                opt.set_state_dict(osd)
            net(x).abs().sum().backward()
            opt.step()
            opt.clear_grad()
        return net.parameters()

    return {"straight": run(False), "resumed": run(True)}


@program(item="fresh")
def f9_clear_grad_set_to_zero(paddle):
    net = _linear(paddle, 2, 2)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    net(paddle.ones([1, 2])).sum().backward()
    opt.clear_grad(set_to_zero=True)
    zeroed = net.weight.grad
    net(paddle.ones([1, 2])).sum().backward()
    opt.clear_grad()
    none_after = net.weight.grad is None
    net(paddle.ones([1, 2])).sum().backward()
    net.clear_gradients()
    return {"zeroed": zeroed, "none_after": none_after, "layer_clear": net.weight.grad}


@program(item="fresh")
def f9_grad_accumulation_two_backwards(paddle):
    net = _linear(paddle, 2, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=net.parameters())
    for xv in ([[1.0, 2.0]], [[-1.0, 0.5]]):
        net(paddle.to_tensor(xv)).sum().backward()
    g = net.weight.grad
    opt.step()
    return {"g": g, "w": net.weight, "b": net.bias}


@program(item="fresh")
def f9_optimizer_minimize_and_no_params(paddle):
    net = _linear(paddle, 2, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    loss = net(paddle.ones([2, 2])).mean()
    loss.backward()
    opt.minimize(loss)
    return {"w": net.weight, "b": net.bias,
            "no_params": attempt(lambda: paddle.optimizer.Adam(learning_rate=0.1).step())}


@program(item="fresh")
def f9_set_lr_and_get_lr(paddle):
    net = _linear(paddle, 2, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    before = opt.get_lr()
    opt.set_lr(0.5)
    net(paddle.ones([1, 2])).sum().backward()
    opt.step()
    return {"before": before, "after": opt.get_lr(), "w": net.weight}


# ---------------------------------------------------------------- lr schedulers


def _trace(steps, *scheds):
    """Each scheduler's learning rate at epochs 0..steps-1, stepping all of them together."""
    out = [[] for _ in scheds]
    for _ in range(steps):
        for vals, sched in zip(out, scheds):
            vals.append(sched())
            sched.step()
    return out


@program(item="fresh")
def f9_step_and_multistep_decay(paddle):
    s = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    m = paddle.optimizer.lr.MultiStepDecay(learning_rate=1.0, milestones=[1, 3], gamma=0.5)
    sv, mv = _trace(5, s, m)
    return {"step": sv, "multi": mv, "last_epoch": s.last_epoch, "get_lr": m.get_lr()}


@program(item="fresh")
def f9_cosine_annealing_and_exponential(paddle):
    c = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.1, T_max=4, eta_min=0.01)
    e = paddle.optimizer.lr.ExponentialDecay(learning_rate=0.2, gamma=0.9)
    cv, ev = _trace(6, c, e)
    return {"cos": cv, "exp": ev}


@program(item="fresh")
def f9_linear_warmup_wrapping_scheduler(paddle):
    inner = paddle.optimizer.lr.StepDecay(learning_rate=0.4, step_size=2, gamma=0.5)
    w = paddle.optimizer.lr.LinearWarmup(learning_rate=inner, warmup_steps=3, start_lr=0.0,
                                         end_lr=0.4)
    w2 = paddle.optimizer.lr.LinearWarmup(learning_rate=0.1, warmup_steps=2, start_lr=0.02,
                                          end_lr=0.1)
    a, b = _trace(7, w, w2)
    return {"wrapped": a, "plain": b}


@program(item="fresh")
def f9_scheduler_drives_optimizer(paddle):
    net = _linear(paddle, 2, 1)
    sched = paddle.optimizer.lr.PiecewiseDecay(boundaries=[1, 2], values=[0.1, 0.01, 0.001])
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=net.parameters())
    lrs = []
    for _ in range(3):
        net(paddle.ones([1, 2])).sum().backward()
        lrs.append(opt.get_lr())
        opt.step()
        opt.clear_grad()
        sched.step()
    return {"lrs": lrs, "w": net.weight, "set_lr": attempt(opt.set_lr, 0.3)}


@program(item="fresh")
def f9_more_schedulers(paddle):
    L = paddle.optimizer.lr
    scheds = {"poly": L.PolynomialDecay(learning_rate=0.1, decay_steps=3, end_lr=0.01, power=2.0),
              "natexp": L.NaturalExpDecay(learning_rate=0.1, gamma=0.5),
              "inv": L.InverseTimeDecay(learning_rate=0.1, gamma=0.5),
              "lambda": L.LambdaDecay(learning_rate=0.2, lr_lambda=lambda e: 0.9 ** e),
              "noam": L.NoamDecay(d_model=16, warmup_steps=2, learning_rate=1.0),
              "onecycle": L.OneCycleLR(max_learning_rate=0.1, total_steps=6),
              "cyclic": L.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=2)}
    return dict(zip(scheds, _trace(5, *scheds.values())))


@program(item="fresh")
def f9_reduce_on_plateau(paddle):
    s = paddle.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, factor=0.5, patience=1,
                                            cooldown=1)
    vals = []
    for metric in [1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.95]:
        s.step(metric)
        vals.append(s.last_lr)
    return {"lrs": vals}


@program(item="fresh")
def f9_scheduler_state_dict(paddle):
    s = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    for _ in range(3):
        s.step()
    sd = s.state_dict()
    t = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    t.set_state_dict(sd)
    return {"last_epoch": t.last_epoch, "lr": t(), "keys": sorted(sd.keys())}


# ---------------------------------------------------------------- gradient clipping


@program(item="fresh")
def f9_clip_grad_by_global_norm(paddle):
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=0.5)
    return _step_loop(paddle, lambda ps: paddle.optimizer.SGD(
        learning_rate=0.5, parameters=ps, grad_clip=clip), steps=2)


@program(item="fresh")
def f9_clip_grad_by_norm_and_value(paddle):
    a = _step_loop(paddle, lambda ps: paddle.optimizer.SGD(
        learning_rate=0.5, parameters=ps, grad_clip=paddle.nn.ClipGradByNorm(clip_norm=0.1)),
        steps=2)
    b = _step_loop(paddle, lambda ps: paddle.optimizer.Momentum(
        learning_rate=0.5, parameters=ps,
        grad_clip=paddle.nn.ClipGradByValue(max=0.05, min=-0.02)), steps=2)
    c = _step_loop(paddle, lambda ps: paddle.optimizer.Adam(
        learning_rate=0.05, parameters=ps, grad_clip=paddle.nn.ClipGradByValue(max=0.05)),
        steps=2)
    return {"norm": a, "value": b, "adam_value": c}


@program(item="fresh")
def f9_clip_grad_norm_utility(paddle):
    net = _mlp(paddle)
    net(_x(paddle, [3, 3])).pow(2).sum().backward()
    before = [p.grad.numpy().copy() for p in net.parameters()]
    total = paddle.nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.3)
    after = [p.grad for p in net.parameters()]
    net2 = _mlp(paddle)
    net2(_x(paddle, [3, 3])).pow(2).sum().backward()
    paddle.nn.utils.clip_grad_value_(net2.parameters(), clip_value=0.1)
    return {"total": total, "before": before, "after": after,
            "value": [p.grad for p in net2.parameters()]}


@program(item="fresh")
def f9_clip_global_norm_need_clip_false(paddle):
    lin = paddle.nn.Linear(
        2, 2, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0),
                                           need_clip=False),
        bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.0)))
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=lin.parameters(),
                               grad_clip=paddle.nn.ClipGradByGlobalNorm(0.1))
    (lin(paddle.to_tensor([[3.0, 4.0]])) * 10).sum().backward()
    opt.step()
    return {"w": lin.weight, "b": lin.bias}


# ---------------------------------------------------------------- small training loops


@program(item="fresh")
def f9_train_classifier_loop(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = _linear(paddle, 4, 8)
            self.bn = paddle.nn.BatchNorm1D(8)
            self.out = _linear(paddle, 8, 3, start=0.7, step=-0.13)

        def forward(self, x):
            return self.out(paddle.nn.functional.relu(self.bn(self.fc(x))))

    net = Net()
    opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9,
                                    parameters=net.parameters(), weight_decay=1e-3)
    x = paddle.to_tensor(np.sin(_a([6, 4], 0.3, 0.7)).astype("float32"))
    y = paddle.to_tensor([0, 1, 2, 0, 1, 2], dtype="int64")
    losses = _fit(opt, lambda: paddle.nn.functional.cross_entropy(net(x), y), 4)
    net.eval()
    pred = net(x).argmax(axis=1)
    return {"losses": losses, "params": net.state_dict(), "pred": pred}


@program(item="fresh", differs=(["losses", "params"], BCE_LOGIT_ZERO))
def f9_train_conv_net_loop(paddle):
    w = np.cos(np.arange(3 * 1 * 3 * 3) * 0.7).reshape(3, 1, 3, 3).astype("float32") * 0.3
    net = paddle.nn.Sequential(
        paddle.nn.Conv2D(1, 3, 3, weight_attr=paddle.nn.initializer.Assign(w),
                         bias_attr=paddle.nn.initializer.Constant(0.0)),
        paddle.nn.ReLU(), paddle.nn.MaxPool2D(2), paddle.nn.Flatten(),
        _linear(paddle, 3 * 2 * 2, 2, start=0.1, step=0.31))
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=net.parameters(),
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    x = _x(paddle, [2, 1, 6, 6], start=-1.0, step=0.03)
    y = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    bce = paddle.nn.functional.binary_cross_entropy_with_logits
    losses = _fit(opt, lambda: bce(net(x), y), 3)
    return {"losses": losses, "params": net.parameters()}


@program(item="fresh")
def f9_train_embedding_layernorm_with_scheduler(paddle):
    w = (np.arange(20, dtype="float32").reshape(5, 4) % 3 - 1.0) * 0.4
    emb = paddle.nn.Embedding(5, 4, weight_attr=paddle.nn.initializer.Assign(w))
    ln = paddle.nn.LayerNorm(4)
    head = _linear(paddle, 4, 1, start=0.2, step=0.5)
    params = emb.parameters() + ln.parameters() + head.parameters()
    sched = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.1, T_max=3)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=params)
    ids = paddle.to_tensor([[1, 2], [3, 3], [0, 4]], dtype="int64")
    target = paddle.to_tensor([[0.5], [-0.5], [1.0]])
    losses = _fit(opt, lambda: paddle.nn.functional.smooth_l1_loss(
        head(ln(emb(ids)).mean(axis=1)), target), 3, after_step=sched.step)
    return {"losses": losses, "emb": emb.weight, "ln_w": ln.weight, "head": head.weight}


@program(item="fresh")
def f9_train_float64_model(paddle):
    paddle.set_default_dtype("float64")
    try:
        net = _mlp(paddle)
        x = _x(paddle, [4, 3], dtype="float64")
        opt = paddle.optimizer.RMSProp(learning_rate=0.01, parameters=net.parameters())
        for _ in range(2):
            net(x).pow(2).mean().backward()
            opt.step()
            opt.clear_grad()
        return {"dtype": str(net[0].weight.dtype).split(".")[-1], "params": net.parameters()}
    finally:
        paddle.set_default_dtype("float32")


@program(item="fresh")
def f9_no_grad_eval_inference(paddle):
    net = _mlp(paddle)
    x = _x(paddle, [2, 3])
    with paddle.no_grad():
        y = net(x)
    net.eval()
    z = net(x)
    return {"y": y, "y_sg": y.stop_gradient, "z_sg": z.stop_gradient,
            "w_grad": net[0].weight.grad}


@program(item="fresh")
def f9_optimizer_wrong_parameters_arg(paddle):
    net = _linear(paddle, 2, 1)
    return {"tensor": attempt(lambda: paddle.optimizer.SGD(learning_rate=0.1,
                                                            parameters=net.weight)),
            "neg_lr": attempt(lambda: paddle.optimizer.Adam(learning_rate=-1.0,
                                                            parameters=net.parameters())),
            "bad_beta": attempt(lambda: paddle.optimizer.Adam(learning_rate=0.1, beta1=1.5,
                                                              parameters=net.parameters()))}
