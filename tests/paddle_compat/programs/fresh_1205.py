"""Fresh differential programs (batch 1205): small dygraph programs a user would write from
Paddle 3.3.1's API documentation, on tensor manipulation with gradients, dtypes and casting,
broadcasting, documented in-place ops, Tensor attributes, nn containers, activations, losses,
optimizers, clipping, schedulers, PyLayer, paddle.grad and error cases; written without
looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _a(shape, start=0.0, step=0.25):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape)


LAYER = {"rtol": 1e-4, "atol": 1e-5}


# ---------------------------------------------------------------- manipulation with gradients


@program(item="fresh")
def f5_concat_stack_grad(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = _t(paddle, [[5.0, 6.0]])
    z = paddle.concat([x, y], axis=0)
    s = paddle.stack([x[0], y[0]], axis=1)
    w = _t(paddle, _a([3, 2], 1.0), grad=False)
    loss = (z * w).sum() + (s ** 2).sum()
    loss.backward()
    return {"z": z, "s": s, "gx": x.grad, "gy": y.grad}


@program(item="fresh")
def f5_split_sections_with_minus_one(paddle):
    x = _t(paddle, _a([2, 6], -1.0))
    a, b, c = paddle.split(x, [1, 3, -1], axis=1)
    loss = a.sum() * 1.0 + (b * b).sum() + (c ** 3).sum()
    loss.backward()
    return {"shapes": [a.shape, b.shape, c.shape], "grad": x.grad}


@program(item="fresh")
def f5_reshape_transpose_flatten_grad(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    y = x.reshape([3, 8]).transpose([1, 0])
    f = paddle.flatten(x, start_axis=1)
    w = _t(paddle, _a([8, 3], 1.0, 0.1), grad=False)
    loss = (y * w).sum() + (f ** 2).mean()
    loss.backward()
    return {"y_shape": y.shape, "f_shape": f.shape, "grad": x.grad}


@program(item="fresh")
def f5_squeeze_unsqueeze_expand_tile_grad(paddle):
    x = _t(paddle, [[[1.0], [2.0], [3.0]]])
    s = paddle.squeeze(x)
    u = paddle.unsqueeze(s, axis=[0, 2])
    e = u.expand([2, 3, 4])
    t = paddle.tile(s, [2, 2])
    loss = (e * e).sum() + (t * _t(paddle, _a([2, 6], 0.0, 1.0), grad=False)).sum()
    loss.backward()
    return {"s": s.shape, "u": u.shape, "e": e.shape, "t": t, "grad": x.grad}


@program(item="fresh")
def f5_flip_roll_grad(paddle):
    x = _t(paddle, _a([2, 3], 1.0, 1.0))
    f = paddle.flip(x, axis=[0, 1])
    r = paddle.roll(x, shifts=1, axis=1)
    r2 = paddle.roll(x, shifts=2)
    w = _t(paddle, _a([2, 3], 0.0, 1.0), grad=False)
    loss = (f * w).sum() + (r * w * 2).sum() + (r2 * w * 3).sum()
    loss.backward()
    return {"f": f, "r": r, "r2": r2, "grad": x.grad}


@program(item="fresh")
def f5_gather_nd_repeated_index_grad(paddle):
    x = _t(paddle, _a([3, 4], 1.0))
    idx = paddle.to_tensor(np.array([[0, 1], [2, 3], [0, 1]], dtype="int64"))
    g = paddle.gather_nd(x, idx)
    rows = paddle.gather_nd(x, paddle.to_tensor(np.array([[1], [1]], dtype="int64")))
    loss = (g * _t(paddle, [1.0, 2.0, 3.0], grad=False)).sum() + rows.sum()
    loss.backward()
    return {"g": g, "rows": rows, "grad": x.grad}


@program(item="fresh")
def f5_scatter_nd_add_grads(paddle):
    x = _t(paddle, np.zeros([3, 2]))
    upd = _t(paddle, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    idx = paddle.to_tensor(np.array([[1], [1], [2]], dtype="int64"))
    out = paddle.scatter_nd_add(x, idx, upd)
    loss = (out * _t(paddle, [[1.0, 1.0], [2.0, 3.0], [4.0, 5.0]], grad=False)).sum()
    loss.backward()
    return {"out": out, "gx": x.grad, "gu": upd.grad}


@program(item="fresh")
def f5_index_add_grad(paddle):
    x = _t(paddle, _a([4, 2], 1.0))
    v = _t(paddle, [[10.0, 20.0], [30.0, 40.0]])
    idx = paddle.to_tensor(np.array([3, 0], dtype="int64"))
    out = paddle.index_add(x, idx, 0, v)
    loss = (out * out).sum()
    loss.backward()
    return {"out": out, "gx": x.grad, "gv": v.grad}


@program(item="fresh")
def f5_masked_fill_and_where_grad(paddle):
    x = _t(paddle, [[1.0, -2.0], [3.0, -4.0]])
    mask = x < 0
    m = paddle.masked_fill(x, mask, 0.5)
    w = paddle.where(x > 2, x * 10, -x)
    loss = (m * m).sum() + w.sum()
    loss.backward()
    return {"mask": mask, "m": m, "w": w, "grad": x.grad}


@program(item="fresh")
def f5_clip_grad_at_and_inside_bounds(paddle):
    x = _t(paddle, [-2.0, -1.0, 0.0, 1.0, 2.0])
    y = paddle.clip(x, min=-1.0, max=1.0)
    (y * _t(paddle, [1.0, 2.0, 3.0, 4.0, 5.0], grad=False)).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f5_sort_descending_grad(paddle):
    x = _t(paddle, [[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
    s = paddle.sort(x, axis=1, descending=True)
    w = _t(paddle, [1.0, 10.0, 100.0], grad=False)
    (s * w).sum().backward()
    return {"s": s, "grad": x.grad}


@program(item="fresh")
def f5_topk_smallest_grad(paddle):
    x = _t(paddle, [[5.0, 1.0, 4.0, 2.0], [0.0, 7.0, 3.0, 6.0]])
    v, i = paddle.topk(x, k=2, axis=1, largest=False)
    (v * _t(paddle, [1.0, 3.0], grad=False)).sum().backward()
    return {"v": v, "i": i, "grad": x.grad}


@program(item="fresh")
def f5_argsort_and_unique_outputs(paddle):
    x = paddle.to_tensor(np.array([3, 1, 2, 1, 3, 3], dtype="int64"))
    order = paddle.argsort(x, descending=False, stable=True)
    u, idx, inv, cnt = paddle.unique(x, return_index=True, return_inverse=True,
                                     return_counts=True)
    return {"order": order, "u": u, "idx": idx, "inv": inv, "cnt": cnt}


@program(item="fresh")
def f5_cumsum_cumprod_grad_with_zero(paddle):
    x = _t(paddle, [[1.0, 2.0, 0.0, 3.0], [2.0, -1.0, 0.5, 4.0]])
    cs = paddle.cumsum(x, axis=1)
    cp = paddle.cumprod(x, dim=1)
    loss = (cs * cs).sum() + cp.sum()
    loss.backward()
    return {"cs": cs, "cp": cp, "grad": x.grad}


@program(item="fresh")
def f5_kron_outer_grad(paddle):
    a = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    b = _t(paddle, [[0.0, 1.0], [1.0, 0.5]])
    k = paddle.kron(a, b)
    u = _t(paddle, [1.0, 2.0, 3.0])
    v = _t(paddle, [4.0, 5.0])
    o = paddle.outer(u, v)
    loss = (k * k).sum() + o.sum()
    loss.backward()
    return {"k": k, "o": o, "ga": a.grad, "gb": b.grad, "gu": u.grad, "gv": v.grad}


@program(item="fresh")
def f5_einsum_three_forms_grad(paddle):
    a = _t(paddle, _a([2, 3], 0.5))
    b = _t(paddle, _a([3, 2], -0.5))
    m = _t(paddle, _a([3, 3], 1.0))
    mm = paddle.einsum("ij,jk->ik", a, b)
    tr = paddle.einsum("ii", m)
    bi = paddle.einsum("ij,ij->i", a, a)
    loss = mm.sum() + tr * 2 + bi.sum()
    loss.backward()
    return {"mm": mm, "tr": tr, "bi": bi, "ga": a.grad, "gb": b.grad, "gm": m.grad}


@program(item="fresh")
def f5_matmul_transpose_flags_and_bmm(paddle):
    a = _t(paddle, _a([3, 2], 1.0))
    b = _t(paddle, _a([4, 3], -1.0, 0.5))
    c = paddle.matmul(a, b, transpose_x=True, transpose_y=True)
    p = _t(paddle, _a([2, 2, 3], 0.1, 0.1))
    q = _t(paddle, _a([2, 3, 2], 0.2, -0.1))
    r = paddle.bmm(p, q)
    loss = (c * c).sum() + r.sum()
    loss.backward()
    return {"c": c, "r": r, "ga": a.grad, "gb": b.grad, "gp": p.grad, "gq": q.grad}


@program(item="fresh")
def f5_matmul_broadcast_batch_grad(paddle):
    a = _t(paddle, _a([2, 3, 4], 0.0, 0.1))
    b = _t(paddle, _a([4, 2], 1.0, -0.2))
    v = _t(paddle, [1.0, -1.0, 2.0, 0.5])
    out = paddle.matmul(a, b)
    mv = paddle.matmul(a, v)
    loss = (out ** 2).sum() + mv.sum()
    loss.backward()
    return {"out_shape": out.shape, "mv": mv, "ga": a.grad, "gb": b.grad, "gv": v.grad}


@program(item="fresh")
def f5_linalg_norm_variants_grad(paddle):
    x = _t(paddle, [[3.0, -4.0], [1.0, 2.0]])
    fro = paddle.linalg.norm(x)
    l1 = paddle.linalg.norm(x, p=1, axis=1)
    inf = paddle.linalg.norm(x, p=float("inf"), axis=0)
    l2 = paddle.linalg.norm(x, p=2, axis=-1, keepdim=True)
    loss = fro + l1.sum() + inf.sum() + l2.sum()
    loss.backward()
    return {"fro": fro, "l1": l1, "inf": inf, "l2": l2, "grad": x.grad}


@program(item="fresh")
def f5_det_inv_grad(paddle):
    x = _t(paddle, [[2.0, 1.0], [0.5, 3.0]])
    d = paddle.linalg.det(x)
    i = paddle.linalg.inv(x)
    loss = d + i.sum()
    loss.backward()
    return {"d": d, "inv": i, "grad": x.grad}


@program(item="fresh")
def f5_solve_and_cholesky_grad(paddle):
    a = _t(paddle, [[4.0, 1.0], [1.0, 3.0]])
    b = _t(paddle, [[1.0], [2.0]])
    x = paddle.linalg.solve(a, b)
    l = paddle.linalg.cholesky(a)
    lu = paddle.linalg.cholesky(a, upper=True)
    loss = x.sum() + (l * l).sum() + lu.sum()
    loss.backward()
    return {"x": x, "l": l, "lu": lu, "ga": a.grad, "gb": b.grad}


# ---------------------------------------------------------------- dtypes and casting


@program(item="fresh")
def f5_scalar_promotion_dtypes(paddle):
    i = paddle.to_tensor([1, 2, 3])
    f32 = paddle.to_tensor([1.0, 2.0])
    f64 = paddle.to_tensor(np.array([1.0, 2.0]))
    return {"i_plus_int": i + 1, "i_plus_float": i + 1.5, "i_times_float": i * 0.5,
            "f32_times_int": f32 * 3, "f64_plus_float": f64 + 0.1, "i_div_int": i / 2,
            "i_floordiv": i // 2, "i_pow": i ** 2, "rsub": 10 - i}


@program(item="fresh")
def f5_to_tensor_dtype_inference(paddle):
    return {"int": str(paddle.to_tensor(1).dtype), "float": str(paddle.to_tensor(1.5).dtype),
            "bool": str(paddle.to_tensor([True, False]).dtype),
            "np64": str(paddle.to_tensor(np.array([1.0])).dtype),
            "np_i32": str(paddle.to_tensor(np.array([1], dtype="int32")).dtype),
            "mixed_list": str(paddle.to_tensor([1, 2.5]).dtype),
            "explicit": str(paddle.to_tensor([1, 2], dtype="float64").dtype),
            "scalar_shape": paddle.to_tensor(3.0).shape}


@program(item="fresh")
def f5_cast_roundtrip_grad_dtype(paddle):
    x = _t(paddle, [0.5, 1.5, -2.0])
    y = paddle.cast(x, "float32")
    z = (y * y).astype("float64")
    z.sum().backward()
    return {"y": y, "z": z, "grad": x.grad, "grad_dtype": str(x.grad.dtype)}


@program(item="fresh")
def f5_cast_to_int_stops_gradient(paddle):
    x = _t(paddle, [1.7, -2.3, 3.5])
    i = x.astype("int64")
    b = paddle.cast(x, "bool")
    return {"i": i, "i_sg": i.stop_gradient, "b": b, "b_sg": b.stop_gradient}


@program(item="fresh")
def f5_float32_float64_tensor_mix(paddle):
    a = paddle.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    b = paddle.to_tensor([0.5, 0.25], dtype="float64", stop_gradient=False)
    c = a * b
    c.sum().backward()
    return {"c": c, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f5_creation_function_default_dtypes(paddle):
    return {"arange_int": paddle.arange(4), "arange_float": paddle.arange(0.0, 1.0, 0.25),
            "linspace": paddle.linspace(0, 1, 5), "zeros": paddle.zeros([2]),
            "ones_i": paddle.ones([2], dtype="int64"), "eye": paddle.eye(2, 3),
            "full_float": paddle.full([2], 1.5), "full_like": paddle.full_like(
                paddle.to_tensor([1, 2]), 7), "zeros_like": paddle.zeros_like(
                paddle.to_tensor(np.array([1.0, 2.0])))}


# ---------------------------------------------------------------- broadcasting gradients


@program(item="fresh")
def f5_broadcast_column_row_grad(paddle):
    a = _t(paddle, [[1.0], [2.0], [3.0]])
    b = _t(paddle, [[10.0, 20.0, 30.0, 40.0]])
    c = a * b + a
    (c * c).sum().backward()
    return {"c_shape": c.shape, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f5_broadcast_vector_over_batch_grad(paddle):
    x = _t(paddle, _a([2, 3, 4], 0.0, 0.5))
    v = _t(paddle, [1.0, 2.0, 3.0, 4.0])
    s = _t(paddle, 2.0)
    y = (x - v) / s
    y.sum().backward()
    return {"gx": x.grad, "gv": v.grad, "gs": s.grad}


@program(item="fresh")
def f5_reflected_scalar_ops_grad(paddle):
    x = _t(paddle, [0.5, 1.0, 2.0])
    y = (2.0 - x) + (1.0 / x) + (2.0 ** x) + (3 * x) % 1.5
    y.sum().backward()
    return {"y": y, "grad": x.grad}


# ---------------------------------------------------------------- documented in-place ops


@program(item="fresh")
def f5_inplace_add_on_nonleaf(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [3.0, 4.0])
    y = x * 2
    y.add_(z * z)
    (y * x).sum().backward()
    return {"y": y, "gx": x.grad, "gz": z.grad}


@program(item="fresh")
def f5_inplace_scale_clip_nonleaf(paddle):
    x = _t(paddle, [-3.0, 0.5, 3.0])
    y = x * 1.0
    y.scale_(scale=2.0, bias=1.0)
    y.clip_(min=-2.0, max=4.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f5_inplace_exp_sqrt_nonleaf(paddle):
    x = _t(paddle, [0.0, 1.0, 2.0])
    y = x + 1.0
    y.sqrt_()
    y.exp_()
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f5_inplace_zero_fill_cut_gradient(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * 3
    y.zero_()
    w = x * 2
    w.fill_(5.0)
    (y + w + x).sum().backward()
    return {"y": y, "w": w, "grad": x.grad}


@program(item="fresh")
def f5_inplace_on_grad_leaf_raises(paddle):
    x = _t(paddle, [1.0, 2.0])
    c = _t(paddle, [1.0, 2.0], grad=False)
    c.add_(paddle.ones([2], dtype="float64"))
    return {"leaf": attempt(lambda: x.add_(paddle.ones([2], dtype="float64"))),
            "const": c, "x": x}


@program(item="fresh")
def f5_inplace_version_counter(paddle):
    x = _t(paddle, [1.0, 2.0], grad=False)
    v0 = x.inplace_version
    x.add_(paddle.ones([2], dtype="float64"))
    x.scale_(2.0)
    v2 = x.inplace_version
    return {"v0": v0, "v2": v2, "x": x}


@program(item="fresh")
def f5_inplace_after_save_raises_on_backward(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    z = y * y
    y.add_(paddle.ones([2], dtype="float64"))
    return {"backward": attempt(lambda: z.sum().backward())}


@program(item="fresh")
def f5_inplace_unsqueeze_reshape_nonleaf(paddle):
    x = _t(paddle, _a([2, 3], 1.0))
    y = x * 1.0
    y.unsqueeze_(0)
    s1 = y.shape
    y.reshape_([3, 2])
    (y * _t(paddle, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], grad=False)).sum().backward()
    return {"s1": s1, "s2": y.shape, "grad": x.grad}


# ---------------------------------------------------------------- Tensor attributes and methods


@program(item="fresh")
def f5_tensor_basic_attributes(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    return {"shape": x.shape, "ndim": x.ndim, "size": x.size, "dtype": str(x.dtype),
            "numel": x.numel(), "dim": x.dim(), "rank": paddle.rank(x),
            "place_cpu": x.place.is_cpu_place()}


@program(item="fresh")
def f5_item_tolist_and_conversions(paddle):
    x = _t(paddle, [[1.5, 2.5], [3.0, 4.0]])
    one = _t(paddle, [7.25])
    return {"tolist": x.tolist(), "item": one.item(), "item_idx": x.item(1, 0),
            "float": attempt(float, one), "int": attempt(int, one), "float_0d": float(one[0]),
            "bad_item": attempt(x.item),
            "numpy_dtype": str(x.numpy().dtype)}


@program(item="fresh")
def f5_clone_detach_semantics(paddle):
    x = _t(paddle, [1.0, 2.0])
    c = x.clone()
    d = x.detach()
    d[0] = 10.0
    (c * c).sum().backward()
    return {"c_sg": c.stop_gradient, "c_leaf": c.is_leaf, "d_sg": d.stop_gradient,
            "x_after": x.numpy(), "grad": x.grad}


@program(item="fresh")
def f5_leaf_and_grad_flags(paddle):
    x = _t(paddle, [1.0, 2.0])
    k = _t(paddle, [3.0, 4.0], grad=False)
    y = x * k
    z = k * 2
    before = x.grad
    y.sum().backward()
    return {"before": before, "x_leaf": x.is_leaf, "y_leaf": y.is_leaf, "z_leaf": z.is_leaf,
            "z_sg": z.stop_gradient, "k_grad": k.grad, "x_grad": x.grad, "y_grad": y.grad}


@program(item="fresh")
def f5_getitem_setitem_grad(paddle):
    x = _t(paddle, _a([3, 4], 1.0))
    y = x * 1.0
    y[1, :] = 0.0
    y[:, 0] = y[:, 0] * 2
    part = y[::2, 1:3]
    (part.sum() + y.sum()).backward()
    return {"y": y, "part": part, "grad": x.grad}


# ---------------------------------------------------------------- nn layers and containers


def _linear(paddle, nin, nout, start, bias=True):
    w = _a([nin, nout], start, 0.1)
    attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(w))
    battr = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.1)) if bias else False
    return paddle.nn.Linear(nin, nout, weight_attr=attr, bias_attr=battr)


@program(item="fresh", **LAYER)
def f5_sequential_forward_backward(paddle):
    net = paddle.nn.Sequential(_linear(paddle, 3, 4, -0.5), paddle.nn.Tanh(),
                               _linear(paddle, 4, 2, 0.2))
    x = paddle.to_tensor(_a([2, 3], 0.1).astype("float32"))
    out = net(x)
    out.mean().backward()
    return {"out": out, "g0w": net[0].weight.grad, "g0b": net[0].bias.grad,
            "g2w": net[2].weight.grad, "n_params": len(net.parameters())}


@program(item="fresh")
def f5_layerlist_and_named_parameters(paddle):
    layers = paddle.nn.LayerList([_linear(paddle, 2, 2, 0.0) for _ in range(2)])
    layers.append(_linear(paddle, 2, 1, 0.5, bias=False))
    names = [n for n, _ in layers.named_parameters()]
    shapes = [p.shape for p in layers.parameters()]
    return {"len": len(layers), "names": names, "shapes": shapes,
            "bias_none": layers[2].bias is None}


@program(item="fresh", **LAYER)
def f5_parameterlist_in_custom_layer(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.ps = paddle.nn.ParameterList([
                self.create_parameter([2], default_initializer=paddle.nn.initializer.Constant(
                    float(i + 1))) for i in range(3)])

        def forward(self, x):
            for p in self.ps:
                x = x * p
            return x

    net = Net()
    x = paddle.to_tensor([1.0, 2.0])
    net(x).sum().backward()
    return {"names": [n for n, _ in net.named_parameters()],
            "grads": [p.grad for p in net.ps], "len": len(net.ps)}


@program(item="fresh")
def f5_state_dict_roundtrip(paddle):
    a = _linear(paddle, 2, 3, 0.0)
    b = _linear(paddle, 2, 3, 1.0)
    sd = a.state_dict()
    keys = list(sd.keys())
    b.set_state_dict(sd)
    a.weight.set_value(np.zeros([2, 3], dtype="float32"))
    return {"keys": keys, "b_w": b.weight, "b_b": b.bias, "a_w": a.weight}


@program(item="fresh")
def f5_train_eval_flags_and_dropout(paddle):
    net = paddle.nn.Sequential(paddle.nn.Dropout(0.5), _linear(paddle, 2, 2, 0.0))
    x = paddle.to_tensor([[1.0, 2.0]])
    net.eval()
    flags_eval = [net.training, net[0].training, net[1].training]
    y = net(x)
    net.train()
    flags_train = [net.training, net[0].training]
    return {"eval": flags_eval, "train": flags_train, "y": y}


@program(item="fresh", **LAYER)
def f5_frozen_parameter_not_updated(paddle):
    lin = _linear(paddle, 2, 2, 0.5)
    lin.bias.stop_gradient = True
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    x = paddle.to_tensor([[1.0, -1.0]])
    lin(x).sum().backward()
    bias_grad = lin.bias.grad
    opt.step()
    return {"bias_grad": bias_grad, "w": lin.weight, "b": lin.bias}


@program(item="fresh")
def f5_create_parameter_float64_constant(paddle):
    p = paddle.create_parameter([2, 2], dtype="float64",
                                default_initializer=paddle.nn.initializer.Constant(0.5))
    (p * p).sum().backward()
    return {"p": p, "sg": p.stop_gradient, "leaf": p.is_leaf, "grad": p.grad,
            "trainable": p.trainable}


@program(item="fresh")
def f5_register_buffer_in_state_dict(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.register_buffer("running", paddle.to_tensor([1.0, 2.0]))
            self.register_buffer("tmp", paddle.to_tensor([0.0]), persistable=False)
            self.w = self.create_parameter([2], default_initializer=paddle.nn.initializer.Constant(
                3.0))

        def forward(self, x):
            return x * self.w + self.running

    net = Net()
    out = net(paddle.to_tensor([1.0, 1.0]))
    return {"keys": sorted(net.state_dict().keys()), "n_buffers": len(net.buffers()),
            "n_params": len(net.parameters()), "out": out}


@program(item="fresh")
def f5_default_dtype_float64_layer(paddle):
    old = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    try:
        lin = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(
            initializer=paddle.nn.initializer.Constant(0.5)))
        x = paddle.to_tensor([[1.0, 2.0]])
        y = lin(x)
        return {"w_dtype": str(lin.weight.dtype), "x_dtype": str(x.dtype), "y": y,
                "default": paddle.get_default_dtype()}
    finally:
        paddle.set_default_dtype(old)


# ---------------------------------------------------------------- activations


@program(item="fresh")
def f5_relu_family_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-2.0, -0.5, 0.0, 0.5, 2.0])
    y = F.relu(x) + F.leaky_relu(x, negative_slope=0.2) * 2 + F.elu(x, alpha=0.5) * 3 \
        + F.selu(x) * 4 + F.relu6(x * 4) * 5
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f5_smooth_activations_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-3.0, -1.0, 0.0, 0.7, 2.5])
    outs = {"gelu": F.gelu(x), "gelu_tanh": F.gelu(x, approximate=True), "silu": F.silu(x),
            "softplus": F.softplus(x, beta=2.0, threshold=4.0), "hardswish": F.hardswish(x),
            "hardsigmoid": F.hardsigmoid(x), "mish": F.mish(x)}
    grads = {}
    for k, v in outs.items():
        (g,) = paddle.grad(v.sum(), x)
        grads[k] = g
    return {"outs": outs, "grads": grads}


@program(item="fresh")
def f5_softmax_log_softmax_axis_grad(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    w = _t(paddle, [[1.0, 0.0, 2.0], [3.0, 1.0, 0.5]], grad=False)
    s0 = F.softmax(x, axis=0)
    ls = F.log_softmax(x, axis=-1)
    (s0 * w).sum().backward(retain_graph=True)
    g1 = x.grad.numpy().copy()
    x.clear_gradient()
    (ls * w).sum().backward()
    return {"s0": s0, "ls": ls, "g_softmax": g1, "g_logsoftmax": x.grad}


# ---------------------------------------------------------------- losses


@program(item="fresh")
def f5_mse_l1_reductions_grad(paddle):
    F = paddle.nn.functional
    p = _t(paddle, [[1.0, 2.0], [3.0, -1.0]])
    t = _t(paddle, [[0.5, 2.5], [3.0, 1.0]], grad=False)
    out = {}
    total = 0
    for r in ("none", "mean", "sum"):
        m = F.mse_loss(p, t, reduction=r)
        l1 = F.l1_loss(p, t, reduction=r)
        out[r] = [m, l1]
        total = total + m.sum() + l1.sum()
    total.backward()
    return {"out": out, "grad": p.grad}


@program(item="fresh")
def f5_smooth_l1_delta_grad(paddle):
    F = paddle.nn.functional
    p = _t(paddle, [0.0, 0.3, 1.0, 3.0, -2.0])
    t = _t(paddle, [0.0, 0.0, 0.0, 0.0, 0.0], grad=False)
    a = F.smooth_l1_loss(p, t, reduction="none", delta=1.0)
    b = F.smooth_l1_loss(p, t, reduction="sum", delta=0.5)
    (a.sum() + b).backward()
    return {"a": a, "b": b, "grad": p.grad}


@program(item="fresh")
def f5_bce_with_weight_grad(paddle):
    F = paddle.nn.functional
    p = _t(paddle, [0.2, 0.7, 0.9])
    y = _t(paddle, [0.0, 1.0, 1.0], grad=False)
    w = _t(paddle, [1.0, 2.0, 0.5], grad=False)
    l_mean = F.binary_cross_entropy(p, y, weight=w)
    l_none = F.binary_cross_entropy(p, y, reduction="none")
    (l_mean + l_none.sum()).backward()
    return {"mean": l_mean, "none": l_none, "grad": p.grad}


@program(item="fresh", differs=(
        ["grad"], ("docs/paddle.md, paddle.nn.functional: at a logit of exactly 0 without "
                   "pos_weight Paddle's gradient kernel gives sigmoid(0) - label - 1; opsdk gives "
                   "the derivative sigmoid(0) - label")))
def f5_bce_with_logits_pos_weight(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[-1.0, 0.0, 2.0], [3.0, -2.0, 0.5]])
    y = _t(paddle, [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], grad=False)
    pw = _t(paddle, [1.0, 2.0, 3.0], grad=False)
    l = F.binary_cross_entropy_with_logits(z, y, pos_weight=pw, reduction="sum")
    l2 = paddle.nn.BCEWithLogitsLoss(reduction="none")(z, y)
    (l + l2.mean()).backward()
    return {"l": l, "l2": l2, "grad": z.grad}


@program(item="fresh")
def f5_cross_entropy_soft_label(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    y = _t(paddle, [[0.2, 0.7, 0.1], [0.0, 0.5, 0.5]], grad=False)
    l = F.cross_entropy(z, y, soft_label=True)
    ln = F.cross_entropy(z, y, soft_label=True, reduction="none")
    (l + ln.sum()).backward()
    return {"l": l, "ln": ln, "grad": z.grad}


@program(item="fresh")
def f5_cross_entropy_ignore_index_and_weight(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [2.0, 2.0, 2.0], [0.3, 0.1, -0.4]])
    lbl = paddle.to_tensor(np.array([1, 2, -100, 0], dtype="int64"))
    w = _t(paddle, [1.0, 2.0, 0.5], grad=False)
    l = F.cross_entropy(z, lbl, weight=w, ignore_index=-100)
    ls = F.cross_entropy(z, lbl, ignore_index=-100, reduction="sum")
    (l + ls).backward()
    return {"l": l, "ls": ls, "grad": z.grad}


@program(item="fresh")
def f5_nll_loss_weight_ignore(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [0.2, 0.1, 0.0]])
    logp = F.log_softmax(z, axis=1)
    lbl = paddle.to_tensor(np.array([2, 1, 0], dtype="int64"))
    w = _t(paddle, [0.5, 1.0, 2.0], grad=False)
    l = F.nll_loss(logp, lbl, weight=w, ignore_index=1)
    ln = F.nll_loss(logp, lbl, reduction="none")
    (l + ln.sum()).backward()
    return {"l": l, "ln": ln, "grad": z.grad}


@program(item="fresh")
def f5_kl_div_reductions(paddle):
    F = paddle.nn.functional
    z = _t(paddle, [[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]])
    logq = paddle.log(z)
    p = _t(paddle, [[0.2, 0.2, 0.6], [0.5, 0.25, 0.25]], grad=False)
    out = {r: F.kl_div(logq, p, reduction=r) for r in ("none", "mean", "sum", "batchmean")}
    out["batchmean"].backward()
    return {"out": out, "grad": z.grad}


# ---------------------------------------------------------------- optimizers, clipping, lr


def _quad_params(paddle):
    w = paddle.create_parameter([3], dtype="float64",
                                default_initializer=paddle.nn.initializer.Assign(
                                    np.array([1.0, -2.0, 3.0])))
    return w


def _steps(paddle, opt, w, n=3):
    seen = []
    for _ in range(n):
        loss = ((w - 0.5) ** 2).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
        seen.append(w.numpy().copy())
    return seen


@program(item="fresh")
def f5_sgd_weight_decay_float(paddle):
    w = _quad_params(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w], weight_decay=0.01)
    return {"seen": _steps(paddle, opt, w)}


@program(item="fresh")
def f5_adam_l2decay_and_adamw(paddle):
    w1 = _quad_params(paddle)
    w2 = _quad_params(paddle)
    a = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w1],
                              weight_decay=paddle.regularizer.L2Decay(0.05))
    b = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[w2], weight_decay=0.05)
    return {"adam": _steps(paddle, a, w1), "adamw": _steps(paddle, b, w2)}


@program(item="fresh")
def f5_momentum_nesterov_weight_decay(paddle):
    w = _quad_params(paddle)
    opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=[w],
                                    use_nesterov=True, weight_decay=0.1)
    return {"seen": _steps(paddle, opt, w, 4)}


@program(item="fresh", **LAYER)
def f5_clip_by_norm_and_global_norm(paddle):
    # float32: Paddle's clip_by_norm kernel has no float64 version on CPU
    def param(value, shape):
        return paddle.create_parameter(shape, dtype="float32",
                                       default_initializer=paddle.nn.initializer.Assign(value))

    w1, v1 = param(np.array([1.0, -2.0, 3.0]), [3]), param(np.full([2], 4.0), [2])
    w2, v2 = param(np.array([1.0, -2.0, 3.0]), [3]), param(np.full([2], 4.0), [2])
    o1 = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w1, v1],
                              grad_clip=paddle.nn.ClipGradByNorm(clip_norm=1.0))
    o2 = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w2, v2],
                              grad_clip=paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0))
    for w, v, o in ((w1, v1, o1), (w2, v2, o2)):
        ((w ** 2).sum() + (v ** 3).sum()).backward()
        o.step()
        o.clear_grad()
    return {"w1": w1, "v1": v1, "w2": w2, "v2": v2}


@program(item="fresh")
def f5_step_decay_schedule(paddle):
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    w = _quad_params(paddle)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[w])
    lrs = []
    for _ in range(5):
        lrs.append(opt.get_lr())
        ((w ** 2).sum()).backward()
        opt.step()
        opt.clear_grad()
        sched.step()
    return {"lrs": lrs, "w": w, "last_epoch": sched.last_epoch}


@program(item="fresh")
def f5_cosine_annealing_values(paddle):
    sched = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=1.0, T_max=4, eta_min=0.1)
    lrs = []
    for _ in range(7):
        lrs.append(sched())
        sched.step()
    return {"lrs": lrs}


@program(item="fresh")
def f5_linear_warmup_wrapping_step_decay(paddle):
    inner = paddle.optimizer.lr.StepDecay(learning_rate=0.4, step_size=2, gamma=0.5)
    sched = paddle.optimizer.lr.LinearWarmup(learning_rate=inner, warmup_steps=3,
                                             start_lr=0.0, end_lr=0.4)
    plain = paddle.optimizer.lr.LinearWarmup(learning_rate=0.2, warmup_steps=2, start_lr=0.1,
                                             end_lr=0.3)
    a, b = [], []
    for _ in range(8):
        a.append(sched.get_lr())
        b.append(plain.get_lr())
        sched.step()
        plain.step()
    return {"a": a, "b": b}


# ---------------------------------------------------------------- PyLayer edge cases


@program(item="fresh")
def f5_pylayer_two_outputs_one_unused(paddle):
    class Split(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            (x,) = ctx.saved_tensor()
            gb_none = gb is None
            ctx.gb_none = gb_none
            gb_val = paddle.zeros_like(x) if gb is None else gb
            return ga * 2 + gb_val * 3

    x = _t(paddle, [1.0, 2.0])
    a, b = Split.apply(x)
    (a * a).sum().backward()
    return {"a": a, "b": b, "grad": x.grad}


@program(item="fresh")
def f5_pylayer_wrong_number_of_grads_raises(paddle):
    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    x = _t(paddle, [1.0, 2.0])
    y = _t(paddle, [3.0, 4.0])
    out = Bad.apply(x, y)
    return {"backward": attempt(lambda: out.sum().backward())}


@program(item="fresh")
def f5_pylayer_input_without_grad(paddle):
    class Mul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x, k)
            return x * k

        @staticmethod
        def backward(ctx, g):
            x, k = ctx.saved_tensor()
            return g * k, None

    x = _t(paddle, [1.0, 2.0])
    k = _t(paddle, [5.0, 7.0], grad=False)
    y = Mul.apply(x, k)
    y.sum().backward()
    return {"y": y, "y_sg": y.stop_gradient, "grad": x.grad, "k_grad": k.grad}


@program(item="fresh")
def f5_pylayer_mark_non_differentiable(paddle):
    class WithIndex(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = paddle.argmax(x)
            y = x * 2
            ctx.mark_non_differentiable(idx)
            return y, idx

        @staticmethod
        def backward(ctx, gy, gidx=None):
            return gy * 2

    x = _t(paddle, [1.0, 5.0, 2.0])
    y, idx = WithIndex.apply(x)
    y.sum().backward()
    return {"idx": idx, "idx_sg": idx.stop_gradient, "grad": x.grad}


# ---------------------------------------------------------------- paddle.grad


@program(item="fresh")
def f5_grad_no_grad_vars(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = x ** 2
    y = (x * z).sum()
    (full,) = paddle.grad(y, x, retain_graph=True)
    (partial,) = paddle.grad(y, x, no_grad_vars=[z])
    return {"full": full, "partial": partial}


@program(item="fresh")
def f5_grad_allow_unused(paddle):
    x = _t(paddle, [1.0, 2.0])
    u = _t(paddle, [3.0])
    y = (x * x).sum()
    gx, gu = paddle.grad(y, [x, u], allow_unused=True, retain_graph=True)
    strict = attempt(lambda: paddle.grad(y, [x, u]))
    return {"gx": gx, "gu_none": gu is None, "strict": strict}


@program(item="fresh")
def f5_grad_outputs_weighted_multi(paddle):
    x = _t(paddle, [1.0, 2.0])
    w = _t(paddle, [0.5, -1.0])
    a = x * w
    b = x.exp()
    gx, gw = paddle.grad([a, b], [x, w], grad_outputs=[_t(paddle, [1.0, 2.0], grad=False),
                                                        _t(paddle, [3.0, 0.0], grad=False)])
    return {"gx": gx, "gw": gw, "x_grad": x.grad}


@program(item="fresh")
def f5_grad_of_nonscalar_without_grad_outputs(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    (g,) = paddle.grad(y, x)
    z = x * 3
    z.backward()
    return {"g": g, "x_grad": x.grad}


# ---------------------------------------------------------------- error cases


@program(item="fresh")
def f5_shape_errors(paddle):
    a = _t(paddle, _a([2, 3]))
    b = _t(paddle, _a([3, 3]))
    return {"concat": attempt(lambda: paddle.concat([a, b], axis=1)),
            "matmul": attempt(lambda: paddle.matmul(a, a)),
            "reshape": attempt(lambda: a.reshape([4, 2])),
            "add": attempt(lambda: a + _t(paddle, _a([2, 2])))}


@program(item="fresh")
def f5_linalg_errors(paddle):
    np_pd = _t(paddle, [[1.0, 2.0], [2.0, 1.0]])
    rect = _t(paddle, _a([2, 3]))
    return {"cholesky": attempt(lambda: paddle.linalg.cholesky(np_pd)),
            "inv_rect": attempt(lambda: paddle.linalg.inv(rect)),
            "det_rect": attempt(lambda: paddle.linalg.det(rect))}
