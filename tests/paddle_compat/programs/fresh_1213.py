"""Fresh differential programs (batch 1213): tensors as data-processing and research code uses
them, with gradients where they apply: indexing and slicing, __setitem__, views and in-place
ops on them, inplace_version, type promotion in every operator, broadcasting, reductions,
sorting and searching, concatenation and reordering, gather/scatter families, einsum, linalg
basics and seeding; written without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

INDEX_NONE = ("docs/paddle.md, Engine: Paddle 3.3.1 gives x[None, :, None, 0] the shape "
              "[1, 1, 2, 4] where NumPy and PyTorch give [1, 2, 1, 4]")
MATMUL_BATCH = ("docs/paddle.md, Engine: Paddle 3.3.1's matmul backward raises where the batch "
                "dims broadcast from different ranks")
PROD_SECOND = ("docs/paddle.md: prod's gradient at a zero entry (Values at special points) and "
               "its second derivative, which Paddle 3.3.1 lacks (Engine)")
PUT_NUMBER = ("docs/paddle.md, Engine: Paddle 3.3.1's put_along_axis makes a Python number "
              "float32 and refuses it for a float64 tensor")

def _leaf(paddle, values, dtype="float64", grad=True):
    """A leaf tensor of the given values (stop_gradient off unless grad is False)."""
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=not grad)


def _ramp(*shape, dtype="float64"):
    """0.5, 1.0, 1.5, ... shaped as asked, alternating in sign every third element."""
    n = int(np.prod(shape))
    signs = np.where(np.arange(n) % 3 == 2, -1.0, 1.0)
    return (0.5 * (np.arange(n) + 1) * signs).reshape(shape).astype(dtype)


def dt(fn):
    """fn()'s result with its dtype name, or what it raised."""
    r = attempt(fn)
    return r if not hasattr(r, "dtype") else [r, str(r.dtype).split(".")[-1]]


# ---------------------------------------------------------------- indexing and slicing


@program(item="fresh")
def f13_index_negative_steps(paddle):
    x = _leaf(paddle, _ramp(7))
    rev = x[::-1]
    odd = x[5:0:-2]
    tail = x[-2:]
    w = paddle.to_tensor(np.arange(1.0, 5.0))
    (rev[:4] * w).sum().backward()
    m = paddle.to_tensor(np.arange(12).reshape(3, 4))
    return {"rev": rev, "odd": odd, "tail": tail, "grad": x.grad,
            "m_rows": m[::-2, ::-1], "m_empty": m[1:1, :].shape}


@program(item="fresh", differs=(["b_shape"], INDEX_NONE))
def f13_index_ellipsis_and_none(paddle):
    x = _leaf(paddle, _ramp(2, 3, 4))
    a = x[..., 1]
    b = x[None, :, None, 0]
    c = x[0, ..., None]
    d = x[..., ::2][1]
    (a.sum() + 2 * b.sum() + 3 * c.sum() + 4 * d.sum()).backward()
    return {"a": a, "b_shape": b.shape, "c_shape": c.shape, "d": d, "grad": x.grad}


@program(item="fresh")
def f13_index_bool_mask_grad(paddle):
    x = _leaf(paddle, _ramp(3, 4))
    pos = x[x > 0]
    none = x[x > 100]
    rows = x[paddle.to_tensor([True, False, True])]
    (pos * pos).sum().backward()
    return {"pos": pos, "none_shape": none.shape, "rows": rows, "grad": x.grad,
            "rows_sg": rows.stop_gradient}


@program(item="fresh")
def f13_index_integer_arrays_duplicates(paddle):
    x = _leaf(paddle, _ramp(5))
    picked = x[[0, 2, 2, 4]]
    by_tensor = x[paddle.to_tensor([4, 0, 4])]
    (picked.sum() + 10 * by_tensor.sum()).backward()
    neg = x[paddle.to_tensor([-1, -5])]
    return {"picked": picked, "by_tensor": by_tensor, "neg": neg, "grad": x.grad}


@program(item="fresh")
def f13_index_mixed_advanced(paddle):
    x = _leaf(paddle, _ramp(3, 4, 2))
    a = x[1:, [0, 3]]
    b = x[[0, 2], [1, 3]]
    c = x[:, [1, 2], 1]
    (a.sum() + 2 * b.sum() + 3 * c.sum()).backward()
    return {"a": a, "b": b, "c": c, "a_shape": a.shape, "b_shape": b.shape,
            "c_shape": c.shape, "grad": x.grad}


@program(item="fresh")
def f13_index_zero_dim_and_errors(paddle):
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3))
    s = x[1, 2]
    z = paddle.to_tensor(3.5)
    return {"s": s, "s_shape": s.shape, "item": x[0, 1].item(),
            "z_none": z[None], "z_ellipsis": z[...],
            "too_far": attempt(lambda: x[2]),
            "too_many": attempt(lambda: x[0, 0, 0]),
            "float_index": attempt(lambda: x[paddle.to_tensor([0.5])])}


# ---------------------------------------------------------------- __setitem__


@program(item="fresh")
def f13_setitem_scalar_blocks_grad(paddle):
    x = _leaf(paddle, _ramp(2, 3))
    y = x * 2.0
    y[0, 1] = 7.0
    y[:, -1] = -1.0
    (y * y).sum().backward()
    return {"y": y, "grad": x.grad, "y_leaf": y.is_leaf, "version": y.inplace_version}


@program(item="fresh")
def f13_setitem_tensor_value_broadcast_grad(paddle):
    x = _leaf(paddle, _ramp(3, 3))
    v = _leaf(paddle, [10.0, 20.0, 30.0])
    y = x.clone()
    y[1:] = v
    (y * paddle.to_tensor(np.arange(9.0).reshape(3, 3))).sum().backward()
    return {"y": y, "gx": x.grad, "gv": v.grad}


@program(item="fresh")
def f13_setitem_bool_mask_and_int_array(paddle):
    x = _leaf(paddle, _ramp(2, 4))
    y = x + 0.0
    y[y < 0] = 0.0
    y[[0, 1], [3, 0]] = paddle.to_tensor([100.0, 200.0], dtype="float64")
    y.sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f13_setitem_dtypes(paddle):
    i = paddle.to_tensor([1, 2, 3])
    i[0] = 9
    f = paddle.to_tensor([1.0, 2.0, 3.0])
    f[1] = 5
    f[2] = True
    b = paddle.to_tensor([True, False, True])
    b[1] = True
    i2 = paddle.to_tensor([1, 2, 3])
    set_float = attempt(i2.__setitem__, 1, 2.75)
    return {"i": i, "f": f, "b": b, "set_float": set_float, "i2": i2}


@program(item="fresh")
def f13_setitem_leaf_requires_grad(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    res = attempt(x.__setitem__, 0, 5.0)
    frozen = _leaf(paddle, [1.0, 2.0, 3.0], grad=False)
    frozen[1] = 8.0
    with paddle.no_grad():
        res_ng = attempt(x.__setitem__, 2, 0.0)
    return {"res": res, "x": x, "frozen": frozen, "res_ng": res_ng}


@program(item="fresh")
def f13_setitem_shape_mismatch(paddle):
    y = paddle.zeros([2, 3])
    bad = attempt(y.__setitem__, 0, paddle.ones([2]))
    ok = attempt(y.__setitem__, (slice(None), 1), paddle.ones([2]))
    ok2 = attempt(y.__setitem__, slice(None), paddle.to_tensor([1.0, 2.0, 3.0]))
    return {"bad": bad, "ok": ok, "ok2": ok2, "y": y}


# ---------------------------------------------------------------- views and in-place ops


@program(item="fresh")
def f13_view_inplace_add_through_reshape(paddle):
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3))
    v = x.reshape([3, 2])
    v.add_(paddle.ones([3, 2], dtype="float64"))
    after_reshape = x.numpy().copy()
    t = x.transpose([1, 0])
    t.scale_(2.0)
    after_transpose = [x.numpy().copy(), v.numpy().copy()]
    u = x.unsqueeze(0)
    u.zero_()
    f = x.flatten()
    f.fill_(3.0)
    return {"after_reshape": after_reshape, "after_transpose": after_transpose, "x": x, "v": v,
            "t": t, "u": u, "f": f}


@program(item="fresh")
def f13_view_grad_through_views(paddle):
    x = _leaf(paddle, _ramp(2, 3))
    y = x.transpose([1, 0]).reshape([6]).unsqueeze(-1).expand([6, 2]).flatten()
    w = paddle.to_tensor(np.arange(12.0))
    (y * w).sum().backward()
    return {"y": y, "grad": x.grad, "y_shape": y.shape}


@program(item="fresh")
def f13_inplace_chain_on_nonleaf_grad(paddle):
    x = _leaf(paddle, [-2.0, -0.5, 0.5, 2.0])
    y = x * 3.0
    y.add_(paddle.to_tensor([1.0, 1.0, 1.0, 1.0], dtype="float64"))
    y.scale_(2.0)
    y.clip_(-5.0, 5.0)
    y.sum().backward()
    return {"y": y, "grad": x.grad, "version": y.inplace_version, "x_version": x.inplace_version}


@program(item="fresh")
def f13_inplace_fill_and_zero_grad(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = x ** 2
    y.fill_(4.0)
    z = x * 5.0
    z.zero_()
    (y + z + x).sum().backward()
    return {"y": y, "z": z, "grad": x.grad}


@program(item="fresh")
def f13_inplace_leaf_error(paddle):
    x = _leaf(paddle, [1.0, 2.0])
    add = attempt(x.add_, paddle.to_tensor([1.0, 1.0], dtype="float64"))
    scale = attempt(x.scale_, 2.0)
    with paddle.no_grad():
        x.scale_(3.0)
    frozen = _leaf(paddle, [1.0, 2.0], grad=False)
    frozen.add_(paddle.to_tensor([1.0, 1.0], dtype="float64"))
    return {"add": add, "scale": scale, "x": x, "frozen": frozen, "x_sg": x.stop_gradient}


@program(item="fresh")
def f13_inplace_modified_saved_tensor(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = x * 2.0
    z = y * y
    y.add_(paddle.ones([3], dtype="float64"))
    res = attempt(lambda: z.sum().backward())
    x2 = _leaf(paddle, [1.0, 2.0, 3.0])
    y2 = x2 * 2.0
    z2 = y2 + 1.0
    y2.add_(paddle.ones([3], dtype="float64"))
    z2.sum().backward()
    return {"res": res, "x_grad": x.grad, "z2": z2, "x2_grad": x2.grad}


@program(item="fresh")
def f13_inplace_version_counts(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    v0 = x.inplace_version
    x.add_(paddle.ones([3]))
    x.scale_(2.0)
    x[0] = 1.0
    v3 = x.inplace_version
    y = x.reshape([3, 1])
    vy = y.inplace_version
    y.zero_()
    return {"v0": v0, "v3": v3, "vy": vy, "x_after": x.inplace_version,
            "y_after": y.inplace_version, "fresh": (x + 1).inplace_version}


@program(item="fresh")
def f13_inplace_unary_methods(paddle):
    x = _leaf(paddle, [0.25, 1.0, 4.0])
    y = x * 1.0
    y.sqrt_()
    y.exp_()
    saved = attempt(lambda: y.sum().backward())
    x2 = _leaf(paddle, [0.25, 1.0, 4.0])
    y2 = x2 * 2.0
    y2.subtract_(paddle.ones([3], dtype="float64"))
    y2.exp_()
    y2.sum().backward()
    k = paddle.to_tensor([1.6, -1.6])
    k.floor_()
    return {"y": y, "saved": saved, "y2": y2, "grad2": x2.grad, "k": k}


# ---------------------------------------------------------------- type promotion


@program(item="fresh")
def f13_promote_int_tensor_with_python_scalars(paddle):
    i = paddle.to_tensor([7, -7, 3])
    outs = {"add_f": i + 1.5, "add_i": i + 2, "mul_f": i * 0.5, "mul_i": i * 3,
            "div_i": i / 2, "floordiv": i // 2, "mod": i % 3, "pow_i": i ** 2,
            "pow_f": i ** 0.5, "radd": 1.5 + i, "rsub": 10 - i, "rdiv": 14 / i,
            "neg": -i}
    return {k: [v, str(v.dtype).split(".")[-1]] for k, v in outs.items()}


@program(item="fresh")
def f13_promote_between_tensor_dtypes(paddle):
    f32, f64, i32, i64, b = (paddle.to_tensor(v, dtype=d) for v, d in (
        ([1.5, 2.5], "float32"), ([1.0, 2.0], "float64"), ([1, 2], "int32"), ([3, 4], "int64"),
        ([True, False], "bool")))
    return {"f32_f64": dt(lambda: f32 + f64), "i32_i64": dt(lambda: i32 + i64),
            "f32_i64": dt(lambda: f32 * i64), "b_i64": dt(lambda: b + i64),
            "b_f32": dt(lambda: b * f32), "i32_f64": dt(lambda: i32 - f64),
            "b_b": dt(lambda: b + b)}


@program(item="fresh")
def f13_promote_bool_and_float32_scalars(paddle):
    b = paddle.to_tensor([True, False, True])
    f = paddle.to_tensor([1.0, 2.0], dtype="float32")
    h = paddle.to_tensor([1.0, 2.0], dtype="float16")
    return {"b_int": dt(lambda: b + 1), "b_float": dt(lambda: b * 2.5),
            "b_bool": dt(lambda: b * True), "f_big": dt(lambda: f * 1e10),
            "f_int": dt(lambda: f + 3), "h_float": dt(lambda: h + 0.5),
            "f_true": dt(lambda: f + True)}


@program(item="fresh")
def f13_promote_comparisons(paddle):
    i = paddle.to_tensor([1, 2, 3])
    f = paddle.to_tensor([1.0, 2.5, 3.0], dtype="float32")
    d = paddle.to_tensor([1.0, 2.0, 4.0], dtype="float64")
    return {"i_lt_f": i < 1.5, "i_eq_f": i == 2.0, "f_ge_d": attempt(lambda: f >= d),
            "i_ne_f": attempt(lambda: i != f), "f_gt_i": 2 > f, "le_dtype": str((i <= 2).dtype),
            "eq_none": attempt(lambda: i == None)}  # noqa: E711 - what a user writes


@program(item="fresh")
def f13_floordiv_mod_signs(paddle):
    a = paddle.to_tensor([7, -7, 7, -7])
    b = paddle.to_tensor([2, 2, -2, -2])
    af = paddle.to_tensor([7.5, -7.5, 7.5, -7.5])
    bf = paddle.to_tensor([2.0, 2.0, -2.0, -2.0])
    return {"floordiv": a // b, "mod": a % b, "ffloordiv": af // bf, "fmod": af % bf,
            "scalar_mod": a % 3, "rmod": 10 % b, "div_zero_f": af / 0.0,
            "remainder": paddle.remainder(af, bf), "floor_divide": paddle.floor_divide(a, b)}


@program(item="fresh")
def f13_pow_operator_grads(paddle):
    x = _leaf(paddle, [0.5, 1.0, 2.0])
    p = _leaf(paddle, [2.0, 3.0, 0.5])
    y = x ** p + 2.0 ** x + x ** 3
    y.sum().backward()
    z = _leaf(paddle, [0.0, 4.0])
    (z ** 0.5).sum().backward()
    return {"y": y, "gx": x.grad, "gp": p.grad, "gz": z.grad}


@program(item="fresh", differs=(["batch_bw"], MATMUL_BATCH))
def f13_matmul_operator_shapes_grads(paddle):
    a = _leaf(paddle, _ramp(2, 1, 3, 4))
    b = _leaf(paddle, _ramp(3, 4, 2))
    c = a @ b
    batch_bw = attempt(lambda: c.sum().backward())
    a2 = _leaf(paddle, _ramp(3, 3, 4))
    b2 = _leaf(paddle, _ramp(4, 2))
    c2 = a2 @ b2
    v = _leaf(paddle, [1.0, 2.0, 3.0])
    dot = v @ v
    mv = paddle.to_tensor(_ramp(2, 3)) @ v
    (c2.sum() + dot + mv.sum()).backward()
    bad = attempt(lambda: a @ paddle.ones([3, 2], dtype="float64"))
    return {"c_shape": c.shape, "c": c, "batch_bw": batch_bw, "dot": dot,
            "dot_shape": dot.shape, "mv": mv, "ga2": a2.grad, "gb2": b2.grad, "gv": v.grad,
            "bad": bad}


@program(item="fresh")
def f13_reflected_ops_grads(paddle):
    x = _leaf(paddle, [1.0, 2.0, 4.0])
    y = (1.0 - x) * (3.0 / x) + 2 * x - x / 4
    y.sum().backward()
    x2 = _leaf(paddle, [1.0, 2.0, 4.0])
    d = paddle.grad(((6.0 / x2) ** 2).sum(), x2, create_graph=True)[0]
    d2 = paddle.grad(d.sum(), x2)[0]
    return {"y": y, "g": x.grad, "d": d, "d2": d2}


# ---------------------------------------------------------------- broadcasting


@program(item="fresh")
def f13_broadcast_grads_reduce_back(paddle):
    a = _leaf(paddle, _ramp(3, 1))
    b = _leaf(paddle, _ramp(1, 4))
    c = _leaf(paddle, _ramp(4))
    s = _leaf(paddle, 2.0)
    y = a * b + c * s
    (y * y).sum().backward()
    return {"y_shape": y.shape, "ga": a.grad, "gb": b.grad, "gc": c.grad, "gs": s.grad,
            "gs_shape": s.grad.shape}


@program(item="fresh")
def f13_broadcast_errors_and_helpers(paddle):
    a = paddle.ones([2, 3])
    return {"bad_add": attempt(lambda: a + paddle.ones([4])),
            "bad_mul": attempt(lambda: a * paddle.ones([3, 2])),
            "shape": paddle.broadcast_shape([2, 1, 3], [4, 1]),
            "bad_shape": attempt(paddle.broadcast_shape, [2, 3], [3, 2]),
            "to": paddle.broadcast_to(paddle.to_tensor([1.0, 2.0]), [3, 2]),
            "bad_to": attempt(paddle.broadcast_to, paddle.ones([3]), [2, 4]),
            "tensors": [t.shape for t in paddle.broadcast_tensors(
                [paddle.ones([1, 3]), paddle.ones([2, 1])])]}


@program(item="fresh")
def f13_broadcast_empty_and_zero_dim(paddle):
    e = paddle.ones([0, 3])
    r = e + paddle.to_tensor([1.0, 2.0, 3.0])
    z = paddle.to_tensor(2.0)
    x = _leaf(paddle, [[1.0], [2.0]])
    y = (x * z + paddle.ones([2, 0], dtype="float64")).sum()
    y.backward()
    return {"r_shape": r.shape, "sum_empty": r.sum(), "zz": (z * z).shape,
            "y": y, "gx": x.grad, "mean_empty": attempt(lambda: r.mean())}


# ---------------------------------------------------------------- reductions


@program(item="fresh")
def f13_reduce_sum_mean_axis_lists(paddle):
    x = _leaf(paddle, _ramp(2, 3, 4))
    s = x.sum(axis=[0, 2])
    m = x.mean(axis=[-1, 0], keepdim=True)
    t = paddle.sum(x, axis=-2)
    (s.sum() + 2 * m.sum() + 3 * t.sum()).backward()
    return {"s": s, "m": m, "m_shape": m.shape, "t": t, "grad": x.grad,
            "bad_axis": attempt(lambda: x.sum(axis=3)),
            "empty_axes": paddle.sum(x, axis=[]).shape}


@program(item="fresh")
def f13_reduce_max_min_ties_grad(paddle):
    vals = [[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]]
    x1, x2, x3, x4 = (_leaf(paddle, vals) for _ in range(4))
    paddle.max(x1, axis=1).sum().backward()
    paddle.amax(x2, axis=1).sum().backward()
    paddle.min(x3).backward()
    paddle.amin(x4, axis=[0, 1]).backward()
    return {"max_g": x1.grad, "amax_g": x2.grad, "min_g": x3.grad, "amin_g": x4.grad,
            "max_keep": paddle.max(x1, axis=0, keepdim=True),
            "min_empty": attempt(lambda: paddle.min(paddle.ones([0, 2]), axis=0))}


@program(item="fresh", differs=(["grad", "d2"], PROD_SECOND))
def f13_reduce_prod_with_zero_grad(paddle):
    x = _leaf(paddle, [[2.0, 0.0, 3.0], [1.0, 4.0, 0.5]])
    p = paddle.prod(x, axis=1)
    p.sum().backward()
    x2 = _leaf(paddle, [2.0, 3.0, 4.0])
    d = paddle.grad(paddle.prod(x2), x2)[0]
    d2 = attempt(paddle.grad, paddle.prod(x2), x2, create_graph=True)
    i = paddle.to_tensor([[2, 3], [4, 5]])
    return {"p": p, "grad": x.grad, "d": d, "d2": d2, "int_prod": paddle.prod(i),
            "int_dtype": str(paddle.prod(i).dtype), "keep": paddle.prod(x, keepdim=True).shape}


@program(item="fresh")
def f13_reduce_all_any(paddle):
    b = paddle.to_tensor([[True, False, True], [True, True, True]])
    i = paddle.to_tensor([[0, 2], [3, 4]])
    e = paddle.zeros([0], dtype="bool")
    return {"all": paddle.all(b), "all1": paddle.all(b, axis=1), "any0": paddle.any(b, axis=0),
            "any_keep": paddle.any(b, axis=[0, 1], keepdim=True),
            "all_int": attempt(paddle.all, i), "any_int": attempt(paddle.any, i, axis=1),
            "all_empty": paddle.all(e), "any_empty": paddle.any(e), "method": b.all(axis=-1)}


@program(item="fresh")
def f13_reduce_logsumexp(paddle):
    x = _leaf(paddle, [[1.0, 2.0, 3.0], [1000.0, 1000.0, -np.inf]])
    y = paddle.logsumexp(x, axis=1)
    y.sum().backward()
    k = paddle.logsumexp(x, axis=[0, 1], keepdim=True)
    z = paddle.logsumexp(paddle.to_tensor(2.0))
    return {"y": y, "grad": x.grad, "k": k, "k_shape": k.shape, "z": z, "z_shape": z.shape,
            "all": paddle.logsumexp(paddle.to_tensor([[0.0, 0.0], [0.0, 0.0]]))}


@program(item="fresh")
def f13_reduce_std_var(paddle):
    x = _leaf(paddle, _ramp(3, 4))
    s = paddle.std(x, axis=1)
    v = paddle.var(x, axis=[0, 1], unbiased=False, keepdim=True)
    (s.sum() + v.sum()).backward()
    one = paddle.to_tensor([5.0])
    return {"s": s, "v": v, "grad": x.grad, "std_one": paddle.std(one),
            "var_one_biased": paddle.var(one, unbiased=False),
            "std_all": x.std(), "var_int": attempt(paddle.var, paddle.to_tensor([1, 2, 3]))}


@program(item="fresh")
def f13_reduce_median_and_mode(paddle):
    x = _leaf(paddle, [[4.0, 1.0, 3.0, 2.0], [5.0, 5.0, 1.0, 1.0]])
    m = paddle.median(x, axis=1)
    m.sum().backward()
    mn = paddle.median(paddle.to_tensor([[4.0, 1.0, 3.0, 2.0]]), axis=1, mode="min")
    odd = paddle.median(paddle.to_tensor([3.0, 1.0, 2.0]))
    mv, mi = paddle.mode(paddle.to_tensor([[1, 2, 2, 3, 3], [4, 4, 0, 0, 9]]), axis=1)
    return {"m": m, "grad": x.grad, "mn": mn, "odd": odd, "odd_shape": odd.shape,
            "mode_v": mv, "mode_i_dtype": str(mi.dtype),
            "median_all": paddle.median(x, keepdim=True)}


@program(item="fresh")
def f13_reduce_nan_aware(paddle):
    x = _leaf(paddle, [[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])
    s = paddle.nansum(x, axis=1)
    m = paddle.nanmean(x, axis=1)
    (s.sum() + paddle.nansum(m)).backward()
    return {"s": s, "m": m, "grad": x.grad, "plain_sum": x.sum(axis=1),
            "nansum_all": paddle.nansum(x), "nanmean_keep": paddle.nanmean(x, axis=0,
                                                                         keepdim=True)}


@program(item="fresh")
def f13_reduce_count_nonzero(paddle):
    x = paddle.to_tensor([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]])
    b = paddle.to_tensor([True, False, True])
    c = paddle.count_nonzero(x, axis=1)
    return {"all": paddle.count_nonzero(x), "c": c, "c_dtype": str(c.dtype),
            "keep": paddle.count_nonzero(x, axis=[0, 1], keepdim=True),
            "bool": paddle.count_nonzero(b),
            "nan": paddle.count_nonzero(paddle.to_tensor([np.nan, 0.0]))}


@program(item="fresh")
def f13_reduce_integer_and_bool_dtypes(paddle):
    i32 = paddle.to_tensor([1, 2, 3], dtype="int32")
    b = paddle.to_tensor([True, True, False])
    i64 = paddle.to_tensor([[1, 2], [3, 4]])
    return {"sum_i32": dt(lambda: i32.sum()), "sum_b": dt(lambda: b.sum()),
            "sum_dtype": dt(lambda: paddle.sum(i32, dtype="float64")),
            "mean_i": dt(lambda: i64.mean()), "max_i": dt(lambda: i64.max(axis=0)),
            "cumsum_b": dt(lambda: paddle.cumsum(b)), "prod_b": dt(lambda: paddle.prod(b))}


@program(item="fresh")
def f13_reduce_empty_and_zero_dim(paddle):
    e = paddle.ones([0, 3])
    z = _leaf(paddle, 3.0)
    s = z.sum()
    m = paddle.mean(z, axis=0)
    (s + m).backward()
    return {"sum0": e.sum(axis=0), "sum1": e.sum(axis=1).shape, "mean0": e.mean(axis=0),
            "prod0": paddle.prod(e, axis=0), "max_empty": attempt(lambda: e.max()),
            "s": s, "s_shape": s.shape, "m_shape": m.shape, "gz": z.grad,
            "bad": attempt(lambda: z.sum(axis=1))}


# ---------------------------------------------------------------- sorting and searching


@program(item="fresh")
def f13_sort_argsort_stable_descending(paddle):
    x = paddle.to_tensor([3.0, 1.0, 2.0, 1.0, 3.0, 0.0])
    i = paddle.to_tensor([[2, 2, 1], [0, 5, 5]])
    return {"sort": paddle.sort(x), "sort_desc": paddle.sort(x, descending=True),
            "argsort_stable": paddle.argsort(x, stable=True),
            "argsort_desc_stable": paddle.argsort(x, descending=True, stable=True),
            "int_axis0": paddle.argsort(i, axis=0, stable=True),
            "int_sort": paddle.sort(i, axis=1, descending=True),
            "dtype": str(paddle.argsort(x).dtype),
            "nan": paddle.sort(paddle.to_tensor([2.0, np.nan, 1.0]))}


@program(item="fresh")
def f13_sort_grad(paddle):
    x = _leaf(paddle, [[0.3, -1.0, 2.0], [5.0, 4.0, 6.0]])
    s = paddle.sort(x, axis=1, descending=True)
    (s * paddle.to_tensor([[1.0, 2.0, 3.0]], dtype="float64")).sum().backward()
    x2 = _leaf(paddle, [0.3, -1.0, 2.0])
    w = paddle.to_tensor([1.0, 10.0, 100.0], dtype="float64")
    (paddle.sort(x2, axis=0) * w).sum().backward()
    return {"s": s, "grad": x.grad, "grad2": x2.grad}


@program(item="fresh")
def f13_topk_grad_and_options(paddle):
    x = _leaf(paddle, [[1.0, 5.0, 3.0, 4.0], [9.0, 0.0, 8.0, 7.0]])
    v, i = paddle.topk(x, 2)
    (v * paddle.to_tensor([[1.0, 2.0]], dtype="float64")).sum().backward()
    sv, si = paddle.topk(x, 3, axis=1, largest=False)
    cv, ci = paddle.topk(x, 1, axis=0)
    return {"v": v, "i": i, "i_dtype": str(i.dtype), "grad": x.grad, "sv": sv, "si": si,
            "cv": cv, "ci": ci, "too_big": attempt(paddle.topk, x, 5)}


@program(item="fresh")
def f13_kthvalue(paddle):
    x = _leaf(paddle, [[4.0, 1.0, 3.0], [2.0, 9.0, 7.0]])
    v, i = paddle.kthvalue(x, 2, axis=1)
    v.sum().backward()
    kv, ki = paddle.kthvalue(x, 1, axis=0, keepdim=True)
    dv, di = paddle.kthvalue(paddle.to_tensor([5.0, 1.0, 4.0, 2.0]), 3)
    return {"v": v, "i": i, "grad": x.grad, "kv": kv, "ki": ki, "k_shape": kv.shape,
            "dv": dv, "di": di, "bad_k": attempt(paddle.kthvalue, x, 4, axis=1)}


@program(item="fresh")
def f13_unique_counts_inverse(paddle):
    x = paddle.to_tensor([3, 1, 2, 3, 1, 3])
    u, idx, inv, cnt = paddle.unique(x, return_index=True, return_inverse=True,
                                     return_counts=True)
    m = paddle.to_tensor([[1, 2], [3, 4], [1, 2]])
    ur, rinv = paddle.unique(m, return_inverse=True, axis=0)
    uc = paddle.unique_consecutive(paddle.to_tensor([1, 1, 2, 2, 2, 1]), return_counts=True)
    f = paddle.unique(paddle.to_tensor([[2.5, 1.0], [2.5, -1.0]]))
    return {"u": u, "idx": idx, "inv": inv, "cnt": cnt, "ur": ur, "rinv": rinv,
            "uc": list(uc), "f": f, "i32": str(paddle.unique(x, dtype="int32",
                                                            return_counts=True)[1].dtype)}


@program(item="fresh")
def f13_nonzero_and_where(paddle):
    x = paddle.to_tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    nz = paddle.nonzero(x)
    tup = paddle.nonzero(x, as_tuple=True)
    cond_only = paddle.where(x > 0)
    a = _leaf(paddle, [1.0, -2.0, 3.0])
    b = _leaf(paddle, [10.0, 20.0, 30.0])
    w = paddle.where(a > 0, a * a, b)
    w.sum().backward()
    scal = paddle.where(x > 0, x, paddle.to_tensor(-1.0))
    return {"nz": nz, "nz_dtype": str(nz.dtype), "tup": list(tup), "cond_only": list(cond_only),
            "w": w, "ga": a.grad, "gb": b.grad, "scal": scal,
            "empty": paddle.nonzero(paddle.zeros([3])).shape}


@program(item="fresh")
def f13_masked_fill_and_select(paddle):
    x = _leaf(paddle, _ramp(2, 3))
    mask = paddle.to_tensor([[True], [False]])
    y = paddle.masked_fill(x, mask, -9.0)
    y2 = x.masked_fill(x < 0, 0.0)
    sel = paddle.masked_select(x, x > 1.0)
    (y.sum() + 2 * y2.sum() + 3 * sel.sum()).backward()
    return {"y": y, "y2": y2, "sel": sel, "grad": x.grad}


@program(item="fresh")
def f13_bincount_histogram(paddle):
    x = paddle.to_tensor([0, 1, 1, 3, 5, 5, 5])
    w = paddle.to_tensor([0.5, 1.0, 1.0, 2.0, 0.1, 0.1, 0.1])
    h = paddle.histogram(paddle.to_tensor([1.0, 2.0, 1.0, 4.0, 2.5]), bins=3, min=0, max=6)
    h_auto = paddle.histogram(paddle.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=3)
    return {"plain": paddle.bincount(x), "weighted": paddle.bincount(x, weights=w),
            "minlength": paddle.bincount(x, minlength=9),
            "neg": attempt(paddle.bincount, paddle.to_tensor([1, -1])),
            "h": h, "h_dtype": str(h.dtype), "h_auto": h_auto,
            "empty": paddle.bincount(paddle.to_tensor(np.array([], dtype="int64")))}


@program(item="fresh")
def f13_searchsorted_bucketize(paddle):
    seq = paddle.to_tensor([1.0, 3.0, 5.0, 7.0])
    v = paddle.to_tensor([[0.0, 3.0, 6.0], [7.0, 8.0, 5.0]])
    return {"left": paddle.searchsorted(seq, v), "right": paddle.searchsorted(seq, v, right=True),
            "i32": str(paddle.searchsorted(seq, v, out_int32=True).dtype),
            "bucket": paddle.bucketize(v, seq), "bucket_r": paddle.bucketize(v, seq, right=True),
            "batched": paddle.searchsorted(paddle.to_tensor([[1, 2, 3], [2, 4, 6]]),
                                           paddle.to_tensor([[2], [5]]))}


@program(item="fresh")
def f13_argmax_argmin(paddle):
    x = paddle.to_tensor([[1.0, 7.0, 7.0], [-3.0, -3.0, 0.0]])
    return {"flat": paddle.argmax(x), "ax1": paddle.argmax(x, axis=1),
            "keep": paddle.argmin(x, axis=0, keepdim=True),
            "dtype32": str(paddle.argmax(x, axis=1, dtype="int32").dtype),
            "flat_shape": paddle.argmax(x).shape,
            "bad_axis": attempt(paddle.argmin, x, axis=2)}


# ---------------------------------------------------------------- concatenation and reordering


@program(item="fresh")
def f13_concat_stack_grads_and_errors(paddle):
    a = _leaf(paddle, _ramp(2, 3))
    b = _leaf(paddle, _ramp(1, 3))
    c = paddle.concat([a, b], axis=0)
    s = paddle.stack([a, a * 2.0], axis=1)
    (c * paddle.to_tensor(np.arange(9.0).reshape(3, 3))).sum().backward()
    s.sum().backward()
    return {"c": c, "s_shape": s.shape, "ga": a.grad, "gb": b.grad,
            "bad_concat": attempt(paddle.concat, [a, paddle.ones([2, 2], dtype="float64")], 0),
            "bad_stack": attempt(paddle.stack, [a, b]),
            "neg_axis": paddle.concat([a, a], axis=-1).shape,
            "mixed": attempt(lambda: paddle.concat([paddle.ones([1]),
                                                    paddle.ones([1], dtype="int64")]))}


@program(item="fresh")
def f13_split_chunk_unbind_grads(paddle):
    x = _leaf(paddle, _ramp(6, 2))
    p1, p2, p3 = paddle.split(x, [1, -1, 2], axis=0)
    (p1.sum() + 2 * p2.sum() + 3 * p3.sum()).backward()
    chunks = paddle.chunk(paddle.to_tensor(np.arange(6.0)), 3)
    u = paddle.unbind(paddle.to_tensor(_ramp(2, 3)), axis=1)
    return {"shapes": [p.shape for p in (p1, p2, p3)], "grad": x.grad, "chunks": chunks,
            "u": u, "bad": attempt(paddle.split, x, 4), "eq": [t.shape for t in paddle.split(x, 3)],
            "bad_chunk": attempt(paddle.chunk, x, 4)}


@program(item="fresh")
def f13_tile_repeat_interleave_grads(paddle):
    x = _leaf(paddle, [[1.0, 2.0], [3.0, 4.0]])
    t = paddle.tile(x, [2, 3])
    r = paddle.repeat_interleave(x, 2, axis=1)
    rt = paddle.repeat_interleave(x, paddle.to_tensor([1, 3]), axis=0)
    flat = paddle.repeat_interleave(x, 2)
    (t.sum() + 2 * r.sum() + 5 * rt.sum() + 7 * flat.sum()).backward()
    return {"t_shape": t.shape, "r": r, "rt": rt, "flat": flat, "grad": x.grad,
            "tile_short": paddle.tile(paddle.to_tensor([1, 2]), [2, 1, 2]).shape}


@program(item="fresh")
def f13_roll_flip_rot90(paddle):
    x = _leaf(paddle, _ramp(2, 3))
    r = paddle.roll(x, 1)
    r2 = paddle.roll(x, shifts=[-1, 2], axis=[0, 1])
    f = paddle.flip(x, axis=[0, 1])
    o = paddle.rot90(x, k=1, axes=[0, 1])
    o3 = paddle.rot90(x, k=-1)
    w = paddle.to_tensor(np.arange(6.0).reshape(2, 3))
    ((r * w).sum() + (f * w).sum() + (o3 * w.T).sum()).backward()
    return {"r": r, "r2": r2, "f": f, "o": o, "o3": o3, "grad": x.grad,
            "bad": attempt(paddle.rot90, x, 1, [0, 0])}


@program(item="fresh")
def f13_squeeze_unsqueeze_flatten(paddle):
    x = _leaf(paddle, _ramp(1, 3, 1, 2))
    a = paddle.squeeze(x)
    b = paddle.squeeze(x, axis=[0, 2])
    c = paddle.squeeze(x, axis=1)
    d = paddle.unsqueeze(a, axis=[0, 3])
    f = paddle.flatten(x, start_axis=1, stop_axis=2)
    (a.sum() + d.sum() + (f * f).sum()).backward()
    return {"a": a.shape, "b": b.shape, "c": c.shape, "d": d.shape, "f": f.shape,
            "grad": x.grad, "zero_d": paddle.flatten(paddle.to_tensor(2.0)).shape}


@program(item="fresh")
def f13_reshape_infer_and_errors(paddle):
    x = paddle.to_tensor(np.arange(12.0))
    return {"infer": x.reshape([-1, 4]).shape, "zero_copy": paddle.reshape(
                paddle.ones([2, 3, 4]), [0, -1]).shape,
            "bad": attempt(x.reshape, [5, -1]), "two_neg": attempt(x.reshape, [-1, -1]),
            "view_as": x.reshape([3, 4]).reshape([2, 6]), "empty": paddle.ones([0, 4]).reshape(
                [-1, 2]).shape}


# ---------------------------------------------------------------- gather and scatter families


@program(item="fresh")
def f13_gather_nd_grad(paddle):
    x = _leaf(paddle, _ramp(3, 4))
    idx = paddle.to_tensor([[0, 1], [2, 3], [0, 1]])
    g = paddle.gather_nd(x, idx)
    rows = paddle.gather_nd(x, paddle.to_tensor([[2], [0]]))
    (g.sum() + 10 * rows.sum()).backward()
    return {"g": g, "rows": rows, "grad": x.grad,
            "gather": paddle.gather(x, paddle.to_tensor([2, 2]), axis=0)}


@program(item="fresh")
def f13_scatter_nd_add_grad(paddle):
    x = _leaf(paddle, np.zeros((3, 2)))
    upd = _leaf(paddle, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    idx = paddle.to_tensor([[1], [1], [2]])
    y = paddle.scatter_nd_add(x, idx, upd)
    (y * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype="float64")).sum().backward()
    sn = paddle.scatter_nd(paddle.to_tensor([[0, 0], [0, 0]]), paddle.to_tensor([1.0, 2.0]),
                           [2, 2])
    return {"y": y, "gx": x.grad, "gu": upd.grad, "sn": sn}


@program(item="fresh")
def f13_scatter_overwrite_grad(paddle):
    x = _leaf(paddle, _ramp(3, 2))
    upd = _leaf(paddle, [[10.0, 20.0], [30.0, 40.0]])
    y = paddle.scatter(x, paddle.to_tensor([2, 0]), upd)
    (y * y).sum().backward()
    acc = paddle.scatter(paddle.zeros([3]), paddle.to_tensor([1, 1]),
                         paddle.to_tensor([1.0, 2.0]), overwrite=False)
    return {"y": y, "gx": x.grad, "gu": upd.grad, "acc": acc}


@program(item="fresh", differs=(["scalar_value"], PUT_NUMBER))
def f13_take_put_along_axis(paddle):
    x = _leaf(paddle, _ramp(2, 3))
    idx = paddle.to_tensor([[2, 0], [1, 1]])
    t = paddle.take_along_axis(x, idx, axis=1)
    scalar_value = attempt(paddle.put_along_axis, x, idx, 0.0, axis=1)
    p = paddle.put_along_axis(x, idx, paddle.zeros([2, 2], dtype="float64"), axis=1)
    (t.sum() + (p * 3.0).sum()).backward()
    base = paddle.ones([2, 3])
    i2 = paddle.to_tensor([[0, 0], [2, 2]])
    v2 = paddle.to_tensor([[2.0, 3.0], [4.0, 5.0]])
    return {"t": t, "p": p, "grad": x.grad, "scalar_value": scalar_value,
            "add": paddle.put_along_axis(base, i2, v2, 1, reduce="add"),
            "mul": paddle.put_along_axis(base, i2, v2, 1, reduce="mul"),
            "amax": paddle.put_along_axis(base, i2, v2, 1, reduce="amax"),
            "mean_excl": paddle.put_along_axis(base, i2, v2, 1, reduce="mean",
                                               include_self=False)}


@program(item="fresh")
def f13_index_add_and_index_select(paddle):
    x = _leaf(paddle, np.zeros((3, 2)))
    v = _leaf(paddle, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y = paddle.index_add(x, paddle.to_tensor([0, 2, 0]), 0, v)
    w = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype="float64")
    (y * w).sum().backward()
    z = _leaf(paddle, _ramp(2, 4))
    s = paddle.index_select(z, paddle.to_tensor([3, 0, 3]), axis=1)
    (s * s).sum().backward()
    return {"y": y, "gx": x.grad, "gv": v.grad, "s": s, "gz": z.grad,
            "bad": attempt(paddle.index_select, z, paddle.to_tensor([4]), 1)}


@program(item="fresh")
def f13_gather_scatter_second_order(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    g = paddle.gather(x, paddle.to_tensor([0, 2, 2]))
    y = (g ** 3).sum()
    d = paddle.grad(y, x, create_graph=True)[0]
    d2 = paddle.grad(d.sum(), x)[0]
    return {"d": d, "d2": d2}


# ---------------------------------------------------------------- einsum and linalg


@program(item="fresh")
def f13_einsum_equations_grads(paddle):
    a = _leaf(paddle, _ramp(2, 3))
    b = _leaf(paddle, _ramp(3, 4))
    sq = _leaf(paddle, _ramp(3, 3))
    mm = paddle.einsum("ij,jk->ik", a, b)
    tr = paddle.einsum("ii->", sq)
    dg = paddle.einsum("ii->i", sq)
    outer = paddle.einsum("i,j->ij", a[0], b[:, 0])
    implicit = paddle.einsum("ij,jk", a, b)
    (mm.sum() + 2 * tr + dg.sum() + outer.sum()).backward()
    return {"mm": mm, "tr": tr, "dg": dg, "outer_shape": outer.shape, "implicit": implicit,
            "ga": a.grad, "gb": b.grad, "gsq": sq.grad}


@program(item="fresh")
def f13_einsum_batch_and_ellipsis(paddle):
    x = _leaf(paddle, _ramp(2, 3, 4))
    y = _leaf(paddle, _ramp(2, 4, 5))
    bmm = paddle.einsum("bij,bjk->bik", x, y)
    ell = paddle.einsum("...ij->...ji", x)
    red = paddle.einsum("bij->j", x)
    (bmm.sum() + (ell * ell).sum() + red.sum()).backward()
    bad = attempt(paddle.einsum, "ij,jk->ik", x, y)
    return {"bmm": bmm, "ell_shape": ell.shape, "red": red, "gx": x.grad, "gy": y.grad,
            "bad": bad}


@program(item="fresh", rtol=1e-4, atol=1e-6)
def f13_linalg_det_inv_solve(paddle):
    a = _leaf(paddle, [[4.0, 1.0], [2.0, 3.0]])
    b = _leaf(paddle, [[1.0], [2.0]])
    det = paddle.linalg.det(a)
    inv = paddle.linalg.inv(a)
    sol = paddle.linalg.solve(a, b)
    (det + inv.sum() + sol.sum()).backward()
    sing = paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]])
    return {"det": det, "inv": inv, "sol": sol, "ga": a.grad, "gb": b.grad,
            "sing_det": paddle.linalg.det(sing), "sing_inv": attempt(paddle.linalg.inv, sing),
            "slogdet": paddle.linalg.slogdet(a.detach()),
            "rank": paddle.linalg.matrix_rank(sing)}


@program(item="fresh", rtol=1e-4, atol=1e-6)
def f13_linalg_norms_grads(paddle):
    x = _leaf(paddle, [[3.0, -4.0], [1.0, 2.0]])
    fro = paddle.linalg.norm(x)
    l1 = paddle.linalg.norm(x, p=1, axis=1)
    inf = paddle.linalg.norm(x, p=np.inf, axis=0)
    (fro + l1.sum() + inf.sum()).backward()
    z = _leaf(paddle, [0.0, 0.0])
    zn = paddle.linalg.norm(z)
    zn.backward()
    return {"fro": fro, "l1": l1, "inf": inf, "grad": x.grad, "zn": zn, "gz": z.grad,
            "vec": paddle.linalg.vector_norm(x, p=3), "mat_nuc": paddle.linalg.matrix_norm(
                x.detach(), p="nuc"), "dist": paddle.dist(x.detach(), paddle.zeros([2, 2],
                                                                                  "float64"))}


@program(item="fresh", rtol=1e-4, atol=1e-6)
def f13_linalg_decompositions_reconstruct(paddle):
    a = paddle.to_tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], dtype="float64")
    q, r = paddle.linalg.qr(a)
    u, s, vh = paddle.linalg.svd(a)
    w, v = paddle.linalg.eigh(a)
    ch = paddle.linalg.cholesky(a)
    return {"qr": q @ r, "r_upper": paddle.allclose(r, paddle.triu(r)).item(),
            "svd": (u * s) @ vh, "s": s, "eig": w, "eigh_rec": (v * w) @ v.T,
            "chol": ch @ ch.T, "chol_lower": paddle.allclose(ch, paddle.tril(ch)).item(),
            "eigvalsh": paddle.linalg.eigvalsh(a)}


@program(item="fresh", rtol=1e-4, atol=1e-6)
def f13_linalg_eigh_grad_and_batched(paddle):
    a = _leaf(paddle, [[2.0, 1.0], [1.0, 3.0]])
    w, _ = paddle.linalg.eigh(a)
    w.sum().backward()
    batch = paddle.to_tensor(np.stack([np.eye(2) * 2.0, [[1.0, 2.0], [3.0, 4.0]]]))
    return {"w": w, "grad": a.grad, "bdet": paddle.linalg.det(batch),
            "binv": paddle.linalg.inv(batch), "pinv": paddle.linalg.pinv(
                paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]], dtype="float64")),
            "cross": paddle.cross(paddle.to_tensor([[1.0, 0.0, 0.0]]),
                                  paddle.to_tensor([[0.0, 1.0, 0.0]]), axis=1)}


# ---------------------------------------------------------------- cumulative and misc reductions


@program(item="fresh")
def f13_cumsum_cumprod_cummax_grads(paddle):
    x = _leaf(paddle, [[1.0, 3.0, 2.0], [4.0, 0.5, 5.0]])
    cs = paddle.cumsum(x, axis=1)
    cp = paddle.cumprod(x, dim=1)
    cm, ci = paddle.cummax(x, axis=1)
    (cs.sum() + cp.sum() + cm.sum()).backward()
    return {"cs": cs, "cp": cp, "cm": cm, "ci": ci, "grad": x.grad,
            "flat": paddle.cumsum(x), "lse": paddle.logcumsumexp(x.detach(), axis=0)}


@program(item="fresh")
def f13_clip_where_grad_boundaries(paddle):
    x = _leaf(paddle, [-2.0, -1.0, 0.0, 1.0, 2.0])
    y = paddle.clip(x, -1.0, 1.0)
    y.sum().backward()
    i = paddle.to_tensor([-5, 0, 5])
    return {"y": y, "grad": x.grad, "int_clip": paddle.clip(i, -2, 2),
            "int_clip_dtype": str(paddle.clip(i, -2, 2).dtype),
            "min_only": paddle.clip(paddle.to_tensor([1.0, 5.0]), min=2.0)}


# ---------------------------------------------------------------- random seeding


@program(item="fresh")
def f13_seed_determinism_and_stats(paddle):
    paddle.seed(7)
    a = paddle.randn([1000])
    b = paddle.rand([2, 3])
    paddle.seed(7)
    a2 = paddle.randn([1000])
    b2 = paddle.rand([2, 3])
    c = paddle.randn([1000])
    u = paddle.uniform([20000], min=-2.0, max=2.0)
    return {"same_a": bool((a == a2).all()), "same_b": bool((b == b2).all()),
            "differs": bool((a != c).any()), "shape": b.shape, "dtype": str(a.dtype),
            "u_in_range": bool(((u >= -2.0) & (u < 2.0)).all()),
            "u_mean_close": abs(float(u.mean())) < 0.05,
            "n_std_close": abs(float(a.std()) - 1.0) < 0.1}


@program(item="fresh")
def f13_random_integer_ops(paddle):
    paddle.seed(11)
    r = paddle.randint(0, 5, [4000])
    p = paddle.randperm(10)
    bern = paddle.bernoulli(paddle.full([5000], 0.25))
    mult = paddle.multinomial(paddle.to_tensor([0.0, 1.0, 0.0]), 3, replacement=True)
    n = paddle.normal(mean=3.0, std=0.5, shape=[5000])
    return {"r_dtype": str(r.dtype), "r_range": [int(r.min()), int(r.max())],
            "r_all_values": int(paddle.unique(r).shape[0]),
            "perm_sorted": paddle.sort(p), "perm_dtype": str(p.dtype),
            "bern_mean_ok": abs(float(bern.mean()) - 0.25) < 0.03,
            "mult": mult, "n_mean_ok": abs(float(n.mean()) - 3.0) < 0.05,
            "n_std_ok": abs(float(n.std()) - 0.5) < 0.05, "bad_randint": attempt(
                paddle.randint, 5, 5, [2])}


@program(item="fresh")
def f13_random_like_and_dropout_stats(paddle):
    paddle.seed(3)
    base = paddle.ones([100, 100], dtype="float64")
    rl = paddle.rand_like(base)
    nl = paddle.randn_like(base)
    d = paddle.nn.functional.dropout(base, p=0.3)
    d_eval = paddle.nn.functional.dropout(base, p=0.3, training=False)
    kept = float((d != 0).astype("float64").mean())
    return {"rl_dtype": str(rl.dtype), "nl_shape": nl.shape, "kept_ok": abs(kept - 0.7) < 0.03,
            "scaled": sorted({round(float(v), 6) for v in np.unique(d.numpy())}),
            "eval_same": bool((d_eval == base).all())}
