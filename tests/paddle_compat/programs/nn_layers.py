"""paddle.nn layers, losses and functional neighbours the seeds use; Layer bookkeeping."""
import numpy as np

from ..harness import attempt
from . import program

X = np.asarray([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], dtype="float32")
W = np.asarray([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], dtype="float32")


def _linear(paddle, w=W, b=(0.05, -0.05)):
    lin = paddle.nn.Linear(w.shape[0], w.shape[1])
    lin.weight.set_value(w)
    lin.bias.set_value(np.asarray(b, dtype="float32"))
    return lin


def _layer_grads(paddle, layer, x=X):
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = layer(xt)
    (y * paddle.to_tensor(np.linspace(-1, 1, y.size, dtype="float32").reshape(y.shape))).sum() \
        .backward()
    return {"y": y, "x_grad": xt.grad,
            "param_grads": [p.grad for p in layer.parameters()]}


@program(item="nn")
def linear_forward_backward(paddle):
    return _layer_grads(paddle, _linear(paddle))


@program(item="nn")
def linear_without_bias_and_constant_init(paddle):
    lin = paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(
        initializer=paddle.nn.initializer.Constant(0.5)), bias_attr=False)
    out = _layer_grads(paddle, lin)
    out["n_params"] = len(lin.parameters())
    out["bias"] = lin.bias
    return out


@program(item="nn")
def linear_weight_shape_is_in_out(paddle):
    lin = paddle.nn.Linear(4, 3)
    return {"w": list(lin.weight.shape), "b": list(lin.bias.shape),
            "w_sg": lin.weight.stop_gradient, "bias_init": lin.bias}


@program(item="nn")
def sequential_relu_tanh_sigmoid(paddle):
    net = paddle.nn.Sequential(_linear(paddle), paddle.nn.ReLU(), paddle.nn.Tanh(),
                               paddle.nn.Sigmoid())
    out = _layer_grads(paddle, net)
    out["len"] = len(net)
    out["first"] = type(net[1]).__name__
    return out


@program(item="nn")
def sequential_named_parameters(paddle):
    net = paddle.nn.Sequential(_linear(paddle), paddle.nn.ReLU(), _linear(paddle, W.T[:, :2]))
    return {"names": [n for n, _ in net.named_parameters()],
            "state": sorted(net.state_dict().keys())}


@program(item="nn")
def layer_list_and_sublayers(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = paddle.nn.LayerList([_linear(paddle, W[:2, :].copy()),
                                               paddle.nn.GELU()])
            self.head = _linear(paddle, W.copy())

        def forward(self, x):
            for b in self.blocks:
                x = b(x)
            return self.head(x[:, :2].matmul(paddle.ones([2, 3])))

    net = Net()
    out = _layer_grads(paddle, net, X[:, :2].copy())
    out["names"] = [n for n, _ in net.named_parameters()]
    out["n_sub"] = len(net.sublayers())
    return out


@program(item="nn")
def custom_layer_create_parameter(paddle):
    class Affine(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.scale = self.create_parameter(
                [3], default_initializer=paddle.nn.initializer.Constant(2.0))
            self.shift = self.create_parameter([3], is_bias=True)

        def forward(self, x):
            return x * self.scale + self.shift

    layer = Affine()
    out = _layer_grads(paddle, layer)
    out["shift_init"] = layer.shift
    return out


@program(item="nn")
def activation_layers(paddle):
    out = {}
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0], stop_gradient=False)
    for name in ("ReLU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
                 "LogSoftmax", "ELU", "Softplus", "ReLU6", "Hardtanh", "Mish", "Hardswish",
                 "Hardsigmoid", "Softsign", "Tanhshrink", "LogSigmoid", "PReLU"):
        cls = getattr(paddle.nn, name, None)
        if cls is None:
            out[name] = "missing"
            continue
        y = cls()(x)
        (g,) = paddle.grad(y.sum() if name not in ("Softmax",) else (y * y).sum(), x)
        out[name] = {"y": y.numpy(), "g": g.numpy()}
    return out


@program(item="nn")
def functional_activations(paddle):
    F = paddle.nn.functional
    out = {}
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0], stop_gradient=False)
    for name in ("relu", "relu6", "elu", "selu", "softplus", "softsign", "hardtanh",
                 "hardsigmoid", "hardswish", "mish", "log_sigmoid", "tanhshrink", "celu"):
        fn = getattr(F, name, None)
        if fn is None:
            out[name] = "missing"
            continue
        y = fn(x)
        (g,) = paddle.grad(y.sum(), x)
        out[name] = {"y": y.numpy(), "g": g.numpy()}
    return out


@program(item="nn")
def dropout_eval_is_identity_and_train_scales(paddle):
    drop = paddle.nn.Dropout(p=0.5)
    x = paddle.ones([1000])
    y = drop(x)
    kept = y.numpy()[y.numpy() != 0]
    drop.eval()
    return {"train_values": sorted(set(kept.tolist())), "eval": drop(x).numpy()[:3],
            "training": drop.training}


@program(item="nn")
def dropout_p_zero_and_one(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    return {"p0": F.dropout(x, p=0.0), "p1": F.dropout(x, p=1.0),
            "eval": F.dropout(x, p=0.5, training=False)}


@program(item="nn")
def layer_norm_forward_backward(paddle):
    ln = paddle.nn.LayerNorm(3)
    out = _layer_grads(paddle, ln)
    out["w_init"] = ln.weight
    out["b_init"] = ln.bias
    return out


@program(item="nn")
def functional_layer_norm(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(X, stop_gradient=False)
    w = paddle.to_tensor([1.0, 2.0, 0.5], stop_gradient=False)
    b = paddle.to_tensor([0.0, 0.1, -0.1], stop_gradient=False)
    y = F.layer_norm(x, [3], weight=w, bias=b, epsilon=1e-5)
    (y * y).sum().backward()
    return {"y": y, "grads": [x.grad, w.grad, b.grad]}


@program(item="nn")
def flatten_and_identity_layers(paddle):
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(2, 2, 3))
    return {"flat": paddle.nn.Flatten()(x), "ident": paddle.nn.Identity()(x),
            "flat_axis": paddle.nn.Flatten(0, 1)(x)}


@program(item="nn")
def mse_loss_reductions(paddle):
    F = paddle.nn.functional
    a = paddle.to_tensor([1.0, 2.0, 4.0], stop_gradient=False)
    b = paddle.to_tensor([1.5, 2.0, 3.0])
    m = F.mse_loss(a, b)
    m.backward()
    return {"mean": m, "sum": F.mse_loss(a, b, reduction="sum"),
            "none": F.mse_loss(a, b, reduction="none"), "grad": a.grad,
            "layer": paddle.nn.MSELoss()(a, b)}


@program(item="nn")
def cross_entropy_hard_labels(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], stop_gradient=False)
    label = paddle.to_tensor([[0], [1]])
    loss = F.cross_entropy(logits, label)
    loss.backward()
    return {"loss": loss, "grad": logits.grad,
            "none": F.cross_entropy(logits, label, reduction="none"),
            "1d_label": F.cross_entropy(logits, paddle.to_tensor([0, 1]))}


@program(item="nn")
def cross_entropy_soft_label_and_weight(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], stop_gradient=False)
    soft = paddle.to_tensor([[0.7, 0.2, 0.1], [0.0, 1.0, 0.0]])
    s = F.cross_entropy(logits, soft, soft_label=True)
    w = F.cross_entropy(logits, paddle.to_tensor([[0], [2]]),
                        weight=paddle.to_tensor([1.0, 2.0, 3.0]))
    (s + w).backward()
    return {"soft": s, "weighted": w, "grad": logits.grad}


@program(item="nn")
def cross_entropy_ignore_index_and_no_softmax(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], stop_gradient=False)
    probs = F.softmax(logits)
    ig = F.cross_entropy(logits, paddle.to_tensor([[0], [-100]]))
    ns = F.cross_entropy(probs, paddle.to_tensor([[2], [1]]), use_softmax=False)
    (ig + ns).backward()
    return {"ignore": ig, "no_softmax": ns, "grad": logits.grad,
            "layer": paddle.nn.CrossEntropyLoss()(logits, paddle.to_tensor([[1], [1]]))}


@program(item="nn")
def other_losses(paddle):
    F = paddle.nn.functional
    p = paddle.to_tensor([0.2, 0.7, 0.9], stop_gradient=False)
    t = paddle.to_tensor([0.0, 1.0, 1.0])
    out = {}
    for name, fn in (("l1_loss", lambda: F.l1_loss(p, t)),
                     ("smooth_l1_loss", lambda: F.smooth_l1_loss(p * 3, t)),
                     ("binary_cross_entropy", lambda: F.binary_cross_entropy(p, t)),
                     ("binary_cross_entropy_with_logits",
                      lambda: F.binary_cross_entropy_with_logits(p * 4 - 2, t)),
                     ("nll_loss", lambda: F.nll_loss(
                         paddle.log(paddle.stack([p, 1 - p], axis=1)),
                         paddle.to_tensor([0, 1, 1]))),
                     ("kl_div", lambda: F.kl_div(paddle.log(p), t * 0.5 + 0.25))):
        if not hasattr(F, name):
            out[name] = "missing"
            continue
        loss = fn()
        (g,) = paddle.grad(loss, p)
        out[name] = {"loss": loss.numpy(), "g": g.numpy()}
    return out


@program(item="nn")
def loss_layers(paddle):
    p = paddle.to_tensor([0.2, 0.7, 0.9], stop_gradient=False)
    t = paddle.to_tensor([0.0, 1.0, 1.0])
    out = {}
    for name in ("L1Loss", "SmoothL1Loss", "BCELoss", "BCEWithLogitsLoss", "MSELoss"):
        cls = getattr(paddle.nn, name, None)
        out[name] = "missing" if cls is None else cls()(p, t).numpy()
    return out


@program(item="nn")
def functional_linear_and_one_hot(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(X, stop_gradient=False)
    w = paddle.to_tensor(W, stop_gradient=False)
    y = F.linear(x, w, paddle.to_tensor([1.0, -1.0]))
    y.sum().backward()
    return {"y": y, "x_grad": x.grad, "w_grad": w.grad,
            "one_hot": F.one_hot(paddle.to_tensor([0, 2, 1]), num_classes=3)}


@program(item="nn")
def functional_normalize_and_pad(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(X, stop_gradient=False)
    out = {}
    if hasattr(F, "normalize"):
        y = F.normalize(x, axis=1)
        (g,) = paddle.grad((y * y * paddle.to_tensor([1.0, 2.0, 3.0])).sum(), x)
        out["normalize"] = {"y": y.numpy(), "g": g.numpy()}
    else:
        out["normalize"] = "missing"
    return out


@program(item="nn")
def layer_train_eval_flags(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.Dropout(0.3))
    net.eval()
    a = [net.training, net[1].training]
    net.train()
    return {"eval": a, "train": [net.training, net[1].training]}


@program(item="nn")
def layer_state_dict_round_trip(paddle):
    a = _linear(paddle)
    b = paddle.nn.Linear(3, 2)
    b.set_state_dict(a.state_dict())
    return {"keys": sorted(a.state_dict().keys()), "w": b.weight, "b": b.bias}


@program(item="nn")
def layer_forward_post_hook(paddle):
    lin = _linear(paddle)
    calls = []
    h = lin.register_forward_post_hook(lambda layer, inp, out: calls.append(out.shape) or out * 2)
    y1 = lin(paddle.to_tensor(X))
    h.remove()
    y2 = lin(paddle.to_tensor(X))
    return {"y1": y1, "y2": y2, "calls": [list(c) for c in calls]}


@program(item="nn")
def create_parameter_initializers(paddle):
    init = paddle.nn.initializer
    c = paddle.create_parameter([2, 2], "float32", default_initializer=init.Constant(0.25))
    shapes = {}
    for name in ("Normal", "Uniform", "XavierUniform", "XavierNormal", "KaimingNormal",
                 "KaimingUniform", "TruncatedNormal", "Assign"):
        cls = getattr(init, name, None)
        if cls is None:
            shapes[name] = "missing"
            continue
        arg = (np.ones((3, 4), "float32"),) if name == "Assign" else ()
        p = paddle.create_parameter([3, 4], "float32", default_initializer=cls(*arg))
        shapes[name] = {"shape": list(p.shape), "finite": bool(np.isfinite(p.numpy()).all())}
    return {"constant": c, "others": shapes}


@program(item="nn")
def param_attr_learning_rate_and_trainable(paddle):
    lin = paddle.nn.Linear(2, 1, weight_attr=paddle.ParamAttr(learning_rate=0.5,
                                                              trainable=False))
    return {"w_sg": lin.weight.stop_gradient, "trainable": lin.weight.trainable,
            "lr": lin.weight.optimize_attr["learning_rate"]}


@program(item="nn")
def layer_parameters_flags_and_to_dtype(paddle):
    lin = _linear(paddle)
    lin.to(dtype="float64")
    y = lin(paddle.to_tensor(X.astype("float64")))
    return {"w_dtype": str(lin.weight.dtype).split(".")[-1], "y": y}


@program(item="nn")
def embedding_dense_gradient(paddle):
    emb = paddle.nn.Embedding(5, 2)
    emb.weight.set_value(np.arange(10, dtype="float32").reshape(5, 2))
    ids = paddle.to_tensor([[1, 3, 1]])
    y = emb(ids)
    y.sum().backward()
    return {"y": y, "grad": emb.weight.grad}


@program(item="nn")
def bad_linear_input_raises(paddle):
    lin = paddle.nn.Linear(3, 2)
    return {"out": attempt(lambda: lin(paddle.ones([2, 4])) and None)}


@program(item="nn")
def shrinks_glu_cosine_and_utils(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[-0.5, 0.5, 0.2, 1.0], [2.0, -3.0, 0.7, -0.1]], stop_gradient=False)
    out = {}
    for name, fn in (("hardshrink", F.hardshrink), ("softshrink", F.softshrink),
                     ("thresholded_relu", F.thresholded_relu), ("glu", F.glu),
                     ("cos", lambda t: F.cosine_similarity(t, t * t + 1.0, axis=1)),
                     ("square_error_cost", lambda t: F.square_error_cost(t, t * 0.5)),
                     ("label_smooth", lambda t: F.label_smooth(F.softmax(t), epsilon=0.2))):
        y = fn(x)
        (g,) = paddle.grad(y.sum(), x)
        out[name] = {"y": y.numpy(), "g": g.numpy()}
    ps = [paddle.create_parameter([2, 2], "float32"), paddle.create_parameter([3], "float32")]
    paddle.nn.utils.vector_to_parameters(paddle.arange(7, dtype="float32"), ps)
    out["vec"] = paddle.nn.utils.parameters_to_vector(ps).numpy()
    out["unflatten"] = list(paddle.nn.Unflatten(1, [2, 2])(x).shape)
    out["amp"] = [paddle.amp.is_autocast_enabled(), str(paddle.amp.get_autocast_dtype())]
    out["aliases"] = [paddle.nn.Module is paddle.nn.Layer,
                      paddle.nn.ModuleDict is paddle.nn.LayerDict]
    return out


_POOL_X = np.asarray([[[0.3, -1.2, 2.0, 0.7, -0.4, 1.1, 0.9]],
                      [[1.0, 1.0, -2.0, 0.5, 0.5, 3.0, -1.0]]], dtype="float32")


def _pool_grads(paddle, fn, x=_POOL_X):
    xt = paddle.to_tensor(x, stop_gradient=False)
    out = fn(xt)
    y, mask = out if isinstance(out, tuple) else (out, None)
    (g,) = paddle.grad((y * paddle.to_tensor(np.linspace(-1, 1, y.size, dtype="float32")
                                             .reshape(y.shape))).sum(), xt)
    return {"y": y, "mask": mask, "g": g}


@program(item="nn")
def pool1d_windows_padding_and_ceil_mode(paddle):
    F = paddle.nn.functional
    return {
        "max": _pool_grads(paddle, lambda t: F.max_pool1d(t, 3, 2, 1, return_mask=True)),
        "max_ceil": _pool_grads(paddle, lambda t: F.max_pool1d(t, 2, 2, ceil_mode=True)),
        "max_same": _pool_grads(paddle, lambda t: F.max_pool1d(t, 4, 2, "SAME")),
        "avg": _pool_grads(paddle, lambda t: F.avg_pool1d(t, 3, 2, [1, 2])),
        "avg_inclusive": _pool_grads(paddle, lambda t: F.avg_pool1d(
            t, 4, 3, 1, exclusive=False, ceil_mode=True)),
        "layers": [paddle.nn.MaxPool1D(2)(paddle.to_tensor(_POOL_X)),
                   paddle.nn.AvgPool1D(3, 1, 1)(paddle.to_tensor(_POOL_X))],
    }


@program(item="nn")
def adaptive_pools_overlapping_bins(paddle):
    F = paddle.nn.functional
    x2 = np.arange(35, dtype="float32").reshape(1, 1, 5, 7) % 11
    return {
        "avg1d": _pool_grads(paddle, lambda t: F.adaptive_avg_pool1d(t, 5)),
        "max1d": _pool_grads(paddle, lambda t: F.adaptive_max_pool1d(t, 4, return_mask=True)),
        "max1d_more_bins": _pool_grads(paddle, lambda t: F.adaptive_max_pool1d(t, 10)),
        "avg2d": _pool_grads(paddle, lambda t: F.adaptive_avg_pool2d(t, [3, None]), x2),
        "max2d": _pool_grads(paddle, lambda t: F.adaptive_max_pool2d(
            t, [2, 3], return_mask=True), x2),
        "avg2d_nhwc": _pool_grads(paddle, lambda t: F.adaptive_avg_pool2d(
            t, 2, data_format="NHWC"), x2),
    }


@program(item="nn")
def adaptive_pool_layers_3d_and_aliases(paddle):
    x = (np.arange(60, dtype="float32").reshape(1, 1, 3, 4, 5) * 7) % 13
    nn = paddle.nn
    pool = nn.AdaptiveMaxPool3D([2, 3, 2], return_mask=True)
    out = {"max3d": _pool_grads(paddle, pool, x),
           "avg3d": _pool_grads(paddle, nn.AdaptiveAvgPool3D([2, None, 3]), x),
           "repr": [repr(pool), repr(nn.AdaptiveAvgPool2D(3)), repr(nn.MaxPool1D(2, 1))],
           "alias": nn.AdaptiveMaxPool2d is nn.AdaptiveMaxPool2D}
    pool.return_indices = False
    out["no_mask"] = pool(paddle.to_tensor(x))
    return out


@program(item="nn")
def pool_bad_arguments_raise(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(_POOL_X)
    return {
        "ndim": attempt(lambda: F.max_pool1d(paddle.ones([1, 1, 2, 2]), 2) and None),
        "valid_ceil": attempt(lambda: F.avg_pool1d(x, 2, padding="VALID", ceil_mode=True)
                              and None),
        "mask_asym": attempt(lambda: F.max_pool1d(x, 3, padding=[0, 1], return_mask=True)
                             and None),
        "bad_pad": attempt(lambda: F.avg_pool1d(x, 3, padding="same_ish") and None),
        "float_size": attempt(lambda: F.adaptive_max_pool2d(paddle.ones([1, 1, 4, 4]), [2.0, 2])
                              and None),
        "format": attempt(lambda: F.adaptive_avg_pool2d(paddle.ones([1, 1, 4, 4]), 2,
                                                        data_format="NCL") and None),
    }


_SEQ_X = (np.sin(np.arange(24, dtype="float32")).reshape(2, 4, 3) * 1.5).astype("float32")


def _fixed_parameters(layer):
    """Every parameter set to a fixed pattern (both frameworks get the same weights)."""
    for k, p in enumerate(layer.parameters()):
        n = int(np.prod(p.shape))
        p.set_value((np.cos(np.arange(n) * 0.7 + k) * 0.4).astype("float32").reshape(p.shape))
    return layer


def _recurrent_run(paddle, layer, states=None, lengths=None, x=_SEQ_X):
    xt = paddle.to_tensor(x, stop_gradient=False)
    seq = None if lengths is None else paddle.to_tensor(np.asarray(lengths, dtype="int64"))
    out, final = layer(xt, states, seq)
    flat = [out] + (list(final) if isinstance(final, (list, tuple)) else [final])
    flat = [t for s in flat for t in (s if isinstance(s, (list, tuple)) else [s])]
    loss = sum((t * paddle.to_tensor(np.linspace(-1, 1, t.size, dtype="float32")
                                     .reshape(t.shape))).sum() for t in flat)
    loss.backward()
    return {"outputs": flat, "x_grad": xt.grad,
            "param_grads": [p.grad for p in layer.parameters()],
            "names": [n for n, _ in layer.named_parameters()],
            "keys": list(layer.state_dict().keys()), "repr": repr(layer)}


@program(item="nn")
def lstm_two_layers_bidirectional_with_lengths(paddle):
    net = _fixed_parameters(paddle.nn.LSTM(3, 4, 2, "bidirect"))
    return _recurrent_run(paddle, net, lengths=[4, 2])


@program(item="nn")
def gru_and_simple_rnn_with_initial_states(paddle):
    h0 = np.cos(np.arange(16, dtype="float32")).reshape(2, 2, 4)
    gru = _fixed_parameters(paddle.nn.GRU(3, 4, 2, time_major=True))
    relu = _fixed_parameters(paddle.nn.SimpleRNN(3, 4, 2, activation="relu"))
    return {"gru": _recurrent_run(paddle, gru, paddle.to_tensor(h0),
                                  x=_SEQ_X.transpose(1, 0, 2).copy()),
            "relu": _recurrent_run(paddle, relu, paddle.to_tensor(h0), lengths=[3, 1])}


@program(item="nn")
def rnn_cells_and_wrappers(paddle):
    nn = paddle.nn
    bi = _fixed_parameters(nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(3, 4)))
    rev = _fixed_parameters(nn.RNN(nn.LSTMCell(3, 4, proj_size=2), is_reverse=True))
    cell = _fixed_parameters(nn.SimpleRNNCell(3, 4))
    step, h = cell(paddle.to_tensor(_SEQ_X[:, 0]))
    return {"birnn": _recurrent_run(paddle, bi, lengths=[4, 1]),
            "reverse_lstm": _recurrent_run(paddle, rev, (paddle.zeros([2, 2]),
                                                         paddle.zeros([2, 4]))),
            "cell": [step, h], "state_shapes": [nn.LSTMCell(3, 4, proj_size=2).state_shape,
                                                nn.GRUCell(3, 4).state_shape]}


@program(item="nn")
def recurrent_bad_arguments_raise(paddle):
    nn = paddle.nn
    x = paddle.ones([2, 5, 3])
    return {
        "rank": attempt(lambda: nn.LSTM(3, 4)(paddle.ones([5, 3])) and None),
        "direction": attempt(lambda: nn.GRU(3, 4, direction="both") and None),
        "activation": attempt(lambda: nn.SimpleRNNCell(3, 4, "gelu") and None),
        "proj": attempt(lambda: nn.LSTMCell(3, 4, proj_size=5) and None),
        "states": attempt(lambda: nn.GRU(3, 4)(x, paddle.ones([2, 2, 4])) and None),
        "birnn": attempt(lambda: nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(2, 4)) and None),
        "base": attempt(lambda: nn.RNNCellBase().state_shape and None),
    }
