"""Fresh differential programs (batch 1217): Paddle 3.3.1's API documentation at random.
75 public names drawn with random.Random(1217) from ``paddle``, ``paddle.Tensor``,
``paddle.nn.functional``, ``paddle.linalg``, ``paddle.nn`` (layers) and ``paddle.autograd``
(real-valued CPU dygraph use only); each program starts from the name's docstring example and
extends it with another dtype or shape and the gradient; written without looking at opsdk
(issue 26)."""
import numpy as np

from ..harness import attempt
from . import program


PROD_ZERO = ("docs/paddle.md, Values at special points: prod's gradient at a zero entry is the "
             "product of the other entries (as PyTorch's); Paddle computes prod(x) / x and gives "
             "nan there")
PYLAYER_FROZEN = ("docs/paddle.md, PyLayer: a gradient backward returns for an input with "
                  "stop_gradient=True is dropped (as PyTorch); Paddle raises ValueError")
NO_EIG = ("docs/paddle.md, linalg and unsupported_names.py ('linalg'): eig and eigvals have "
          "complex results and are not supported (opsdk's tensors are real)")
EVERY_ORDER = ("docs/paddle.md, Engine: every op differentiates to every order; Paddle 3.3.1 has "
               "no kernel past some order for many ops (selu named there) and raises RuntimeError")
LU_SOLVE_T = ("docs/paddle.md, linalg: Paddle 3.3.1's lu_solve gradient for trans='T' is not the "
              "derivative; opsdk's equals PyTorch's and central differences")


def _t(paddle, values, grad=False, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _a(shape, start=0.0, step=0.25):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape)


def _perm(shape, seed=0):
    """Distinct values (no ties) in a fixed shuffled order."""
    n = int(np.prod(shape))
    return (np.random.RandomState(seed).permutation(n).astype("float64") * 0.5 - n / 4) \
        .reshape(shape)


# ---------------------------------------------------------------- 0-9


@program(item="fresh")
def f17_cumprod_int_float_grad(paddle):
    data = paddle.reshape(paddle.arange(12), (3, 4))
    y0 = paddle.cumprod(data, dim=0)
    y1 = data.cumprod(dim=-1)
    y2 = paddle.cumprod(data, dim=1, dtype="float64")
    x = _t(paddle, [[2.0, 0.0, 3.0], [1.5, -1.0, 0.5]], grad=True)
    z = x.cumprod(dim=1)
    z.sum().backward()
    s = _t(paddle, 3.0, grad=True)
    zs = paddle.cumprod(s, dim=0)
    zs.backward()
    e = paddle.cumprod(paddle.zeros([0, 3]), dim=0)
    return {"y0": y0, "y1": y1, "y2": y2, "z": z, "gx": x.grad, "zs": zs, "gs": s.grad,
            "empty": e.shape}


@program(item="fresh")
def f17_prelu_shared_and_channel_weight(paddle):
    F = paddle.nn.functional
    data = paddle.to_tensor([[[[-2.0, 3.0, -4.0, 5.0], [3.0, -4.0, 5.0, -6.0],
                               [-7.0, -8.0, 8.0, 9.0]],
                              [[1.0, -2.0, -3.0, 4.0], [-5.0, 6.0, 7.0, -8.0],
                               [6.0, 7.0, 8.0, 9.0]]]], dtype="float32", stop_gradient=False)
    w = paddle.to_tensor([0.25], dtype="float32", stop_gradient=False)
    out = F.prelu(data, w)
    out.sum().backward()
    x = _t(paddle, _a([2, 3, 2], -1.5), grad=True)
    wc = _t(paddle, [0.1, 0.2], grad=True)
    nhwc = F.prelu(x, wc, data_format="NHWC")
    (nhwc * nhwc).sum().backward()
    bad = attempt(F.prelu, x, _t(paddle, [0.1, 0.2, 0.3, 0.4]))
    return {"out": out, "gdata": data.grad, "gw": w.grad, "nhwc": nhwc, "gx": x.grad,
            "gwc": wc.grad, "bad": bad}


@program(item="fresh", differs=(["grad_zeros"], PROD_ZERO))
def f17_tensor_prod_axes_and_zero_grad(paddle):
    x = paddle.to_tensor([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]])
    y = paddle.to_tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
    obs = {"all": x.prod(), "last": x.prod(-1), "keep": x.prod(0, keepdim=True),
           "int": x.prod(0, dtype="int64"), "list": y.prod([0, 1]), "tuple": y.prod((1, 2))}
    g = _t(paddle, [[2.0, 0.0, 3.0], [0.0, 0.0, 4.0]], grad=True)
    g.prod(axis=1).sum().backward()
    obs["grad_zeros"] = g.grad
    ints = paddle.to_tensor([[1, 2], [3, 4]], dtype="int64").prod()
    obs["int_prod"] = ints
    obs["empty"] = paddle.zeros([0, 2]).prod(axis=0)
    return obs


@program(item="fresh")
def f17_tensor_softmax_dim_dtype_grad(paddle):
    data = [[[2.0, 3.0, 4.0, 5.0], [3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 8.0, 9.0]],
            [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [6.0, 7.0, 8.0, 9.0]]]
    x = paddle.to_tensor(data, stop_gradient=False)
    a = x.softmax(-1)
    b = x.softmax(dim=1)
    (a[:, :, 0].sum() + 2 * b[:, 0, :].sum()).backward()
    c = paddle.to_tensor(data).softmax(dim=-1, dtype="float64")
    s = _t(paddle, 1.5, grad=True)
    ss = s.softmax(0)
    ss.backward()
    return {"a": a, "b": b, "gx": x.grad, "c": c, "ss": ss, "gs": s.grad}


@program(item="fresh")
def f17_maxunpool3d_roundtrip_grad(paddle):
    F = paddle.nn.functional
    data = _t(paddle, _perm([1, 1, 4, 4, 6], 3), grad=True, dtype="float32")
    pool_out, indices = F.max_pool3d(data, kernel_size=2, stride=2, padding=0,
                                     return_mask=True)
    unpool = paddle.nn.MaxUnPool3D(kernel_size=2, padding=0)
    out = unpool(pool_out, indices)
    (out * out).sum().backward()
    sized = paddle.nn.MaxUnPool3D(kernel_size=2, output_size=[5, 5, 7])(pool_out, indices)
    return {"pool": pool_out, "indices": indices, "out": out, "grad": data.grad,
            "sized_shape": sized.shape, "sized_sum": sized.sum()}


@program(item="fresh")
def f17_sequence_mask_maxlen_dtype(paddle):
    F = paddle.nn.functional
    lengths = paddle.to_tensor([10, 9, 8])
    m0 = F.sequence_mask(lengths)
    m1 = F.sequence_mask(lengths, maxlen=12, dtype="float32")
    m2 = F.sequence_mask(paddle.to_tensor([[1, 3], [0, 2]]), maxlen=4, dtype="bool")
    m3 = F.sequence_mask(paddle.to_tensor([2, 0, 1], dtype="int32"), maxlen=3, dtype="int32")
    return {"m0": m0, "m1": m1, "m2": m2, "m3": m3}


@program(item="fresh")
def f17_glu_axis_grad_odd(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[-0.22014759, -1.76358426, 0.80566144, 0.04241343],
                          [-1.94900405, -1.89956081, 0.17134808, -1.11280477]],
                         stop_gradient=False)
    y = F.glu(x)
    y.sum().backward()
    x2 = _t(paddle, _a([4, 3], -1.0), grad=True)
    y2 = F.glu(x2, axis=0)
    (y2 * y2).sum().backward()
    odd = attempt(F.glu, paddle.ones([2, 3]))
    return {"y": y, "gx": x.grad, "y2": y2, "gx2": x2.grad, "odd": odd}


@program(item="fresh")
def f17_tensor_norm_orders_grad(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4]) - 12
    obs = {"fro": x.norm(p="fro", axis=[0, 1]), "p2": x.norm(p=2, axis=-1),
           "p2_mat": x.norm(p=2, axis=[0, 1]), "inf": x.norm(p=float("inf")),
           "ninf_axis": x.norm(p=-float("inf"), axis=0), "default": x.norm()}
    v = _t(paddle, [3.0, -4.0, 0.0], grad=True)
    n1 = v.norm(p=1)
    n2 = v.norm(p=2)
    (n1 + n2).backward()
    obs.update(n1=n1, n2=n2, gv=v.grad)
    s = _t(paddle, -2.5, grad=True)
    ns = s.norm()
    ns.backward()
    obs.update(ns=ns, gs=s.grad)
    return obs


@program(item="fresh")
def f17_linalg_cov_options_grad(paddle):
    x = _t(paddle, [[0.86, 0.52, 0.26, 0.90], [0.42, 0.40, 0.97, 0.74],
                    [0.51, 0.73, 0.97, 0.04]], grad=True)
    c = paddle.linalg.cov(x)
    c.sum().backward()
    gx = x.grad.numpy().copy()
    cols = paddle.linalg.cov(x, rowvar=False, ddof=False)
    fw = paddle.linalg.cov(x, fweights=paddle.to_tensor([1, 2, 1, 3]))
    aw = paddle.linalg.cov(x, aweights=_t(paddle, [0.5, 1.0, 2.0, 1.0]))
    one = paddle.linalg.cov(_t(paddle, [1.0, 2.0, 4.0]))
    return {"c": c, "gx": gx, "cols": cols, "fw": fw, "aw": aw, "one": one}


@program(item="fresh")
def f17_tensor_max_axes_and_ties(paddle):
    x = paddle.to_tensor([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]], dtype="float64",
                         stop_gradient=False)
    r1 = x.max()
    r1.backward()
    g1 = x.grad.numpy().copy()
    x.clear_grad()
    r2 = x.max(axis=0)
    r2.backward()
    g2 = x.grad.numpy().copy()
    x.clear_grad()
    r3 = x.max(axis=[0, 1], keepdim=True)
    t = _t(paddle, [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], grad=True)
    tm = t.max(axis=1)
    tm.sum().backward()
    ta = _t(paddle, [1.0, 5.0, 5.0, 5.0], grad=True)
    ta.max().backward()
    ints = paddle.to_tensor([[3, 7], [9, 1]]).max(axis=1)
    return {"r1": r1, "g1": g1, "r2": r2, "g2": g2, "r3": r3, "tm": tm, "tgrad": t.grad,
            "tie_all": ta.grad, "ints": ints}


# ---------------------------------------------------------------- 10-19


@program(item="fresh")
def f17_bce_with_logits_loss_weights_grad(paddle):
    logit = paddle.to_tensor([5.0, 1.0, 3.0], dtype="float32", stop_gradient=False)
    label = paddle.to_tensor([1.0, 0.0, 1.0], dtype="float32")
    out = paddle.nn.BCEWithLogitsLoss()(logit, label)
    out.backward()
    lg = _t(paddle, [[0.5, -1.0], [2.0, -3.0]], grad=True)
    lb = _t(paddle, [[1.0, 0.0], [0.0, 1.0]])
    loss = paddle.nn.BCEWithLogitsLoss(weight=_t(paddle, [1.0, 2.0]), reduction="none",
                                       pos_weight=_t(paddle, [3.0, 0.5]))
    none = loss(lg, lb)
    none.sum().backward()
    total = paddle.nn.BCEWithLogitsLoss(reduction="sum")(lg.detach(), lb)
    return {"out": out, "glogit": logit.grad, "none": none, "glg": lg.grad, "sum": total}


@program(item="fresh")
def f17_layer_norm_affine_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _perm([2, 2, 2, 3], 5), grad=True, dtype="float32")
    y = F.layer_norm(x, x.shape[1:])
    (y * paddle.arange(24, dtype="float32").reshape([2, 2, 2, 3])).sum().backward()
    x2 = _t(paddle, _a([3, 4], -1.0, 0.3) ** 2, grad=True)
    w = _t(paddle, [1.0, 0.5, -1.0, 2.0], grad=True)
    b = _t(paddle, [0.0, 0.1, 0.2, 0.3], grad=True)
    y2 = F.layer_norm(x2, 4, weight=w, bias=b, epsilon=1e-3)
    (y2 ** 2).sum().backward()
    return {"y": y, "gx": x.grad, "y2": y2, "gx2": x2.grad, "gw": w.grad, "gb": b.grad}


@program(item="fresh")
def f17_hsigmoid_loss_default_tree_grads(paddle):
    F = paddle.nn.functional
    inp = paddle.to_tensor([[0.73, 0.04, -0.48], [0.81, -0.15, -0.19], [0.94, 0.49, 0.04],
                            [0.47, 0.96, -0.91]], stop_gradient=False)
    label = paddle.to_tensor([0, 1, 4, 5])
    weight = paddle.to_tensor([[-0.15, 0.44, -0.58], [-0.61, -0.23, -0.71],
                               [-0.55, -0.11, -0.57], [0.35, -0.07, 0.85],
                               [0.20, 0.30, -0.40]], stop_gradient=False)
    out = F.hsigmoid_loss(inp, label, 6, weight)
    out.sum().backward()
    bias = paddle.to_tensor([[0.1], [-0.2], [0.3], [0.0], [0.05]], stop_gradient=False)
    out_b = F.hsigmoid_loss(inp, label, 6, weight, bias=bias)
    out_b.mean().backward()
    return {"out": out, "ginp": inp.grad, "gw": weight.grad, "out_b": out_b,
            "gbias": bias.grad}


@program(item="fresh")
def f17_tensor_floor_dtypes_grad(paddle):
    x = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3])
    out = x.floor()
    g = _t(paddle, [-1.5, 2.7, 3.0], grad=True)
    f = g.floor()
    (f * g).sum().backward()
    ints = attempt(lambda: paddle.to_tensor([-3, 4]).floor())
    s = _t(paddle, -2.5).floor()
    return {"out": out, "f": f, "g": g.grad, "ints": ints, "s": s}


@program(item="fresh")
def f17_tensor_abs_inplace_grad(paddle):
    x = _t(paddle, [-1.5, 0.0, 2.0], grad=True)
    y = x * 2.0
    r = y.abs_()
    same = r is y
    (y * y).sum().backward()
    leaf = attempt(lambda: _t(paddle, [-1.0, 2.0], grad=True).abs_())
    i = paddle.to_tensor([-3, 4, -5])
    i.abs_()
    s = paddle.to_tensor(-2.0)
    s.abs_()
    return {"y": y, "same": same, "gx": x.grad, "leaf": leaf, "i": i, "s": s}


@program(item="fresh")
def f17_cholesky_solve_upper_lower_grad(paddle):
    u = paddle.to_tensor([[1, 1, 1], [0, 2, 1], [0, 0, -1]], dtype="float64")
    b = paddle.to_tensor([[0], [-9], [5]], dtype="float64")
    out = paddle.linalg.cholesky_solve(b, u, upper=True)
    lo = _t(paddle, [[2.0, 0.0], [1.0, 3.0]], grad=True)
    rhs = _t(paddle, [[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [2.0, 0.0]]], grad=True)
    x = paddle.linalg.cholesky_solve(rhs, lo)
    x.sum().backward()
    check = paddle.matmul(paddle.matmul(lo, lo.t()), x)
    return {"out": out, "x": x, "check": check, "glo": lo.grad, "grhs": rhs.grad}


@program(item="fresh")
def f17_i0e_grad_dtypes(paddle):
    x = paddle.to_tensor([0, 1, 2, 3, 4], dtype="float32")
    y = paddle.i0e(x)
    z = _t(paddle, [-2.0, -0.5, 0.0, 0.5, 10.0], grad=True)
    w = paddle.i0e(z)
    w.sum().backward()
    s = paddle.i0e(_t(paddle, 1.0))
    return {"y": y, "w": w, "gz": z.grad, "s": s}


@program(item="fresh")
def f17_tensor_eigvalsh_uplo_grad(paddle):
    x = paddle.to_tensor([[1.0, -2.0], [-2.0, 5.0]])
    v = x.eigvalsh()
    a = _t(paddle, [[4.0, 1.0, 9.0], [1.0, 3.0, 0.5], [7.0, 0.5, 2.0]], grad=True)
    lower = a.eigvalsh(UPLO="L")
    upper = a.eigvalsh(UPLO="U")
    (lower * _t(paddle, [1.0, 2.0, 3.0])).sum().backward()
    batch = _t(paddle, [[[2.0, 0.0], [0.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]]]).eigvalsh()
    return {"v": v, "lower": lower, "upper": upper, "ga": a.grad, "batch": batch}


@program(item="fresh")
def f17_tensor_logical_not_inplace_dtypes(paddle):
    b = paddle.to_tensor([True, False, True])
    b.logical_not_()
    i = paddle.to_tensor([0, 3, -1])
    ri = attempt(lambda: i.logical_not_())
    f = paddle.to_tensor([0.0, 1.5])
    rf = attempt(lambda: f.logical_not_())
    return {"b": b, "i": i, "ri": ri, "f": f, "rf": rf}


@program(item="fresh")
def f17_std_axes_unbiased_grad(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, 4.0, 5.0]], stop_gradient=False)
    a = paddle.std(x)
    b = paddle.std(x, axis=1)
    c = paddle.std(x, unbiased=False)
    d = paddle.std(x, axis=[0, 1], keepdim=True)
    (a + b.sum() + c).backward()
    one = paddle.std(_t(paddle, [3.0]))
    s = paddle.std(_t(paddle, 2.0), unbiased=False)
    return {"a": a, "b": b, "c": c, "d": d, "gx": x.grad, "one": one, "s": s}


# ---------------------------------------------------------------- 20-29


@program(item="fresh")
def f17_avgpool2d_modes_grad(paddle):
    x = _t(paddle, _a([1, 1, 5, 5]), grad=True, dtype="float32")
    a = paddle.nn.AvgPool2D(kernel_size=2, stride=2, padding=0)(x)
    b = paddle.nn.AvgPool2D(kernel_size=3, stride=2, padding=1, exclusive=False)(x)
    c = paddle.nn.AvgPool2D(kernel_size=2, stride=2, ceil_mode=True)(x)
    d = paddle.nn.AvgPool2D(kernel_size=2, stride=1, divisor_override=3)(x)
    (a.sum() + 2 * b.sum() + 3 * c.sum() + d.sum()).backward()
    return {"a": a, "b": b, "c": c, "d": d, "gx": x.grad}


@program(item="fresh")
def f17_tanh_inplace_grad(paddle):
    x = _t(paddle, [-1.0, 0.0, 0.5], grad=True)
    y = x + 0.0
    paddle.tanh_(y)
    (y * 3).sum().backward()
    leaf = attempt(paddle.tanh_, _t(paddle, [0.3], grad=True))
    plain = paddle.to_tensor([[0.2, -0.4]])
    out = paddle.tanh_(plain)
    return {"y": y, "gx": x.grad, "leaf": leaf, "plain": plain, "out_is": out is plain}


@program(item="fresh")
def f17_linalg_diagonal_offsets_grad(paddle):
    x = _t(paddle, _a([2, 3, 4]), grad=True)
    d0 = paddle.linalg.diagonal(x)
    d1 = paddle.linalg.diagonal(x, offset=1, axis1=1, axis2=2)
    d2 = paddle.linalg.diagonal(x, offset=-1, axis1=-1, axis2=-2)
    (d0.sum() + 2 * d1.sum() + 3 * d2.sum()).backward()
    return {"d0": d0, "d1": d1, "d2": d2, "gx": x.grad}


@program(item="fresh")
def f17_tensor_bitwise_invert_dtypes(paddle):
    a = paddle.to_tensor([-5, 0, 7], dtype="int64").bitwise_invert()
    b = paddle.to_tensor([True, False]).bitwise_invert()
    c = paddle.to_tensor([1, 255, 0], dtype="uint8").bitwise_invert()
    d = paddle.to_tensor(3, dtype="int32").bitwise_invert()
    f = attempt(lambda: paddle.to_tensor([1.0]).bitwise_invert())
    return {"a": a, "b": b, "c": c, "d": d, "f": f}


@program(item="fresh")
def f17_conv2d_stride_pad_groups_grad(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 4, 5, 5], -2.0, 0.1), grad=True)
    w = _t(paddle, _a([6, 2, 3, 3], -1.0, 0.02), grad=True)
    bias = _t(paddle, [0.1, -0.1, 0.2, 0.0, 0.3, -0.3], grad=True)
    y = F.conv2d(x, w, bias, stride=2, padding=1, groups=2)
    (y * y).sum().backward()
    x2 = _t(paddle, _a([2, 5, 5, 1]), grad=False)
    w2 = _t(paddle, _a([2, 1, 2, 2], 0.5, -0.3))
    y2 = F.conv2d(x2, w2, padding="SAME", dilation=2, data_format="NHWC")
    bad = attempt(F.conv2d, x, w)
    return {"y": y, "gx": x.grad, "gw": w.grad, "gb": bias.grad, "y2": y2, "bad": bad}


@program(item="fresh")
def f17_manual_seed_reproducible_draws(paddle):
    paddle.manual_seed(102)
    a = paddle.rand([3, 4])
    b = paddle.randn([2])
    paddle.manual_seed(102)
    a2 = paddle.rand([3, 4])
    b2 = paddle.randn([2])
    c = paddle.rand([3, 4])
    return {"same_a": bool(paddle.equal_all(a, a2)), "same_b": bool(paddle.equal_all(b, b2)),
            "next_differs": not bool(paddle.equal_all(a, c)), "dtype": str(a.dtype),
            "in_range": bool(((a >= 0) & (a < 1)).all())}


@program(item="fresh")
def f17_tensor_backward_grad_tensor_retain(paddle):
    x = paddle.to_tensor(5.0, stop_gradient=False)
    for _ in range(3):
        y = paddle.pow(x, 4.0)
        y.backward()
    first = x.grad.numpy().copy()
    x.clear_grad()
    z = paddle.pow(x, 4.0)
    z.backward(paddle.to_tensor(2.0))
    g2 = x.grad.numpy().copy()
    v = _t(paddle, [1.0, 2.0], grad=True)
    w = v * v
    w.backward(_t(paddle, [1.0, -1.0]), retain_graph=True)
    w.backward(_t(paddle, [0.5, 0.5]))
    again = attempt(w.backward, _t(paddle, [1.0, 1.0]))
    return {"first": first, "g2": g2, "gv": v.grad, "again": again}


@program(item="fresh")
def f17_abs_inplace_functional(paddle):
    x = paddle.to_tensor([-1.0, -0.0, 2.5])
    out = paddle.abs_(x)
    v = _t(paddle, [[-2.0, 1.0], [0.5, -0.5]], grad=True)
    h = v * v * v
    paddle.abs_(h)
    h.sum().backward()
    e = paddle.abs_(paddle.zeros([0]))
    return {"x": x, "is_x": out is x, "h": h, "gv": v.grad, "e": e.shape}


@program(item="fresh")
def f17_cummin_axis_dtype_grad(paddle):
    data = paddle.to_tensor([-1, 5, 0, -2, -3, 2])
    v, i = paddle.cummin(data)
    x = paddle.to_tensor([[-1.0, 5.0, 0.0], [-2.0, -3.0, 2.0]], stop_gradient=False)
    v0, i0 = paddle.cummin(x, axis=0)
    v1, i1 = paddle.cummin(x, axis=-1, dtype="int32")
    (v0.sum() + 2 * v1.sum()).backward()
    t = _t(paddle, [3.0, 1.0, 1.0, 2.0, 1.0], grad=True)
    vt, it = paddle.cummin(t)
    vt.sum().backward()
    return {"v": v, "i": i, "v0": v0, "i0": i0, "v1": v1, "i1": i1, "gx": x.grad,
            "vt": vt, "it": it, "gt": t.grad}


@program(item="fresh")
def f17_gaussian_nll_loss_full_reductions_grad(paddle):
    F = paddle.nn.functional
    inp = _t(paddle, [[0.5, -1.0], [2.0, 0.0], [1.0, 1.5]], grad=True)
    label = _t(paddle, [[0.0, -0.5], [1.0, 0.5], [1.0, 3.0]])
    var = _t(paddle, [[0.5, 1.0], [2.0, 0.1], [1.0, 0.7]], grad=True)
    mean = F.gaussian_nll_loss(inp, label, var)
    mean.backward()
    full = F.gaussian_nll_loss(inp, label, var, full=True, reduction="sum")
    none = F.gaussian_nll_loss(inp, label, _t(paddle, [[1.0], [2.0], [0.5]]),
                               reduction="none")
    neg = attempt(F.gaussian_nll_loss, inp, label, _t(paddle, [[1.0, -1.0]] * 3))
    return {"mean": mean, "ginp": inp.grad, "gvar": var.grad, "full": full, "none": none,
            "neg": neg}


# ---------------------------------------------------------------- 30-39


@program(item="fresh")
def f17_circularpad3d_int_list_grad(paddle):
    x = _t(paddle, _a([1, 1, 2, 2, 3]), grad=True)
    a = paddle.nn.CircularPad3d(1)(x)
    b = paddle.nn.CircularPad3d([1, 0, 0, 1, 1, 0])(x)
    (a.sum() + (b * b).sum()).backward()
    return {"a_shape": a.shape, "a": a, "b": b, "gx": x.grad}


@program(item="fresh")
def f17_stack_axes_scalars_grad(paddle):
    x1 = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    x2 = paddle.to_tensor([[3.0, 4.0]])
    x3 = paddle.to_tensor([[5.0, 6.0]], stop_gradient=False)
    s0 = paddle.stack([x1, x2, x3], axis=0)
    s1 = paddle.stack([x1, x2, x3], axis=-1)
    (s0 * 2).sum().backward()
    z = paddle.stack([_t(paddle, 1.0), _t(paddle, 2.0)])
    ints = paddle.stack([paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])], axis=1)
    e = paddle.stack([paddle.zeros([0, 2]), paddle.zeros([0, 2])], axis=1)
    bad = attempt(paddle.stack, [paddle.ones([2]), paddle.ones([3])])
    return {"s0": s0, "s1": s1, "g1": x1.grad, "g2": x2.grad, "g3": x3.grad, "z": z,
            "ints": ints, "e": e.shape, "bad": bad}


@program(item="fresh")
def f17_trunc_inplace_grad(paddle):
    x = paddle.to_tensor([[0.1, 1.5], [-0.2, -2.4]])
    paddle.trunc_(x)
    v = _t(paddle, [1.7, -1.7, 0.5], grad=True)
    h = v * 2
    paddle.trunc_(h)
    (h * v).sum().backward()
    s = paddle.to_tensor(-3.9)
    paddle.trunc_(s)
    return {"x": x, "h": h, "gv": v.grad, "s": s}


@program(item="fresh")
def f17_tensor_frexp_signs_dtypes(paddle):
    x = paddle.to_tensor([[1, 2, 3, 4]], dtype="float32")
    m, e = x.frexp()
    y = _t(paddle, [-8.0, 0.0, 0.375, 1e-3, 1000.0])
    m2, e2 = y.frexp()
    back = m2 * paddle.pow(paddle.full_like(m2, 2.0), e2)
    return {"m": m, "e": e, "m2": m2, "e2": e2, "back": back}


@program(item="fresh", differs=(["frozen_backward"], PYLAYER_FROZEN))
def f17_pylayer_tanh_and_two_inputs(paddle):
    class TanhAndScale(paddle.autograd.PyLayer):
        """The documentation's tanh, plus a second output x * w * k from a second input."""

        @staticmethod
        def forward(ctx, x, w, k):
            y = paddle.tanh(x)
            ctx.k = k
            ctx.save_for_backward(x, y, w)
            return y, x * w * k

        @staticmethod
        def backward(ctx, dy, dz):
            x, y, w = ctx.saved_tensor()
            return dy * (1 - paddle.square(y)) + dz * w * ctx.k, dz * x * ctx.k

    data = _t(paddle, _a([2, 3], -0.6, 0.2), grad=True)
    ones = _t(paddle, np.ones([2, 3]), grad=True)
    z, _ = TanhAndScale.apply(data, ones, 1.0)
    z.mean().backward()
    frozen = TanhAndScale.apply(_t(paddle, [0.5], grad=True), _t(paddle, [2.0]), 1.0)
    frozen_backward = attempt((frozen[0] + frozen[1]).sum().backward)
    x = _t(paddle, [1.0, 2.0], grad=True)
    w = _t(paddle, [3.0, -1.0], grad=True)
    t, out = TanhAndScale.apply(x, w, 0.5)
    (t.sum() + out.sum() * 2).backward()
    return {"z": z, "gdata": data.grad, "t": t, "out": out, "gx": x.grad, "gw": w.grad,
            "out_sg": out.stop_gradient,
            "frozen_backward": frozen_backward}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f17_transformer_decoder_fixed_weights(paddle):
    nn = paddle.nn
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)
    decoder = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(8))
    for k, p in enumerate(decoder.parameters()):
        n = int(np.prod(p.shape))
        vals = np.sin(np.arange(n, dtype="float64") * 0.37 + k) * 0.3
        p.set_value(vals.reshape(p.shape).astype("float32"))
    names = [n for n, _ in decoder.named_parameters()]
    dec_input = _t(paddle, np.cos(_a([2, 4, 8], 0.0, 0.11)), grad=True, dtype="float32")
    enc_output = _t(paddle, np.sin(_a([2, 3, 8], 0.3, 0.07)), dtype="float32")
    self_mask = _t(paddle, np.triu(np.full([4, 4], -1e9), 1).reshape(1, 1, 4, 4),
                   dtype="float32")
    out = decoder(dec_input, enc_output, self_mask, None)
    (out * out).sum().backward()
    first = decoder.parameters()[0]
    return {"shape": out.shape, "out": out, "gin": dec_input.grad, "nparams": len(names),
            "gfirst": first.grad, "first_name": names[0]}


@program(item="fresh")
def f17_randint_like_dtypes_ranges(paddle):
    obs = {}
    for dt in ("float32", "float64", "int32", "int64"):
        x = paddle.zeros((20, 30)).astype(dt)
        o = paddle.randint_like(x, low=-5, high=5)
        obs[dt] = (str(o.dtype), o.shape, bool((o >= -5).all()), bool((o < 5).all()),
                   o.stop_gradient)
    x = paddle.zeros([50, 4])
    h = paddle.randint_like(x, 3)
    obs["high_none"] = (str(h.dtype), bool((h >= 0).all()), bool((h < 3).all()))
    d = paddle.randint_like(x, low=0, high=2, dtype="bool")
    obs["bool"] = attempt(lambda: str(d.dtype))
    obs["bad"] = attempt(paddle.randint_like, x, 5, 2)
    return obs


@program(item="fresh")
def f17_tensor_tanh_inplace_chain(paddle):
    x = _t(paddle, [[0.1, -0.7], [1.2, 0.0]], grad=True)
    y = x * 2.0
    y.tanh_()
    y.sum().backward()
    z = x * 2.0
    z.tanh_()
    z.tanh_()
    twice = attempt(z.sum().backward)
    e = x.exp()
    e.tanh_()
    after_exp = attempt(e.sum().backward)
    s = paddle.to_tensor(0.5)
    s.tanh_()
    return {"y": y, "gx": x.grad, "z": z, "twice": twice, "after_exp": after_exp, "s": s}


@program(item="fresh")
def f17_masked_fill_inplace_broadcast_grad(paddle):
    x = paddle.ones([3, 3])
    mask = paddle.to_tensor([[True, False, True]])
    paddle.masked_fill_(x, mask, 2.0)
    v = _t(paddle, _a([2, 3], 1.0), grad=True)
    h = v * 3
    paddle.masked_fill_(h, paddle.to_tensor([False, True, False]), -1.0)
    h.sum().backward()
    t = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    tv = paddle.masked_fill_(t, paddle.to_tensor([[True], [False]]),
                             paddle.to_tensor(9.0, dtype="float64"))
    mixed = attempt(paddle.masked_fill_, _t(paddle, [1.0]), paddle.to_tensor([True]),
                    paddle.to_tensor(9.0, dtype="float32"))
    ints = paddle.to_tensor([1, 2, 3])
    paddle.masked_fill_(ints, paddle.to_tensor([True, False, True]), 7)
    return {"x": x, "h": h, "gv": v.grad, "tv": tv, "mixed": mixed, "ints": ints}


@program(item="fresh")
def f17_sgn_real_grad(paddle):
    x = paddle.to_tensor([3.0, 0.0, -2.0, 1.7])
    y = paddle.sgn(x)
    v = _t(paddle, [[-1.5, 0.0], [2.0, -0.0]], grad=True)
    w = paddle.sgn(v)
    (w * v).sum().backward()
    i = attempt(paddle.sgn, paddle.to_tensor([-4, 0, 5]))
    return {"y": y, "w": w, "gv": v.grad, "i": i}


# ---------------------------------------------------------------- 40-49


@program(item="fresh")
def f17_tensor_t_ranks_grad(paddle):
    x = paddle.arange(end=6, dtype="float64").reshape([2, 3])
    x.stop_gradient = False
    y = x.t()
    (y * paddle.to_tensor([[1.0], [2.0], [3.0]], dtype="float64")).sum().backward()
    v = paddle.to_tensor([1.0, 2.0]).t()
    s = paddle.to_tensor(4.0).t()
    bad = attempt(lambda: paddle.ones([2, 2, 2]).t())
    return {"y": y, "gx": x.grad, "v": v, "s": s, "bad": bad}


@program(item="fresh")
def f17_digamma_inplace_grad(paddle):
    x = paddle.to_tensor([[-1.5, 6.0], [3.0, 0.5]])
    paddle.digamma_(x)
    v = _t(paddle, [1.0, 2.5, 4.0], grad=True)
    h = v + 0.5
    paddle.digamma_(h)
    h.sum().backward()
    return {"x": x, "h": h, "gv": v.grad}


@program(item="fresh")
def f17_tensor_view_shape_dtype_grad(paddle):
    x = _t(paddle, _a([2, 4, 6]), grad=True, dtype="float32")
    a = x.view([8, 6])
    b = x.view([8, -1])
    (a * 2).sum().backward()
    u = paddle.to_tensor(np.array([[1.0, -2.0]], dtype="float32")).view("int32")
    c = paddle.to_tensor(np.array([1.0, 2.0], dtype="float32")).view(paddle.uint8)
    bad = attempt(lambda: x.view([5, 5]))
    return {"a_shape": a.shape, "b_shape": b.shape, "gx": x.grad, "u": u, "c": c,
            "bad": bad}


@program(item="fresh")
def f17_copysign_inplace_zero_broadcast(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
    y = paddle.to_tensor([-2.0], dtype="float64")
    paddle.copysign_(x, y)
    z = paddle.to_tensor([[1.5, -2.0], [0.0, 4.0]], dtype="float64")
    paddle.copysign_(z, paddle.to_tensor([-0.0, 0.0], dtype="float64"))
    v = _t(paddle, [1.0, -2.0, 3.0], grad=True)
    h = v * 1.0
    paddle.copysign_(h, _t(paddle, [-1.0, -1.0, 1.0]))
    h.sum().backward()
    return {"x": x, "z": z, "zsign": np.signbit(z.numpy()), "h": h, "gv": v.grad}


@program(item="fresh")
def f17_tensor_sign_dtypes_grad(paddle):
    x = paddle.to_tensor([3.0, 0.0, -2.0, 1.7])
    y = x.sign()
    i = paddle.to_tensor([-5, 0, 9], dtype="int32").sign()
    v = _t(paddle, [-0.5, 0.0, 0.5], grad=True)
    w = v.sign()
    (w * v * v).sum().backward()
    b = attempt(lambda: paddle.to_tensor([True, False]).sign())
    return {"y": y, "i": i, "w": w, "gv": v.grad, "b": b}


@program(item="fresh")
def f17_tensor_matmul_broadcast_transpose_grad(paddle):
    x = _t(paddle, _a([10, 1, 5, 2], -1.0, 0.02), grad=True)
    y = _t(paddle, _a([1, 3, 2, 5], 0.5, -0.03), grad=True)
    z = x.matmul(y)
    z.sum().backward()
    a = _t(paddle, [1.0, 2.0, 3.0], grad=True)
    b = _t(paddle, [4.0, 5.0, 6.0], grad=True)
    dot = a.matmul(b)
    dot.backward()
    m = _t(paddle, _a([3, 2]))
    tt = m.matmul(m, transpose_x=True)
    ty = m.matmul(m, transpose_y=True)
    mv = m.matmul(_t(paddle, [1.0, -1.0]))
    bad = attempt(lambda: m.matmul(m))
    return {"z_shape": z.shape, "z_sum": z.sum(), "gx": x.grad, "gy": y.grad, "dot": dot,
            "ga": a.grad, "tt": tt, "ty": ty, "mv": mv, "bad": bad}


@program(item="fresh", differs=([""], NO_EIG))
def f17_tensor_eigvals_real_spectra(paddle):
    x = paddle.to_tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    ev = x.eigvals().numpy()
    rot = paddle.to_tensor([[0.0, -1.0], [1.0, 0.0]], dtype="float64").eigvals().numpy()
    batch = _t(paddle, [[[1.0, 2.0], [0.0, 3.0]], [[5.0, 0.0], [1.0, -1.0]]]).eigvals().numpy()
    return {"ev_real": np.sort(ev.real), "ev_imag_max": float(np.abs(ev.imag).max()),
            "dtype": str(x.eigvals().dtype), "rot": np.sort(rot.imag),
            "batch": np.sort(batch.real, axis=-1),
            "bad": attempt(lambda: paddle.ones([2, 3]).eigvals())}


@program(item="fresh")
def f17_polygamma_orders_grad(paddle):
    x = paddle.to_tensor([2.0, 3.0, 25.5], dtype="float32")
    a = paddle.polygamma(x, 1)
    b = paddle.polygamma(x, 2)
    v = _t(paddle, [0.5, 1.0, 4.0], grad=True)
    c = paddle.polygamma(v, 0)
    d = paddle.polygamma(v, 1)
    (c + d).sum().backward()
    neg = attempt(paddle.polygamma, x, -1)
    return {"a": a, "b": b, "c": c, "d": d, "gv": v.grad, "neg": neg}


@program(item="fresh", differs=(["second"], EVERY_ORDER))
def f17_asinh_first_second_order(paddle):
    x = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3])
    out = paddle.asinh(x)
    v = _t(paddle, [-2.0, 0.0, 0.5, 3.0], grad=True)
    y = paddle.asinh(v)
    (g,) = paddle.grad(y.sum(), v, retain_graph=True)
    second = attempt(lambda: paddle.grad(
        paddle.grad(y.sum(), v, create_graph=True)[0].sum(), v)[0])
    y.sum().backward()
    s = paddle.asinh(_t(paddle, 1.0))
    return {"out": out, "y": y, "g": g, "second": second, "gv": v.grad, "s": s}


# ---------------------------------------------------------------- 50-59


@program(item="fresh")
def f17_split_with_sizes_dims_grad(paddle):
    x = paddle.to_tensor([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    a, b = x.split_with_sizes([1, 2], dim=0)
    f = _t(paddle, _a([3, 4]), grad=True)
    p, q, r = f.split_with_sizes([1, 0, 3], dim=1)
    (p.sum() * 2 + (r * r).sum()).backward()
    bad = attempt(lambda: f.split_with_sizes([2, 3], dim=1))
    return {"a": a, "b": b, "p": p, "q": q.shape, "r": r, "gf": f.grad, "bad": bad}


@program(item="fresh")
def f17_tensor_slogdet_batch_grad(paddle):
    x = _t(paddle, [[[2.0, 1.0, 0.0], [1.0, -3.0, 1.0], [0.5, 0.0, 1.0]],
                    [[1.0, 2.0, 3.0], [0.0, 1.0, 4.0], [5.0, 6.0, 0.0]],
                    [[-1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]], grad=True)
    out = x.slogdet()
    out[1].sum().backward()
    sing = _t(paddle, [[1.0, 2.0], [2.0, 4.0]]).slogdet()
    return {"out": out, "gx": x.grad, "sing_sign": sing[0], "bad": attempt(
        lambda: paddle.ones([2, 3]).slogdet())}


@program(item="fresh")
def f17_msort_dtypes_grad(paddle):
    x = paddle.to_tensor([[[5, 8, 9, 5], [0, 0, 1, 7], [6, 9, 2, 4]],
                          [[5, 2, 4, 2], [4, 7, 7, 9], [1, 7, 0, 6]]], dtype="float32")
    a = paddle.msort(x)
    i = paddle.msort(paddle.to_tensor([[3, 1], [1, 2], [2, 0]]))
    v = _t(paddle, [[0.3, -1.0], [-0.2, 4.0], [0.1, 2.0]], grad=True)
    s = paddle.msort(v)
    (s * _t(paddle, [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])).sum().backward()
    return {"a": a, "i": i, "s": s, "gv": v.grad}


@program(item="fresh")
def f17_tensor_baddbmm_inplace_beta_alpha(paddle):
    inp = paddle.ones([2, 2, 3])
    x = _t(paddle, _a([2, 2, 4]), dtype="float32")
    y = _t(paddle, _a([2, 4, 3], -1.0), dtype="float32")
    r = inp.baddbmm_(x, y, beta=0.5, alpha=2.0)
    d = _t(paddle, _a([1, 2, 2]))
    d.baddbmm_(_t(paddle, _a([1, 2, 3])), _t(paddle, _a([1, 3, 2], 1.0)))
    bad = attempt(lambda: paddle.ones([2, 2, 2]).baddbmm_(paddle.ones([2, 2, 3]),
                                                         paddle.ones([2, 2, 3])))
    return {"inp": inp, "is": r is inp, "d": d, "bad": bad}


@program(item="fresh")
def f17_tensor_float16_cast(paddle):
    x = _t(paddle, [1.0, 0.1, 65504.0, 70000.0, -2.5e-8])
    h = x.float16()
    same = paddle.to_tensor([1.0], dtype="float16")
    i = paddle.to_tensor([3, 4]).float16()
    v = _t(paddle, [0.5, 1.5], grad=True, dtype="float32")
    hv = v.float16()
    hv.astype("float32").sum().backward()
    return {"h": h, "dtype": str(h.dtype), "same": same.float16() is same, "i": i,
            "gv": v.grad, "hv_sg": hv.stop_gradient}


@program(item="fresh")
def f17_scatter_nd_add_duplicates_grad(paddle):
    x = paddle.rand(shape=[3, 5, 9, 10], dtype="float32")
    updates = paddle.rand(shape=[3, 9, 10], dtype="float32")
    index = paddle.to_tensor([[1, 1], [0, 1], [1, 3]], dtype="int64")
    out = paddle.scatter_nd_add(x, index, updates)
    err_11 = float((x[1, 1] + updates[0] - out[1, 1]).abs().max())
    err_13 = float((x[1, 3] + updates[2] - out[1, 3]).abs().max())
    untouched = bool(paddle.equal_all(out[2], x[2]))
    b = _t(paddle, np.zeros([4]), grad=True)
    u = _t(paddle, [1.0, 2.0, 3.0, 4.0], grad=True)
    idx = paddle.to_tensor([[1], [1], [3], [0]])
    s = paddle.scatter_nd_add(b, idx, u)
    (s * _t(paddle, [1.0, 2.0, 3.0, 4.0])).sum().backward()
    return {"shape": out.shape, "err_small": err_11 < 1e-5 and err_13 < 1e-5,
            "untouched": untouched, "s": s, "gb": b.grad,
            "gu": u.grad}


@program(item="fresh")
def f17_tensor_mean_axes_dtype_grad(paddle):
    x = paddle.to_tensor([[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
                          [[13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0],
                           [21.0, 22.0, 23.0, 24.0]]], stop_gradient=False)
    a = x.mean()
    b = x.mean(axis=-1)
    c = x.mean(axis=[0, 2])
    d = x.mean(axis=[1, 2], keepdim=True)
    (a + b.sum() + c.sum()).backward()
    e = paddle.zeros([0]).mean()
    i = attempt(lambda: paddle.to_tensor([1, 2]).mean())
    f = x.detach().mean(dtype="float64")
    return {"a": a, "b": b, "c": c, "d": d, "gx": x.grad, "e": e, "i": i, "f": f}


@program(item="fresh")
def f17_tensor_cumsum_inplace_grad(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x.cumsum_()
    y = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y.cumsum_(axis=0)
    v = _t(paddle, [1.0, -2.0, 3.0], grad=True)
    h = v * 1
    h.cumsum_(axis=-1)
    (h * _t(paddle, [1.0, 2.0, 3.0])).sum().backward()
    i = paddle.to_tensor([1, 2, 3])
    i.cumsum_()
    return {"x": x, "y": y, "h": h, "gv": v.grad, "i": i}


@program(item="fresh", differs=(["second"], EVERY_ORDER))
def f17_selu_params_second_order(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0]])
    out = F.selu(x)
    v = _t(paddle, [-2.0, -0.5, 0.5, 2.0], grad=True)
    y = F.selu(v, scale=1.5, alpha=2.0)
    (g,) = paddle.grad(y.sum(), v, retain_graph=True)
    second = attempt(lambda: paddle.grad(
        paddle.grad(y.sum(), v, create_graph=True)[0].sum(), v)[0])
    y.sum().backward()
    bad = attempt(F.selu, x, 0.5)
    return {"out": out, "y": y, "g": g, "second": second, "gv": v.grad, "bad": bad}


@program(item="fresh")
def f17_hardshrink_threshold_grad(paddle):
    x = paddle.to_tensor([-1.0, 0.3, 2.5])
    out = paddle.nn.Hardshrink()(x)
    v = _t(paddle, [-1.0, -0.5, 0.0, 0.5, 0.9, 1.0, 1.1], grad=True)
    m = paddle.nn.Hardshrink(threshold=1.0)
    y = m(v)
    y.sum().backward()
    s = paddle.nn.Hardshrink(0.0)(_t(paddle, -0.1))
    return {"out": out, "y": y, "gv": v.grad, "s": s}


# ---------------------------------------------------------------- 60-69


@program(item="fresh")
def f17_less_equal_inplace_dtype(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    r = paddle.less_equal_(x, paddle.to_tensor([1.0, 3.0, 2.0]))
    i = paddle.to_tensor([[1, 5], [3, 3]])
    paddle.less_equal_(i, paddle.to_tensor([2, 3]))
    bad = attempt(paddle.less_equal_, paddle.to_tensor([1.0]), paddle.to_tensor([1.0, 2.0]))
    return {"x": x, "r_is": r is x, "dtype": str(x.dtype), "i": i, "bad": bad}


@program(item="fresh")
def f17_tensor_index_add_inplace_alpha(paddle):
    x = paddle.ones([3, 3])
    value = paddle.ones([3, 2])
    index = paddle.to_tensor([0, 2], dtype="int32")
    r = x.index_add_(index, 1, value)
    y = _t(paddle, _a([4, 2]))
    y.index_add_(paddle.to_tensor([3, 0, 3]), 0, _t(paddle, _a([3, 2], 1.0)), alpha=2)
    v = _t(paddle, _a([2, 3]), grad=True)
    w = _t(paddle, [[1.0, 2.0, 3.0]], grad=True)
    h = v * 1
    h.index_add_(paddle.to_tensor([1]), 0, w)
    (h * h).sum().backward()
    return {"x": x, "is": r is x, "y": y, "h": h, "gv": v.grad, "gw": w.grad}


@program(item="fresh", differs=(["gM"], LU_SOLVE_T))
def f17_lu_solve_trans_grad(paddle):
    A = paddle.to_tensor([[3, 1], [1, 2]], dtype="float64")
    b = paddle.to_tensor([[9, 8], [9, 8]], dtype="float64")
    lu, p = paddle.linalg.lu(A)
    x = paddle.linalg.lu_solve(b, lu, p)
    M = _t(paddle, [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [4.0, 0.0, 1.0]], grad=True)
    rhs = _t(paddle, [[1.0], [2.0], [3.0]], grad=True)
    lu2, p2 = paddle.linalg.lu(M)
    xt = paddle.linalg.lu_solve(rhs, lu2, p2, trans="T")
    xn = paddle.linalg.lu_solve(rhs, lu2, p2)
    (xt.sum() + xn.sum()).backward()
    return {"x": x, "close": bool(paddle.allclose(A @ x, b)), "p2": p2, "xt": xt, "xn": xn,
            "gM": M.grad, "grhs": rhs.grad, "check": paddle.matmul(M.t(), xt)}


@program(item="fresh")
def f17_fill_diagonal_tensor_inplace_offsets(paddle):
    x = paddle.ones((4, 3)) * 2
    x.fill_diagonal_tensor_(paddle.ones((3,)))
    y = paddle.zeros([3, 4])
    y.fill_diagonal_tensor_(paddle.to_tensor([7.0, 8.0, 9.0]), offset=1)
    z = paddle.zeros([2, 3, 3])
    z.fill_diagonal_tensor_(paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
                            dim1=1, dim2=2)
    v = _t(paddle, _a([3, 3]), grad=True)
    d = _t(paddle, [1.0, 2.0, 3.0], grad=True)
    h = v * 2
    h.fill_diagonal_tensor_(d * d)
    (h * _t(paddle, _a([3, 3], 1.0))).sum().backward()
    bad = attempt(lambda: paddle.zeros([3, 3]).fill_diagonal_tensor_(paddle.ones([2])))
    return {"x": x, "y": y, "z": z, "h": h, "gv": v.grad, "gd": d.grad, "bad": bad}


@program(item="fresh")
def f17_jacobian_tuple_batch(paddle):
    x1 = _t(paddle, [0.5, -1.0, 2.0], grad=True)
    x2 = _t(paddle, [1.0, 3.0, -0.5], grad=True)
    y = x1 * x2 + x1
    J = paddle.autograd.jacobian(y, (x1, x2))
    j1 = J[0][:]
    j2 = J[1][:]
    xb = _t(paddle, _a([2, 3], 0.5), grad=True)
    yb = paddle.sin(xb) * xb
    Jb = paddle.autograd.jacobian(yb, xb, batch_axis=0)
    ys = (x1 * x1).sum()
    Js = paddle.autograd.jacobian(ys, x1)
    return {"j1": j1, "j2": j2, "shape": Jb.shape, "jb": Jb[:], "row": Jb[0], "js": Js[:]}


@program(item="fresh")
def f17_tensor_diff_n_prepend_grad(paddle):
    x = paddle.to_tensor([1, 4, 5, 2])
    a = x.diff()
    b = x.diff(n=2)
    c = x.diff(prepend=paddle.to_tensor([3, 4]), append=paddle.to_tensor([8]))
    m = _t(paddle, [[1.0, 3.0, 6.0], [2.0, 2.0, 9.0]], grad=True)
    d0 = m.diff(axis=0)
    d2 = m.diff(n=2, axis=1)
    (d0.sum() * 3 + (d2 * d2).sum()).backward()
    bo = paddle.to_tensor([True, True, False, True]).diff()
    return {"a": a, "b": b, "c": c, "d0": d0, "d2": d2, "gm": m.grad, "bo": bo}


@program(item="fresh")
def f17_tensor_bitwise_and_inplace(paddle):
    x = paddle.to_tensor([-5, -1, 1])
    r = x.bitwise_and_(paddle.to_tensor([4, 2, -3]))
    b = paddle.to_tensor([[True, False], [True, True]])
    b.bitwise_and_(paddle.to_tensor([True, False]))
    i = paddle.to_tensor([[12, 10]], dtype="int32")
    shape_bad = attempt(lambda: i.bitwise_and_(paddle.to_tensor([[6], [3]], dtype="int32")))
    f = attempt(lambda: paddle.to_tensor([1.0]).bitwise_and_(paddle.to_tensor([1.0])))
    return {"x": x, "is": r is x, "b": b, "shape_bad": shape_bad, "f": f}


@program(item="fresh")
def f17_cumulative_trapezoid_x_dx_grad(paddle):
    y = paddle.to_tensor([4, 5, 6], dtype="float32")
    a = y.cumulative_trapezoid()
    b = y.cumulative_trapezoid(dx=2.0)
    c = y.cumulative_trapezoid(x=paddle.to_tensor([1, 2, 3], dtype="float32"))
    v = _t(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], grad=True)
    xs = _t(paddle, [[1.0, 2.0, 4.0], [0.0, 1.0, 1.5]], grad=True)
    d = v.cumulative_trapezoid(x=xs, axis=-1)
    e = v.cumulative_trapezoid(axis=0)
    (d.sum() + e.sum()).backward()
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "gv": v.grad, "gx": xs.grad}


@program(item="fresh")
def f17_floor_divide_inplace_signs(paddle):
    x = paddle.to_tensor([2, 3, 8, 7])
    paddle.floor_divide_(x, paddle.to_tensor([1, 5, 3, 3]))
    n = paddle.to_tensor([-7, 7, -7, 7])
    paddle.floor_divide_(n, paddle.to_tensor([2, -2, -2, 2]))
    f = paddle.to_tensor([-7.5, 7.5, 1.0])
    paddle.floor_divide_(f, paddle.to_tensor([2.0]))
    return {"x": x, "n": n, "f": f}


SIN_INPLACE_GG = ("docs/paddle.md, Paddle 3.3.1 slips: the second derivative through "
                  "paddle.sin_ leaves the input's grad None in Paddle; opsdk's is PyTorch's")


@program(item="fresh", differs=(["gg"], SIN_INPLACE_GG))
def f17_sin_inplace_grad_second(paddle):
    x = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3])
    paddle.sin_(x)
    v = _t(paddle, [0.0, 1.0, 2.0], grad=True)
    h = v * 1.5
    paddle.sin_(h)
    (g,) = paddle.grad(h.sum(), v, create_graph=True)
    g.sum().backward()
    return {"x": x, "h": h, "g": g, "gg": v.grad}


# ---------------------------------------------------------------- 70-74


@program(item="fresh")
def f17_conv3d_transpose_stride_outpad_grad(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 2, 2, 2], -0.5, 0.1), grad=True)
    w = _t(paddle, _a([2, 3, 2, 2, 2], 0.3, -0.02), grad=True)
    y = F.conv3d_transpose(x, w, stride=2, padding=0)
    (y * y).sum().backward()
    y2 = F.conv3d_transpose(x.detach(), w.detach(), stride=2, padding=1, output_padding=1)
    y3 = F.conv3d_transpose(x.detach(), w.detach(), output_size=[3, 3, 3])
    return {"y_shape": y.shape, "y": y, "gx": x.grad, "gw": w.grad, "y2_shape": y2.shape,
            "y2": y2, "y3": y3}


@program(item="fresh")
def f17_logical_or_dtypes_broadcast(paddle):
    x = paddle.to_tensor([True])
    y = paddle.to_tensor([True, False, True, False])
    a = paddle.logical_or(x, y)
    xi = paddle.to_tensor([[0], [2]])
    yi = paddle.to_tensor([0, 0, 3])
    b = paddle.logical_or(xi, yi)
    c = paddle.logical_or(paddle.to_tensor([0.0, 0.5]), paddle.to_tensor([0.0, 0.0]))
    d = paddle.logical_or(paddle.to_tensor(False), paddle.to_tensor(False))
    bad = attempt(paddle.logical_or, paddle.ones([2]), paddle.ones([3]))
    return {"a": a, "b": b, "c": c, "d": d, "bad": bad}


@program(item="fresh")
def f17_tensor_tril_diagonals_grad(paddle):
    data = paddle.arange(1, 13, dtype="int64").reshape([3, -1])
    a = data.tril()
    b = data.tril(diagonal=2)
    c = data.tril(diagonal=-1)
    v = _t(paddle, _a([2, 3, 3], 1.0), grad=True)
    t = v.tril(-1)
    (t * t).sum().backward()
    bad = attempt(lambda: paddle.ones([3]).tril())
    return {"a": a, "b": b, "c": c, "t": t, "gv": v.grad, "bad": bad}


@program(item="fresh", differs=([""], NO_EIG))
def f17_tensor_eig_real_spectra(paddle):
    x = paddle.to_tensor([[1.6707249, 7.2249975, 6.5045543],
                          [9.956216, 8.749598, 6.066444],
                          [4.4251957, 1.7983172, 0.370647]])
    w, v = x.eig()
    wn, vn = w.numpy(), v.numpy()
    resid = np.abs(x.numpy().astype("complex64") @ vn - vn * wn).max()
    t = _t(paddle, [[2.0, 1.0], [0.0, 3.0]])
    wt, _ = t.eig()
    return {"w_real": np.sort(wn.real), "w_dtype": str(w.dtype), "v_shape": v.shape,
            "resid_small": bool(resid < 1e-3), "wt": np.sort(wt.numpy().real),
            "bad": attempt(lambda: paddle.ones([2, 3]).eig())}


@program(item="fresh")
def f17_tensor_deg2rad_int_grad(paddle):
    x = paddle.to_tensor([180.0, -180.0, 360.0, -360.0, 90.0, -90.0])
    a = x.deg2rad()
    i = paddle.to_tensor(180, dtype="int32").deg2rad()
    l = paddle.to_tensor([90, 45], dtype="int64").deg2rad()
    v = _t(paddle, [30.0, 60.0], grad=True)
    r = v.deg2rad()
    r.sum().backward()
    return {"a": a, "i": i, "l": l, "r": r, "gv": v.grad}


@program(item="fresh")
def f17_diagonal_offsets_axes_grad(paddle):
    x = paddle.to_tensor(_a([2, 2, 3]), stop_gradient=False)
    a = paddle.diagonal(x)
    b = paddle.diagonal(x, offset=0, axis1=2, axis2=1)
    c = paddle.diagonal(x, offset=1)
    d = paddle.diagonal(x, offset=-1, axis1=1, axis2=2)
    far = paddle.diagonal(x, offset=5, axis1=1, axis2=2)
    (a.sum() + 2 * b.sum() + 3 * c.sum() + 4 * d.sum()).backward()
    bad = attempt(paddle.diagonal, x, 0, 1, 1)
    return {"a": a, "b": b, "c": c, "d": d, "far": far.shape, "gx": x.grad, "bad": bad}
