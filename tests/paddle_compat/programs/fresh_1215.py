"""Fresh differential programs (batch 1215): a NumPy user porting array code to Paddle 3.3.1:
indexing and setitem (steps, negative bounds, None/Ellipsis, integer arrays, bool masks,
broadcasting, gradients), creation, manipulation, search and sort, the gather/scatter family,
dtype promotion, integer division and modulo, reductions, and their gradients; written
without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

SLIPS = ("docs/paddle.md, Engine: Paddle 3.3.1 slips that fresh programs met; opsdk gives "
         "NumPy's/PyTorch's answer")
DOUBLE = ("docs/paddle.md, Engine: every op differentiates to every order; Paddle 3.3.1 has no "
          "double grad for prod, cumsum and strided slices")
PROD_ZERO = ("docs/paddle.md, Values at special points: prod's gradient at a zero entry is the "
             "product of the others (Paddle: nan)")
GARBAGE = ("docs/paddle.md, Errors: where Paddle takes bad input and returns garbage (argmax "
           "over an empty axis), opsdk refuses it")


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _a(shape, start=0.0, step=0.5):
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype="float64")).reshape(shape)


def _grad(paddle, out, x, w=None):
    """sum(out * w).backward() with fixed weights; returns x.grad."""
    if w is None:
        w = np.arange(1, int(np.prod(out.shape)) + 1, dtype="float64").reshape(out.shape)
    (out * paddle.to_tensor(w.astype(str(out.dtype).split(".")[-1]))).sum().backward()
    return x.grad


# ---------------------------------------------------------------- basic indexing


@program(item="fresh")
def f15_slice_steps_negative_bounds(paddle):
    x = _t(paddle, _a([10]))
    parts = {"a": x[1:8:3], "b": x[-3:], "c": x[:-7], "d": x[8:2:-2], "e": x[::-1],
             "f": x[-1:-11:-3], "g": x[5:2], "h": x[-100:100]}
    y = x[8:2:-2] * 2.0 + x[::-1][:3].sum()
    g = _grad(paddle, y, x)
    return dict(parts, g=g)


@program(item="fresh")
def f15_slice_2d_steps_grad(paddle):
    x = _t(paddle, _a([4, 5]))
    y = x[::2, 1::2]
    z = x[-1, ::-2]
    g = _grad(paddle, paddle.concat([y.flatten(), z]), x)
    return {"y": y, "z": z, "g": g}


@program(item="fresh", differs=(["f"], SLIPS))
def f15_none_ellipsis_index(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    a = x[None]
    b = x[..., None]
    c = x[:, None, 1]
    d = x[..., 2]
    e = x[0, ..., 1:3]
    f = x[None, ..., None, 0]
    g = _grad(paddle, e * 3.0 + d[0, :2], x)
    return {"a": a.shape, "b": b.shape, "c": c, "d": d, "e": e, "f": f.shape, "g": g}


@program(item="fresh")
def f15_integer_scalar_index_0d(paddle):
    x = _t(paddle, _a([3, 4]))
    s = x[1, 2]
    r = x[-1]
    v = paddle.to_tensor(_a([5]))
    e = v[3]
    z = paddle.to_tensor(7.0)
    return {"s": s, "s_shape": s.shape, "r": r, "e_shape": e.shape, "e": e,
            "z_ndim": z.ndim, "z_none": z[None], "item": float(x[2, 3])}


@program(item="fresh")
def f15_index_out_of_range_errors(paddle):
    x = paddle.to_tensor(_a([3, 4]))
    return {"row": attempt(lambda: x[3]), "neg": attempt(lambda: x[-4]),
            "col": attempt(lambda: x[0, 4]), "too_many": attempt(lambda: x[0, 0, 0]),
            "ok_slice": x[5:], "ok_shape": x[5:].shape}


@program(item="fresh")
def f15_integer_array_index_grad(paddle):
    x = _t(paddle, _a([5, 3]))
    idx = paddle.to_tensor([4, 0, 4, -1])
    y = x[idx]
    g = _grad(paddle, y, x)
    lst = x[[1, 3]]
    return {"y": y, "g": g, "lst": lst}


@program(item="fresh")
def f15_two_integer_arrays_broadcast(paddle):
    x = _t(paddle, _a([4, 5]))
    rows = paddle.to_tensor([[0], [3]])
    cols = paddle.to_tensor([1, 4, 1])
    y = x[rows, cols]
    g = _grad(paddle, y, x)
    return {"y": y, "shape": y.shape, "g": g}


@program(item="fresh")
def f15_array_index_with_slice(paddle):
    x = _t(paddle, _a([3, 4, 5]))
    idx = paddle.to_tensor([2, 0])
    a = x[:, idx]
    b = x[idx, 1:3]
    c = x[1, :, idx]
    g = _grad(paddle, b, x)
    return {"a": a, "a_shape": a.shape, "b": b, "c": c, "c_shape": c.shape, "g": g}


@program(item="fresh")
def f15_bool_mask_index_grad(paddle):
    x = _t(paddle, [[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    m = x > 0
    y = x[m]
    g = _grad(paddle, y, x)
    none = x[x > 100]
    return {"y": y, "g": g, "none": none, "none_shape": none.shape, "m": m}


@program(item="fresh")
def f15_bool_row_mask(paddle):
    x = _t(paddle, _a([4, 3]))
    rm = paddle.to_tensor([True, False, True, True])
    y = x[rm]
    z = x[:, paddle.to_tensor([False, True, True])]
    g = _grad(paddle, y, x)
    bad = attempt(lambda: x[paddle.to_tensor([True, False])])
    return {"y": y, "z": z, "g": g, "bad": bad}


@program(item="fresh")
def f15_bool_python_list_index(paddle):
    x = paddle.to_tensor(_a([4]))
    return {"list_bool": x[[True, False, True, False]], "list_int": x[[3, 1]],
            "tensor_bool_scalar": attempt(lambda: x[paddle.to_tensor(True)])}


# ---------------------------------------------------------------- setitem


@program(item="fresh")
def f15_setitem_scalar_and_broadcast(paddle):
    x = paddle.zeros([3, 4])
    x[0] = 1.0
    x[1, 1:3] = paddle.to_tensor([5.0, 6.0])
    x[:, -1] = paddle.to_tensor([7.0, 8.0, 9.0])
    x[2, ::2] = 3
    return {"x": x, "dtype": str(x.dtype).split(".")[-1]}


@program(item="fresh")
def f15_setitem_row_broadcast(paddle):
    x = paddle.zeros([3, 4], dtype="float64")
    x[1:] = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64")
    y = paddle.ones([2, 3, 2])
    y[..., 0] = paddle.to_tensor([[10.0], [20.0]])
    bad = attempt(lambda: x.__setitem__(0, paddle.to_tensor([1.0, 2.0], dtype="float64")))
    return {"x": x, "y": y, "bad": bad}


@program(item="fresh")
def f15_setitem_bool_mask(paddle):
    x = paddle.to_tensor(_a([2, 4], -1.0))
    x[x < 0] = 0.0
    y = paddle.to_tensor(_a([2, 4]))
    y[y > 1.5] = paddle.to_tensor(-1.0, dtype="float64")
    return {"x": x, "y": y}


@program(item="fresh")
def f15_setitem_int_array(paddle):
    x = paddle.zeros([5], dtype="int64")
    x[paddle.to_tensor([0, 3])] = 7
    y = paddle.zeros([3, 3])
    y[[0, 2]] = paddle.to_tensor([1.0, 2.0, 3.0])
    return {"x": x, "y": y}


@program(item="fresh")
def f15_setitem_grad_value(paddle):
    v = _t(paddle, [2.0, 3.0])
    x = paddle.zeros([4], dtype="float64")
    x[1:3] = v
    y = (x * paddle.to_tensor([1.0, 10.0, 100.0, 1000.0], dtype="float64")).sum()
    y.backward()
    return {"x": x, "y": y, "gv": v.grad, "x_sg": x.stop_gradient}


@program(item="fresh")
def f15_setitem_grad_through_target(paddle):
    a = _t(paddle, [1.0, 2.0, 3.0, 4.0])
    x = a * 2.0
    x[0] = 0.0
    x[2:] = paddle.to_tensor([9.0, 9.0], dtype="float64")
    x.sum().backward()
    return {"x": x, "ga": a.grad}


@program(item="fresh")
def f15_setitem_leaf_requires_grad_error(paddle):
    a = _t(paddle, [1.0, 2.0, 3.0])

    def write():
        a[0] = 5.0
        return a

    return {"res": attempt(write)}


@program(item="fresh", differs=(["gv"], SLIPS))
def f15_setitem_broadcast_grad_value(paddle):
    v = _t(paddle, [[1.0], [2.0]])
    x = paddle.zeros([2, 3], dtype="float64")
    x[:, :] = v
    g = attempt(_grad, paddle, x, v)
    return {"x": x, "gv": g, "x_sg": x.stop_gradient}


@program(item="fresh")
def f15_setitem_dtype_cast(paddle):
    x = paddle.zeros([3], dtype="int64")
    x[0] = 2.7
    x[1] = True
    f = paddle.zeros([2], dtype="float32")
    f[0] = 3
    b = paddle.zeros([3], dtype="bool")
    b[1] = 1
    return {"x": x, "f": f, "b": b}


# ---------------------------------------------------------------- creation


@program(item="fresh")
def f15_arange_variants(paddle):
    return {"a": paddle.arange(5), "b": paddle.arange(1, 2, 0.25), "c": paddle.arange(5, 0, -2),
            "d": paddle.arange(0, 1, 0.3, dtype="float64"), "e": paddle.arange(3.0),
            "f": paddle.arange(2, 2), "f_shape": paddle.arange(2, 2).shape,
            "g": paddle.arange(10, 0), "zero_step": attempt(lambda: paddle.arange(0, 5, 0))}


@program(item="fresh")
def f15_linspace_and_logspace(paddle):
    return {"a": paddle.linspace(0, 1, 5), "b": paddle.linspace(2, -2, 3, dtype="float64"),
            "one": paddle.linspace(3, 7, 1), "i": paddle.linspace(0, 10, 4, dtype="int64"),
            "log": paddle.logspace(0, 2, 3), "empty": paddle.linspace(0, 1, 0).shape}


@program(item="fresh")
def f15_full_and_like(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    return {"full": paddle.full([2, 3], 1.5), "full_int": paddle.full([2], 3, dtype="int64"),
            "full_bool": paddle.full([2], True, dtype="bool"),
            "zl": paddle.zeros_like(x), "ol": paddle.ones_like(x, dtype="float32"),
            "fl": paddle.full_like(x, 2.5), "el": paddle.empty_like(x).shape,
            "full0": paddle.full([], 4.0), "fullempty": paddle.full([0, 3], 1.0).shape}


@program(item="fresh")
def f15_eye_variants(paddle):
    return {"sq": paddle.eye(3), "rect": paddle.eye(2, 4), "tall": paddle.eye(4, 2, dtype="int64"),
            "zero": paddle.eye(0).shape}


@program(item="fresh")
def f15_meshgrid_ij(paddle):
    a = paddle.to_tensor([1.0, 2.0, 3.0])
    b = paddle.to_tensor([10.0, 20.0])
    gx, gy = paddle.meshgrid(a, b)
    hx, hy = paddle.meshgrid([a, b])
    return {"gx": gx, "gy": gy, "hx": hx.shape, "hy": hy}


@program(item="fresh")
def f15_tril_triu_diagonals(paddle):
    x = _t(paddle, _a([3, 4], 1.0, 1.0))
    lo = paddle.tril(x, -1)
    up = paddle.triu(x, 1)
    g = _grad(paddle, lo + up * 2.0, x)
    b = paddle.triu(paddle.ones([2, 3, 3]), 0)
    return {"lo": lo, "up": up, "g": g, "b": b, "t0": paddle.tril(x, 5)}


@program(item="fresh")
def f15_diag_vector_matrix(paddle):
    v = _t(paddle, [1.0, 2.0, 3.0])
    m = paddle.diag(v, offset=1)
    g = _grad(paddle, m, v)
    x = _t(paddle, _a([3, 4]))
    d = paddle.diag(x, -1)
    g2 = _grad(paddle, d, x)
    return {"m": m, "g": g, "d": d, "g2": g2, "pad": paddle.diag(paddle.to_tensor([1, 2]),
                                                                padding_value=9)}


@program(item="fresh")
def f15_diagonal_diagflat(paddle):
    x = _t(paddle, _a([2, 3, 3]))
    d = paddle.diagonal(x, offset=0, axis1=1, axis2=2)
    g = _grad(paddle, d, x)
    f = paddle.diagflat(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
    return {"d": d, "g": g, "f": f}


# ---------------------------------------------------------------- manipulation


@program(item="fresh")
def f15_concat_stack_grad(paddle):
    a = _t(paddle, _a([2, 3]))
    b = _t(paddle, _a([1, 3], 10.0))
    c = paddle.concat([a, b], axis=0)
    s = paddle.stack([a, a * 2.0], axis=-1)
    g = _grad(paddle, c, a)
    gb = b.grad
    mis = attempt(lambda: paddle.concat([a, paddle.ones([2, 2], dtype="float64")], axis=0))
    return {"c": c, "s": s, "s_shape": s.shape, "ga": g, "gb": gb, "mis": mis}


@program(item="fresh")
def f15_concat_empty_and_mixed(paddle):
    a = paddle.to_tensor(_a([2, 2]))
    e = paddle.zeros([0, 2], dtype="float64")
    r = paddle.concat([e, a, e])
    st = paddle.stack([paddle.to_tensor(1.0), paddle.to_tensor(2.0)])
    neg = paddle.concat([a, a], axis=-1)
    return {"r": r, "st": st, "neg": neg.shape, "st_shape": st.shape}


@program(item="fresh")
def f15_split_sections_and_sizes(paddle):
    x = _t(paddle, _a([6, 2]))
    p = paddle.split(x, 3)
    q = paddle.split(x, [1, -1, 2])
    r = paddle.split(x, 2, axis=-1)
    g = _grad(paddle, q[1] * 3.0 + p[0].sum(), x)
    bad = attempt(lambda: paddle.split(x, 4))
    return {"p": [t.shape for t in p], "q": q, "r0": r[0], "g": g, "bad": bad}


@program(item="fresh")
def f15_chunk_unbind(paddle):
    x = _t(paddle, _a([3, 4]))
    c = paddle.chunk(x, 2, axis=1)
    u = paddle.unbind(x, axis=0)
    g = _grad(paddle, u[2] * 2.0 + c[1][0].sum(), x)
    bad = attempt(lambda: paddle.chunk(x, 2, axis=0))
    return {"c": c, "u": u, "g": g, "bad": bad}


@program(item="fresh")
def f15_tile_grad(paddle):
    x = _t(paddle, [[1.0, 2.0]])
    t = paddle.tile(x, [2, 3])
    t2 = paddle.tile(x, [2, 1, 1])
    g = _grad(paddle, t, x)
    return {"t": t, "t2": t2.shape, "g": g}


@program(item="fresh")
def f15_expand_broadcast_to_grad(paddle):
    x = _t(paddle, [[1.0], [2.0]])
    e = paddle.expand(x, [3, 2, 4])
    b = paddle.broadcast_to(x, [2, 5])
    k = x.expand([-1, 3])
    g = _grad(paddle, e, x)
    bad = attempt(lambda: paddle.expand(x, [3, 3]))
    return {"e": e.shape, "b": b, "k": k, "g": g, "bad": bad,
            "shape": paddle.broadcast_shape([2, 1, 3], [4, 1])}


@program(item="fresh")
def f15_roll_grad(paddle):
    x = _t(paddle, _a([2, 3]))
    a = paddle.roll(x, 1)
    b = paddle.roll(x, shifts=-1, axis=1)
    c = paddle.roll(x, shifts=(1, 2), axis=(0, 1))
    g = _grad(paddle, b, x)
    return {"a": a, "b": b, "c": c, "g": g}


@program(item="fresh")
def f15_flip_rot90_grad(paddle):
    x = _t(paddle, _a([2, 3]))
    f = paddle.flip(x, axis=[0, 1])
    r = paddle.rot90(x)
    r3 = paddle.rot90(x, k=-1)
    r2 = paddle.rot90(x, k=2, axes=[0, 1])
    g = _grad(paddle, r, x)
    return {"f": f, "r": r, "r3": r3, "r2": r2, "g": g}


@program(item="fresh")
def f15_repeat_interleave_grad(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    a = paddle.repeat_interleave(x, 2, axis=0)
    b = paddle.repeat_interleave(x, paddle.to_tensor([1, 3]), axis=1)
    c = paddle.repeat_interleave(x, 2)
    g = _grad(paddle, b, x)
    return {"a": a, "b": b, "c": c, "g": g}


@program(item="fresh")
def f15_moveaxis_transpose(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    m = paddle.moveaxis(x, 0, -1)
    m2 = paddle.moveaxis(x, [0, 1], [2, 0])
    t = paddle.transpose(x, [2, 0, 1])
    g = _grad(paddle, m2, x)
    return {"m": m.shape, "m2": m2, "t": t.shape, "g": g, "T": x[0].T}


@program(item="fresh")
def f15_squeeze_unsqueeze(paddle):
    x = _t(paddle, _a([1, 3, 1, 2]))
    a = paddle.squeeze(x)
    b = paddle.squeeze(x, axis=2)
    c = paddle.squeeze(x, axis=1)
    d = paddle.unsqueeze(a, [0, 3])
    e = paddle.unsqueeze(paddle.to_tensor(1.0), 0)
    g = _grad(paddle, d, x)
    return {"a": a.shape, "b": b.shape, "c": c.shape, "d": d.shape, "e": e, "g": g,
            "axes": paddle.squeeze(x, axis=[0, 2]).shape}


@program(item="fresh")
def f15_flatten_reshape_neg_zero(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    a = paddle.flatten(x)
    b = paddle.flatten(x, 1)
    c = paddle.flatten(x, 0, 1)
    r = paddle.reshape(x, [0, -1])
    r2 = x.reshape([-1, 2, 0])
    g = _grad(paddle, r2, x)
    bad = attempt(lambda: paddle.reshape(x, [5, -1]))
    bad2 = attempt(lambda: paddle.reshape(x, [-1, -1]))
    return {"a": a.shape, "b": b.shape, "c": c.shape, "r": r.shape, "r2": r2, "g": g,
            "bad": bad, "bad2": bad2}


@program(item="fresh")
def f15_reshape_empty_and_0d(paddle):
    e = paddle.zeros([0, 4])
    z = paddle.to_tensor(3.0)
    return {"e": paddle.reshape(e, [2, 0, -1]).shape, "z": paddle.reshape(z, [1, 1]),
            "z2": paddle.reshape(paddle.to_tensor([5.0]), []).shape,
            "flat0": paddle.flatten(z).shape}


# ---------------------------------------------------------------- search and sort


@program(item="fresh")
def f15_where_three_arg_grad(paddle):
    x = _t(paddle, [-1.0, 2.0, -3.0, 4.0])
    y = _t(paddle, [10.0, 20.0, 30.0, 40.0])
    w = paddle.where(x > 0, x, y)
    g = _grad(paddle, w, x)
    s = paddle.where(x > 0, x, paddle.to_tensor(0.0, dtype="float64"))
    return {"w": w, "gx": g, "gy": y.grad, "s": s}


@program(item="fresh")
def f15_where_one_arg_nonzero(paddle):
    x = paddle.to_tensor([[0, 3], [5, 0], [0, 0]])
    w = paddle.where(x != 0)
    n = paddle.nonzero(x)
    nt = paddle.nonzero(x, as_tuple=True)
    e = paddle.nonzero(paddle.zeros([3]))
    return {"w": w, "n": n, "nt": nt, "e": e.shape}


@program(item="fresh")
def f15_argmax_argmin_keepdim(paddle):
    x = paddle.to_tensor([[1.0, 5.0, 5.0], [7.0, 0.0, 7.0]])
    return {"flat": paddle.argmax(x), "ax1": paddle.argmax(x, axis=1),
            "kd": paddle.argmax(x, axis=0, keepdim=True), "mn": paddle.argmin(x, axis=-1),
            "i32": paddle.argmax(x, axis=1, dtype="int32"), "flat_shape": paddle.argmax(x).shape}


@program(item="fresh")
def f15_topk_grad(paddle):
    x = _t(paddle, [[3.0, 1.0, 4.0, 1.5], [9.0, 2.0, 6.0, 5.0]])
    v, i = paddle.topk(x, 2)
    v2, i2 = paddle.topk(x, 1, axis=0, largest=False)
    g = _grad(paddle, v, x)
    return {"v": v, "i": i, "v2": v2, "i2": i2, "g": g, "bad": attempt(lambda: paddle.topk(x, 5))}


@program(item="fresh")
def f15_sort_argsort_grad(paddle):
    x = _t(paddle, [[3.0, -1.0, 2.0], [0.5, 0.25, 4.0]])
    s = paddle.sort(x, axis=-1)
    d = paddle.sort(x, axis=0, descending=True)
    a = paddle.argsort(x, axis=1, descending=True)
    g = _grad(paddle, s, x)
    return {"s": s, "d": d, "a": a, "g": g}


@program(item="fresh")
def f15_unique_options(paddle):
    x = paddle.to_tensor([3, 1, 2, 3, 1, 5])
    u, idx, inv, cnt = paddle.unique(x, return_index=True, return_inverse=True,
                                     return_counts=True)
    m = paddle.to_tensor([[1, 2], [1, 2], [0, 3]])
    um, inv2 = paddle.unique(m, axis=0, return_inverse=True)
    return {"u": u, "idx": idx, "inv": inv, "cnt": cnt, "um": um, "inv2": inv2,
            "plain": paddle.unique(paddle.to_tensor([2.0, 2.0, -1.0]))}


@program(item="fresh")
def f15_unique_consecutive(paddle):
    x = paddle.to_tensor([1, 1, 2, 2, 3, 1, 1, 2])
    o, inv, cnt = paddle.unique_consecutive(x, return_inverse=True, return_counts=True)
    return {"o": o, "inv": inv, "cnt": cnt}


@program(item="fresh")
def f15_searchsorted_bucketize(paddle):
    s = paddle.to_tensor([1.0, 3.0, 5.0, 7.0])
    v = paddle.to_tensor([[0.0, 3.0, 6.0], [7.0, 8.0, 5.0]])
    return {"left": paddle.searchsorted(s, v), "right": paddle.searchsorted(s, v, right=True),
            "i32": paddle.searchsorted(s, v, out_int32=True),
            "b": paddle.bucketize(v, s), "br": paddle.bucketize(v, s, right=True),
            "batched": paddle.searchsorted(paddle.to_tensor([[1.0, 2.0], [0.0, 9.0]]),
                                           paddle.to_tensor([[1.5], [9.0]]))}


@program(item="fresh")
def f15_kthvalue_mode_grad(paddle):
    x = _t(paddle, [[5.0, 1.0, 3.0, 2.0], [2.0, 2.0, 8.0, 8.0]])
    v, i = paddle.kthvalue(x, 2, axis=1)
    g = _grad(paddle, v, x)
    m, mi = paddle.mode(paddle.to_tensor([[1, 3, 3, 2], [4, 4, 1, 1]]), axis=1)
    kd, _ = paddle.kthvalue(x.detach(), 1, axis=0, keepdim=True)
    return {"v": v, "i": i, "g": g, "m": m, "kd": kd}


@program(item="fresh")
def f15_max_min_ties_grad(paddle):
    x = _t(paddle, [[2.0, 5.0, 5.0], [1.0, 1.0, 0.0]])
    m = paddle.max(x, axis=1)
    g = _grad(paddle, m, x)
    y = _t(paddle, [3.0, 3.0, 1.0])
    paddle.amax(y).backward()
    return {"m": m, "g": g, "amax_g": y.grad}


# ---------------------------------------------------------------- gather / scatter


@program(item="fresh")
def f15_gather_grad(paddle):
    x = _t(paddle, _a([4, 3]))
    i = paddle.to_tensor([3, 0, 3])
    a = paddle.gather(x, i)
    b = paddle.gather(x, paddle.to_tensor([2, 0]), axis=1)
    g = _grad(paddle, a, x)
    return {"a": a, "b": b, "g": g}


@program(item="fresh")
def f15_gather_nd_grad(paddle):
    x = _t(paddle, _a([2, 3, 2]))
    idx = paddle.to_tensor([[0, 1], [1, 2], [0, 1]])
    y = paddle.gather_nd(x, idx)
    g = _grad(paddle, y, x)
    full = paddle.gather_nd(x.detach(), paddle.to_tensor([[1, 0, 1]]))
    return {"y": y, "g": g, "full": full}


@program(item="fresh")
def f15_scatter_overwrite_accumulate(paddle):
    x = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    idx = paddle.to_tensor([2, 0, 2])
    upd = paddle.to_tensor([[10.0, 10.0], [20.0, 20.0], [30.0, 30.0]])
    add = paddle.scatter(x, idx, upd, overwrite=False)
    uniq = paddle.scatter(x, paddle.to_tensor([2, 0]), upd[:2])
    return {"add": add, "uniq": uniq}


@program(item="fresh")
def f15_scatter_grad(paddle):
    x = _t(paddle, _a([3, 2]))
    u = _t(paddle, [[5.0, 6.0]])
    y = paddle.scatter(x, paddle.to_tensor([1]), u)
    y.sum().backward()
    return {"y": y, "gx": x.grad, "gu": u.grad}


@program(item="fresh")
def f15_scatter_nd_add_grad(paddle):
    x = _t(paddle, _a([3, 2]))
    idx = paddle.to_tensor([[0], [2], [0]])
    u = _t(paddle, [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    y = paddle.scatter_nd_add(x, idx, u)
    g = _grad(paddle, y, x)
    nd = paddle.scatter_nd(paddle.to_tensor([[1, 1], [0, 0], [1, 1]]),
                           paddle.to_tensor([1.0, 2.0, 3.0]), [2, 2])
    return {"y": y, "gx": g, "gu": u.grad, "nd": nd}


@program(item="fresh")
def f15_index_select_grad(paddle):
    x = _t(paddle, _a([3, 4]))
    a = paddle.index_select(x, paddle.to_tensor([3, 3, 0]), axis=1)
    b = paddle.index_select(x, paddle.to_tensor([2]))
    g = _grad(paddle, a, x)
    return {"a": a, "b": b, "g": g}


@program(item="fresh")
def f15_index_add_grad(paddle):
    x = _t(paddle, _a([3, 2]))
    v = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = paddle.index_add(x, paddle.to_tensor([2, 2]), 0, v)
    g = _grad(paddle, y, x)
    return {"y": y, "gx": g, "gv": v.grad}


@program(item="fresh", differs=(["z"], SLIPS))
def f15_put_along_axis_grad(paddle):
    x = _t(paddle, _a([2, 3]))
    idx = paddle.to_tensor([[2], [0]])
    v = _t(paddle, [[10.0], [20.0]])
    y = paddle.put_along_axis(x, idx, v, axis=1)
    z = attempt(paddle.put_along_axis, x.detach(), idx, 1.0, axis=1, reduce="add")
    z2 = paddle.put_along_axis(x.detach(), idx, paddle.to_tensor([[1.0], [1.0]], dtype="float64"),
                               axis=1, reduce="add")
    g = _grad(paddle, y, x)
    return {"y": y, "z": z, "z2": z2, "gx": g, "gv": v.grad}


@program(item="fresh")
def f15_take_along_axis_grad(paddle):
    x = _t(paddle, [[4.0, 1.0, 3.0], [2.0, 9.0, 7.0]])
    idx = paddle.argsort(x, axis=1)
    s = paddle.take_along_axis(x, idx, axis=1)
    g = _grad(paddle, s, x)
    b = paddle.take_along_axis(x.detach(), paddle.to_tensor([[0, 1, 1]]), axis=0)
    return {"s": s, "g": g, "b": b}


@program(item="fresh")
def f15_masked_select_fill(paddle):
    x = _t(paddle, _a([2, 3]))
    m = paddle.to_tensor([[True, False, True], [False, False, True]])
    s = paddle.masked_select(x, m)
    g = _grad(paddle, s, x)
    f = paddle.masked_fill(x.detach(), m, -1.0)
    return {"s": s, "g": g, "f": f}


# ---------------------------------------------------------------- dtype promotion


@program(item="fresh")
def f15_promotion_int_float_scalars(paddle):
    i = paddle.to_tensor([1, 2, 3])
    f = paddle.to_tensor([1.0, 2.0], dtype="float32")
    return {"i_plus_float": (i + 1.5), "i_times_int": (i * 2), "i_div_int": (i / 2),
            "f_plus_int": (f + 1), "f64_scalar": (f * 2.5).dtype.__str__(),
            "bool_plus_int": (paddle.to_tensor([True, False]) + 1),
            "i_pow": i ** 2, "i_rsub": 10 - i}


@program(item="fresh")
def f15_promotion_tensor_tensor(paddle):
    i = paddle.to_tensor([1, 2], dtype="int32")
    l = paddle.to_tensor([3, 4], dtype="int64")
    f = paddle.to_tensor([0.5, 1.5], dtype="float32")
    d = paddle.to_tensor([0.5, 1.5], dtype="float64")
    return {"il": attempt(lambda: (i + l).dtype.__str__()),
            "fd": attempt(lambda: (f + d).dtype.__str__()),
            "if": attempt(lambda: (i * f).dtype.__str__()),
            "lf": attempt(lambda: (l + f)),
            "bf": attempt(lambda: (paddle.to_tensor([True, False]) * f))}


@program(item="fresh")
def f15_bool_arithmetic(paddle):
    a = paddle.to_tensor([True, False, True])
    b = paddle.to_tensor([True, True, False])
    return {"and": a & b, "or": a | b, "xor": a ^ b, "not": ~a, "sum": paddle.sum(a),
            "sum_dtype": str(paddle.sum(a).dtype), "cast": a.astype("float32") * 2,
            "add": attempt(lambda: a + b)}


@program(item="fresh")
def f15_floor_divide_modulo_signs(paddle):
    a = paddle.to_tensor([7, -7, 7, -7])
    b = paddle.to_tensor([2, 2, -2, -2])
    fa = paddle.to_tensor([7.5, -7.5, 7.5, -7.5])
    fb = paddle.to_tensor([2.0, 2.0, -2.0, -2.0])
    return {"fd": a // b, "mod": a % b, "rem": paddle.remainder(a, b),
            "ffd": fa // fb, "fmod": fa % fb, "paddle_fmod": paddle.mod(fa, fb),
            "scalar": a // 3, "smod": a % 3, "trunc_div": paddle.trunc(fa / fb)}


@program(item="fresh")
def f15_divide_by_zero_int_float(paddle):
    f = paddle.to_tensor([1.0, -1.0, 0.0])
    return {"f": f / 0.0, "i_true": paddle.to_tensor([1, 2]) / paddle.to_tensor([0, 1])}


@program(item="fresh")
def f15_comparison_dtypes(paddle):
    i = paddle.to_tensor([1, 2, 3])
    return {"eq": i == 2, "gt_float": i > 1.5, "ne": i != paddle.to_tensor([1, 0, 3]),
            "equal_all": paddle.equal_all(i, paddle.to_tensor([1, 2, 3])),
            "allclose": paddle.allclose(paddle.to_tensor([1.0]), paddle.to_tensor([1.0 + 1e-9])),
            "isclose": paddle.isclose(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.1]))}


# ---------------------------------------------------------------- reductions


@program(item="fresh")
def f15_sum_mean_axis_tuple_keepdim(paddle):
    x = _t(paddle, _a([2, 3, 4]))
    s = paddle.sum(x, axis=[0, 2], keepdim=True)
    m = paddle.mean(x, axis=(-1, 0))
    g = _grad(paddle, paddle.concat([s.flatten(), m]), x)
    return {"s": s, "s_shape": s.shape, "m": m, "g": g}


@program(item="fresh")
def f15_sum_int_and_bool_dtypes(paddle):
    i = paddle.to_tensor([[1, 2], [3, 4]], dtype="int32")
    return {"sum_i32": paddle.sum(i), "sum_dt": str(paddle.sum(i).dtype),
            "sum_as": paddle.sum(i, dtype="float64"), "mean_int": attempt(lambda: paddle.mean(i)),
            "prod": paddle.prod(i, axis=0), "empty_sum": paddle.sum(paddle.zeros([0, 3]), axis=0),
            "empty_mean": paddle.mean(paddle.zeros([0]))}


@program(item="fresh", differs=(["g"], PROD_ZERO))
def f15_prod_grad_with_zero(paddle):
    x = _t(paddle, [[2.0, 0.0, 3.0], [1.0, 4.0, 5.0]])
    p = paddle.prod(x, axis=1)
    g = _grad(paddle, p, x)
    return {"p": p, "g": g}


@program(item="fresh")
def f15_var_std_unbiased(paddle):
    x = _t(paddle, [[1.0, 2.0, 4.0], [3.0, 3.0, 9.0]])
    v = paddle.var(x, axis=1)
    s = paddle.std(x, axis=0, unbiased=False, keepdim=True)
    g = _grad(paddle, paddle.concat([v, s.flatten()]), x)
    return {"v": v, "s": s, "g": g, "one": paddle.var(paddle.to_tensor([2.0]))}


@program(item="fresh")
def f15_logsumexp_amax_amin_grad(paddle):
    x = _t(paddle, [[1.0, 2.0, 2.0], [0.0, -1.0, 3.0]])
    l = paddle.logsumexp(x, axis=1, keepdim=True)
    a = paddle.amin(x, axis=1)
    g = _grad(paddle, paddle.concat([l.flatten(), a]), x)
    return {"l": l, "a": a, "g": g}


@program(item="fresh")
def f15_all_any_count_nonzero(paddle):
    x = paddle.to_tensor([[1, 0, 2], [0, 0, 3]])
    b = x > 0
    return {"all": paddle.all(b, axis=1), "any": paddle.any(b, axis=0, keepdim=True),
            "cnt": paddle.count_nonzero(x, axis=1), "cnt_all": paddle.count_nonzero(x),
            "empty_all": paddle.all(paddle.zeros([0], dtype="bool"))}


@program(item="fresh")
def f15_cumsum_cummax_grad(paddle):
    x = _t(paddle, [[1.0, 3.0, 2.0], [4.0, 0.0, 5.0]])
    c = paddle.cumsum(x, axis=1)
    f = paddle.cumsum(x)
    m, mi = paddle.cummax(x, axis=1)
    g = _grad(paddle, c + m, x)
    return {"c": c, "f": f, "m": m, "mi": mi, "g": g}


@program(item="fresh")
def f15_norm_reductions_grad(paddle):
    x = _t(paddle, [[3.0, -4.0], [0.0, 1.0]])
    n = paddle.linalg.norm(x, axis=1)
    g = _grad(paddle, n, x)
    return {"n": n, "g": g, "fro": paddle.linalg.norm(x.detach()),
            "l1": paddle.linalg.norm(x.detach(), p=1, axis=0)}


# ---------------------------------------------------------------- second order and misc


@program(item="fresh")
def f15_second_order_gather_square(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = paddle.gather(x, paddle.to_tensor([0, 2, 2])) ** 3
    (g,) = paddle.grad(y.sum(), x, create_graph=True)
    (h,) = paddle.grad(g.sum(), x)
    return {"g": g, "h": h}


@program(item="fresh")
def f15_second_order_index_where(paddle):
    x = _t(paddle, [0.5, -1.0, 2.0])
    y = paddle.where(x > 0, x ** 3, x ** 2)[paddle.to_tensor([0, 2, 1])]
    (g,) = paddle.grad(y.sum(), x, create_graph=True)
    (h,) = paddle.grad((g * g).sum(), x)
    return {"g": g, "h": h}


@program(item="fresh", differs=(["g", "g2", "g3"], DOUBLE))
def f15_second_order_cumsum_prod(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = paddle.prod(paddle.cumsum(x))
    g = attempt(paddle.grad, y, x, create_graph=True)
    (g1,) = paddle.grad(paddle.prod(paddle.cumsum(x)), x)
    y2 = paddle.cumsum(x) ** 2
    g2 = attempt(paddle.grad, y2.sum(), x, create_graph=True)
    g3 = attempt(paddle.grad, (x[::-1] ** 3).sum(), x, create_graph=True)
    (g4,) = paddle.grad((paddle.flip(x, [0]) ** 3).sum(), x, create_graph=True)
    (h4,) = paddle.grad(g4[1], x)
    return {"y": y, "g": g, "g1": g1, "g2": g2, "g3": g3, "g4": g4, "h4": h4}


@program(item="fresh", differs=(["argmax"], GARBAGE))
def f15_empty_shapes_ops(paddle):
    e = paddle.zeros([0, 3])
    return {"argmax": attempt(lambda: paddle.argmax(e, axis=0)),
            "sort": paddle.sort(e, axis=0).shape, "flip": paddle.flip(e, [1]).shape,
            "tile": paddle.tile(e, [2, 2]).shape, "max": attempt(lambda: paddle.max(e)),
            "cumsum": paddle.cumsum(e, axis=1).shape, "where": paddle.where(e > 0, e, e).shape}


@program(item="fresh")
def f15_zero_d_ops(paddle):
    z = _t(paddle, 2.5)
    y = paddle.stack([z, z * 2.0])
    w = paddle.where(z > 1, z * z, z)
    g = _grad(paddle, y.sum() + w, z)
    return {"y": y, "w": w, "g": g, "flip": attempt(lambda: paddle.flip(z.detach(), [0])),
            "argmax": paddle.argmax(z.detach()), "topk": attempt(lambda: paddle.topk(z.detach(), 1))}


@program(item="fresh")
def f15_clip_and_sign_grads(paddle):
    x = _t(paddle, [-2.0, -0.5, 0.0, 0.5, 2.0])
    c = paddle.clip(x, -1.0, 1.0)
    a = paddle.abs(x)
    g = _grad(paddle, c + a, x)
    return {"c": c, "a": a, "g": g, "min_only": paddle.clip(x.detach(), min=0.0)}


# ---------------------------------------------------------------- more of what a porter meets


@program(item="fresh")
def f15_setitem_negative_step_and_ellipsis(paddle):
    x = paddle.zeros([6], dtype="float64")
    x[::-2] = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
    y = paddle.zeros([2, 2, 3])
    y[..., -1] = 5.0
    y[1, ...] = y[1, ...] + 1.0
    return {"x": x, "y": y}


@program(item="fresh")
def f15_index_put_grad(paddle):
    x = _t(paddle, _a([3, 3]))
    v = _t(paddle, [7.0, 8.0])
    idx = (paddle.to_tensor([0, 2]), paddle.to_tensor([1, 0]))
    y = paddle.index_put(x, idx, v)
    g = _grad(paddle, y, x)
    acc = paddle.index_put(x.detach(), (paddle.to_tensor([1, 1]), paddle.to_tensor([2, 2])),
                           paddle.to_tensor([1.0, 1.0], dtype="float64"), accumulate=True)
    return {"y": y, "gx": g, "gv": v.grad, "acc": acc}


@program(item="fresh")
def f15_tensor_split_and_take(paddle):
    x = _t(paddle, _a([7]))
    parts = paddle.tensor_split(x, 3)
    at = paddle.tensor_split(x, [2, 5])
    t = paddle.take(x, paddle.to_tensor([[0, -1], [3, 3]]))
    g = _grad(paddle, t, x)
    return {"parts": parts, "at": at, "t": t, "g": g}


@program(item="fresh")
def f15_int_floor_divide_by_zero(paddle):
    a = paddle.to_tensor([5, -5])
    z = paddle.to_tensor([0, 0])
    return {"fd": attempt(lambda: a // z), "mod": attempt(lambda: a % z),
            "float_mod": paddle.to_tensor([5.0, -5.0]) % paddle.to_tensor([0.0, 0.0])}


@program(item="fresh")
def f15_median_quantile_nan_reductions(paddle):
    x = _t(paddle, [[1.0, 4.0, 2.0, 8.0], [3.0, 3.0, 0.0, 1.0]])
    m = paddle.median(x, axis=1)
    q = paddle.quantile(x, 0.25, axis=1)
    g = _grad(paddle, m + q, x)
    n = paddle.to_tensor([1.0, float("nan"), 3.0])
    return {"m": m, "q": q, "g": g, "nansum": paddle.nansum(n), "nanmean": paddle.nanmean(n),
            "med_all": paddle.median(x.detach())}


@program(item="fresh")
def f15_diff_and_histogram(paddle):
    x = _t(paddle, [1.0, 4.0, 9.0, 16.0])
    d = paddle.diff(x)
    d2 = paddle.diff(x, n=2)
    g = _grad(paddle, d, x)
    h = paddle.histogram(paddle.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=3, min=0, max=3)
    return {"d": d, "d2": d2, "g": g, "h": h}


@program(item="fresh")
def f15_view_then_inplace_shared(paddle):
    x = paddle.to_tensor(_a([2, 3]))
    row = x[0]
    row[1] = 100.0
    y = paddle.to_tensor(_a([4]))
    r = y.reshape([2, 2])
    r[0, 0] = -1.0
    return {"x": x, "row": row, "y": y, "r": r}


@program(item="fresh")
def f15_scatter_grad_duplicate_overwrite(paddle):
    x = _t(paddle, _a([3, 2]))
    u = _t(paddle, [[1.0, 1.0], [2.0, 2.0]])
    y = paddle.scatter(x, paddle.to_tensor([0, 0]), u, overwrite=False)
    g = _grad(paddle, y, x)
    return {"y": y, "gx": g, "gu": u.grad}


@program(item="fresh")
def f15_argsort_stable_and_sort_int(paddle):
    x = paddle.to_tensor([3, 1, 3, 1, 2])
    return {"stable": paddle.argsort(x, stable=True),
            "stable_desc": paddle.argsort(x, descending=True, stable=True),
            "sort_i": paddle.sort(x), "sort_b": paddle.sort(paddle.to_tensor([2.0, float("nan"),
                                                                             -1.0]))}


@program(item="fresh")
def f15_numpy_interop(paddle):
    a = np.arange(6, dtype="int32").reshape(2, 3)
    t = paddle.to_tensor(a)
    f = paddle.to_tensor(np.float32(2.5))
    l = paddle.to_tensor([1, 2.5])
    b = paddle.to_tensor([[True], [False]])
    return {"t": t, "f": f, "f_shape": f.shape, "l": l, "b": b, "tolist": t.tolist(),
            "item": t[1, 2].item(), "np": (t + 1).numpy()}
