"""Fresh differential programs (batch 1211): the examples of Paddle 3.3.1's own API docstrings as
a user copies them, for about sixty everyday functions (creation, manipulation, gather/scatter,
searching and sorting, maths, logic, statistics, casts and dtype promotion, reductions,
cumulative ops, nn.functional basics), each extended by what its doc implies: the gradient, the
output dtype and shape, a negative axis, one wrong input; written without looking at opsdk
(issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

PROD_AT_ZERO = ("docs/paddle.md, Values at special points: prod's gradient at a zero entry is the "
                "product of the other entries; Paddle divides prod(x) by x and gives nan")


def _grad(paddle, out, *inputs):
    """d(sum(out))/d(inputs), without accumulating into .grad."""
    return paddle.grad([paddle.sum(out)], list(inputs), allow_unused=True)


def _f64(paddle, values):
    return paddle.to_tensor(np.array(values, dtype="float64"), stop_gradient=False)


# ---------------------------------------------------------------- creation


@program(item="fresh")
def f11_to_tensor_doc(paddle):
    a = paddle.to_tensor(1)
    x = paddle.to_tensor(1, stop_gradient=False)
    copied = paddle.to_tensor(x)
    m = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]], place=paddle.CPUPlace(), stop_gradient=False)
    c = paddle.to_tensor([[1 + 1j, 2], [3 + 2j, 4]], dtype="complex64")
    return {"a": a, "a_dtype": str(a.dtype), "x_sg": x.stop_gradient, "copied": copied,
            "m": m, "c": c, "c_dtype": str(c.dtype), "f": paddle.to_tensor(1.5),
            "b": paddle.to_tensor([True, False]),
            "ragged": attempt(paddle.to_tensor, [[1, 2], [3]])}


@program(item="fresh")
def f11_zeros_ones_full_doc(paddle):
    shape = paddle.to_tensor([3, 2])
    d2 = paddle.zeros(shape=shape)
    d3 = paddle.ones(shape=[paddle.to_tensor(3), paddle.to_tensor(2)])
    val = paddle.full([], 2.0, "float32")
    d4 = paddle.full(shape=[2, 1], fill_value=val)
    d5 = paddle.full([2], 7)
    return {"d1": paddle.zeros(shape=[3, 2]), "d2": d2, "d3": d3, "d4": d4, "d5": d5,
            "d5_dtype": str(d5.dtype), "empty": paddle.ones([0, 3]),
            "int": paddle.zeros([2], dtype="int64"), "neg": attempt(paddle.zeros, [-2, 3])}


@program(item="fresh")
def f11_arange_doc(paddle):
    out1 = paddle.arange(5)
    out2 = paddle.arange(3, 9, 2.0)
    out3 = paddle.arange(4.999, dtype="float32")
    out4 = paddle.arange(paddle.to_tensor(3), 7)
    return {"out1": out1, "out1_dtype": str(out1.dtype), "out2": out2,
            "out2_dtype": str(out2.dtype), "out3": out3, "out4": out4,
            "neg_step": paddle.arange(5, 0, -2), "empty": paddle.arange(3, 3),
            "zero_step": attempt(paddle.arange, 0, 5, 0)}


@program(item="fresh")
def f11_linspace_eye_doc(paddle):
    a = paddle.linspace(0, 10, 5, "float32")
    b = paddle.linspace(0, 10, 1, "float32")
    c = paddle.linspace(0, 1, 4, dtype="float64")
    e1 = paddle.eye(3, dtype="int32")
    e2 = paddle.eye(2, 3, dtype="int32")
    return {"a": a, "b": b, "c": c, "e1": e1, "e2": e2, "e3": paddle.eye(2),
            "e3_dtype": str(paddle.eye(2).dtype), "lin_dtype": str(paddle.linspace(0, 1, 3).dtype)}


@program(item="fresh")
def f11_like_creation_doc(paddle):
    x = paddle.to_tensor([1, 2, 3])
    inp = paddle.full(shape=[2, 3], fill_value=0.0, dtype="float32")
    y = paddle.to_tensor([1.5, 2.5], stop_gradient=False)
    z = paddle.zeros_like(y)
    return {"z1": paddle.zeros_like(x), "z2": paddle.zeros_like(x, dtype="int32"),
            "o1": paddle.ones_like(x), "o2": paddle.ones_like(x, dtype="float64"),
            "f": paddle.full_like(inp, 2.0), "fi": paddle.full_like(x, 2.7),
            "z": z, "z_sg": z.stop_gradient}


# ---------------------------------------------------------------- manipulation


@program(item="fresh")
def f11_reshape_doc(paddle):
    x = paddle.to_tensor(np.arange(48, dtype="float32").reshape([2, 4, 6]))
    a = paddle.reshape(x, [-1, 0, 3, 2])
    b = paddle.reshape(x, shape=[paddle.full([1], 4, "int32"), 12])
    c = paddle.reshape(x, shape=paddle.to_tensor([8, 6], dtype=paddle.int32))
    w = _f64(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (g,) = _grad(paddle, paddle.reshape(w, [3, 2]) * paddle.to_tensor([[1.0], [2.0], [3.0]],
                                                                          dtype="float64"), w)
    return {"a": a.shape, "b": b.shape, "c": c.shape, "c_val": c, "g": g,
            "bad": attempt(paddle.reshape, x, [5, -1]),
            "two_neg": attempt(paddle.reshape, x, [-1, -1])}


@program(item="fresh")
def f11_transpose_doc(paddle):
    x = paddle.to_tensor(np.arange(24, dtype="float64").reshape([2, 3, 4]), stop_gradient=False)
    t = paddle.transpose(x, perm=[1, 0, 2])
    (g,) = _grad(paddle, t * paddle.arange(4, dtype="float64"), x)
    return {"t": t, "shape": t.shape, "g": g, "neg": paddle.transpose(x, [-1, 0, 1]).shape,
            "T": paddle.ones([2, 5]).T.shape, "bad": attempt(paddle.transpose, x, [0, 1])}


@program(item="fresh")
def f11_concat_doc(paddle):
    x1 = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
    x2 = paddle.to_tensor([[11, 12, 13], [14, 15, 16]])
    x3 = paddle.to_tensor([[21, 22], [23, 24]])
    zero = paddle.full(shape=[1], dtype="int32", fill_value=0)
    a = _f64(paddle, [1.0, 2.0])
    b = _f64(paddle, [3.0])
    ga, gb = _grad(paddle, paddle.concat([a, b]) * paddle.to_tensor([1.0, 2.0, 3.0],
                                                                   dtype="float64"), a, b)
    return {"out1": paddle.concat(x=[x1, x2, x3], axis=-1),
            "out2": paddle.concat(x=[x1, x2], axis=0),
            "out3": paddle.concat(x=[x1, x2], axis=zero), "ga": ga, "gb": gb,
            "bad": attempt(paddle.concat, [x1, x3], axis=0)}


@program(item="fresh")
def f11_stack_doc(paddle):
    x1 = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    x2 = paddle.to_tensor([[3.0, 4.0]])
    x3 = paddle.to_tensor([[5.0, 6.0]])
    a = paddle.stack([x1, x2, x3], axis=0)
    b = paddle.stack([x1, x2, x3], axis=-2)
    z = paddle.stack([paddle.ones([0, 1, 2]), paddle.ones([0, 1, 2])], axis=0)
    (g,) = _grad(paddle, b * 3.0, x1)
    return {"a": a, "b": b, "z_shape": z.shape, "g": g,
            "bad": attempt(paddle.stack, [x1, paddle.ones([2, 2])])}


@program(item="fresh")
def f11_split_chunk_doc(paddle):
    x = paddle.to_tensor(np.arange(135, dtype="float32").reshape([3, 9, 5]))
    s1 = [o.shape for o in paddle.split(x, num_or_sections=3, axis=1)]
    s2 = [o.shape for o in paddle.split(x, num_or_sections=[2, 3, 4], axis=1)]
    s3 = paddle.split(x, num_or_sections=[2, 3, -1], axis=-2)
    c = [o.shape for o in paddle.chunk(x, chunks=3, axis=-2)]
    w = _f64(paddle, [1.0, 2.0, 3.0, 4.0])
    p, q = paddle.split(w, 2)
    (g,) = _grad(paddle, p * 2.0 + q * q, w)
    return {"s1": s1, "s2": s2, "s3": [o.shape for o in s3], "s3_last": s3[2][0, 0], "c": c,
            "g": g, "bad": attempt(paddle.split, x, 4, axis=1)}


@program(item="fresh")
def f11_squeeze_unsqueeze_doc(paddle):
    x = paddle.ones([5, 1, 10])
    y = paddle.ones([5, 10])
    w = paddle.to_tensor([[1.0], [2.0]], stop_gradient=False)
    (g,) = _grad(paddle, paddle.squeeze(w, axis=-1) ** 2, w)
    return {"sq": paddle.squeeze(x, axis=1).shape, "sq_all": paddle.squeeze(x).shape,
            "sq_not1": paddle.squeeze(x, axis=0).shape,
            "u1": paddle.unsqueeze(y, axis=0).shape, "u2": paddle.unsqueeze(y, axis=[0, 2]).shape,
            "u3": paddle.unsqueeze(y, axis=paddle.to_tensor([0, 1, 2])).shape,
            "uneg": paddle.unsqueeze(y, axis=-1).shape, "g": g}


@program(item="fresh")
def f11_flatten_doc(paddle):
    img = paddle.reshape(paddle.arange(end=2 * 3 * 4 * 4), (2, 3, 4, 4))
    out = paddle.flatten(img, start_axis=1, stop_axis=2)
    w = _f64(paddle, [[[1.0, 2.0], [3.0, 4.0]]])
    f = paddle.flatten(w)
    (g,) = _grad(paddle, f * f, w)
    return {"shape": out.shape, "dtype": str(out.dtype), "out": out[1, 5],
            "all": paddle.flatten(img).shape, "neg": paddle.flatten(img, start_axis=-2).shape,
            "g": g, "scalar": paddle.flatten(paddle.to_tensor(3.0)).shape,
            "bad": attempt(paddle.flatten, img, start_axis=2, stop_axis=1)}


@program(item="fresh")
def f11_expand_broadcast_tile_doc(paddle):
    data = paddle.to_tensor([1, 2, 3], dtype="int32")
    w = _f64(paddle, [1.0, 2.0, 3.0])
    (ge,) = _grad(paddle, paddle.expand(w, [2, 3]), w)
    (gt,) = _grad(paddle, paddle.tile(w, [2, 2]), w)
    return {"expand": paddle.expand(data, shape=[2, 3]),
            "keep": paddle.expand(data, shape=[2, -1]),
            "bcast": paddle.broadcast_to(data, shape=[2, 3]),
            "t1": paddle.tile(data, repeat_times=[2, 1]), "t2": paddle.tile(data, (2, 2)),
            "t3": paddle.tile(data, repeat_times=paddle.to_tensor([1, 2], dtype="int32")),
            "ge": ge, "gt": gt, "bad": attempt(paddle.expand, data, [2, 4])}


@program(item="fresh")
def f11_flip_roll_doc(paddle):
    img = paddle.arange(3 * 2 * 2).reshape((3, 2, 2))
    tmp = paddle.flip(img, [0, 1])
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
                         stop_gradient=False)
    r = paddle.roll(x, shifts=1, axis=1)
    (g,) = _grad(paddle, r * paddle.to_tensor([1.0, 2.0, 3.0]), x)
    return {"tmp": tmp, "out": paddle.flip(tmp, -1), "z1": paddle.roll(x, shifts=1),
            "z2": paddle.roll(x, shifts=1, axis=0), "z3": r, "neg": paddle.roll(x, -4, -1),
            "multi": paddle.roll(x, shifts=[1, 2], axis=[0, 1]), "g": g}


# ---------------------------------------------------------------- indexing, gather, scatter


@program(item="fresh")
def f11_gather_doc(paddle):
    inp = paddle.to_tensor([[1, 2], [3, 4], [5, 6]])
    idx = paddle.to_tensor([0, 1])
    x = _f64(paddle, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    out = paddle.gather(x, paddle.to_tensor([0, 2, 0]), axis=0)
    (g,) = _grad(paddle, out, x)
    return {"out": paddle.gather(inp, idx, axis=0), "axis1": paddle.gather(inp, idx, axis=1),
            "dtype": str(paddle.gather(inp, idx).dtype), "g": g,
            "scalar_idx": paddle.gather(inp, paddle.to_tensor(1)).shape,
            "float_idx": attempt(paddle.gather, inp, paddle.to_tensor([0.0]))}


@program(item="fresh")
def f11_gather_nd_doc(paddle):
    x = paddle.to_tensor([[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]])
    w = paddle.to_tensor(np.arange(12, dtype="float64").reshape([2, 3, 2]), stop_gradient=False)
    out = paddle.gather_nd(w, paddle.to_tensor([[0, 1], [1, 2], [0, 1]]))
    (g,) = _grad(paddle, out, w)
    return {"a": paddle.gather_nd(x, paddle.to_tensor([[0, 1]])),
            "b": paddle.gather_nd(x, paddle.to_tensor([[0, 1, 1], [1, 2, 0]])),
            "c": paddle.gather_nd(x, paddle.to_tensor([[1]])).shape, "out": out, "g": g}


@program(item="fresh")
def f11_scatter_doc(paddle):
    x = paddle.to_tensor([[1, 1], [2, 2], [3, 3]], dtype="float32")
    index = paddle.to_tensor([2, 1, 0, 1], dtype="int64")
    updates = paddle.to_tensor([[1, 1], [2, 2], [3, 3], [4, 4]], dtype="float32")
    xs = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], stop_gradient=False)
    us = paddle.to_tensor([[5.0, 5.0], [6.0, 6.0]], stop_gradient=False)
    out = paddle.scatter(xs, paddle.to_tensor([2, 0]), us)
    gx, gu = _grad(paddle, out * paddle.to_tensor([[1.0], [2.0], [3.0]]), xs, us)
    return {"add": paddle.scatter(x, index, updates, overwrite=False),
            "over": paddle.scatter(x, index, updates, overwrite=True),
            "out": out, "gx": gx, "gu": gu}


@program(item="fresh")
def f11_scatter_nd_add_doc(paddle):
    x = paddle.rand(shape=[3, 5, 9, 10], dtype="float32")
    updates = paddle.rand(shape=[3, 9, 10], dtype="float32")
    index = paddle.to_tensor([[1, 1], [0, 1], [1, 3]], dtype="int64")
    w = paddle.zeros([3, 2], dtype="float64")
    w.stop_gradient = False
    u = _f64(paddle, [1.0, 2.0, 3.0])
    out = paddle.scatter_nd_add(w, paddle.to_tensor([[0, 1], [0, 1], [2, 0]]), u)
    gw, gu = _grad(paddle, out * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
                                                  dtype="float64"), w, u)
    return {"shape": paddle.scatter_nd_add(x, index, updates).shape, "out": out, "gw": gw,
            "gu": gu}


@program(item="fresh")
def f11_index_select_doc(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
                         stop_gradient=False)
    index = paddle.to_tensor([0, 1, 1], dtype="int32")
    z2 = paddle.index_select(x=x, index=index, axis=1)
    (g,) = _grad(paddle, z2, x)
    return {"z1": paddle.index_select(x=x, index=index), "z2": z2, "g": g,
            "neg": paddle.index_select(x, paddle.to_tensor([3]), axis=-1),
            "bad": attempt(paddle.index_select, x, paddle.to_tensor([[0]]))}


@program(item="fresh")
def f11_masked_select_fill_doc(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
                         stop_gradient=False)
    mask = paddle.to_tensor([[True, False, False, False], [True, True, False, False],
                             [True, False, False, False]])
    out = paddle.masked_select(x, mask)
    (g,) = _grad(paddle, out * out, x)
    y = paddle.ones((3, 3), dtype="float32")
    m2 = paddle.to_tensor([[True, True, False]])
    return {"out": out, "g": g, "fill": paddle.masked_fill(y, m2, 2),
            "bcast": paddle.masked_select(x, paddle.to_tensor([True, False, True, False])),
            "bad": attempt(paddle.masked_select, x, paddle.to_tensor([[1, 0, 0, 0]]))}


@program(item="fresh")
def f11_take_along_axis_doc(paddle):
    x = paddle.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    w = _f64(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    idx = paddle.to_tensor([[2, 0], [1, 1]])
    out = paddle.take_along_axis(w, idx, axis=-1)
    (g,) = _grad(paddle, out, w)
    return {"doc": paddle.take_along_axis(x, paddle.to_tensor([[0]]), 0), "out": out, "g": g,
            "rank": attempt(paddle.take_along_axis, x, paddle.to_tensor([0]), 0)}


@program(item="fresh")
def f11_put_along_axis_doc(paddle):
    x = paddle.to_tensor([[10, 30, 20], [60, 40, 50]])
    index = paddle.zeros((2, 2)).astype("int32")
    value = paddle.to_tensor([[1, 2], [3, 4]]).astype(x.dtype)
    w = _f64(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v = _f64(paddle, [[7.0], [8.0]])
    out = paddle.put_along_axis(w, paddle.to_tensor([[1], [2]]), v, axis=1)
    gw, gv = _grad(paddle, out * out, w, v)
    return {"r1": paddle.put_along_axis(x, paddle.to_tensor([[0]]), 99, 0),
            "add": paddle.put_along_axis(x, index, value, 0, "add", True, False),
            "mul": paddle.put_along_axis(x, index, value, 0, "mul", True, False),
            "out": out, "gw": gw, "gv": gv}


@program(item="fresh")
def f11_where_nonzero_doc(paddle):
    x = paddle.to_tensor([0.9383, 0.1983, 3.2, 1.2], stop_gradient=False)
    y = paddle.to_tensor([1.0, 1.0, 1.0, 1.0], stop_gradient=False)
    out = paddle.where(x > 1, x, y)
    gx, gy = _grad(paddle, out * 2.0, x, y)
    x1 = paddle.to_tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    x2 = paddle.to_tensor([0.0, 1.0, 0.0, 3.0])
    return {"out": out, "gx": gx, "gy": gy, "cond_only": paddle.where(x > 1),
            "nz1": paddle.nonzero(x1), "nz1_t": paddle.nonzero(x1, as_tuple=True),
            "nz2": paddle.nonzero(x2), "nz_dtype": str(paddle.nonzero(x2).dtype),
            "scalar_y": paddle.where(x > 1, x, 0.0)}


@program(item="fresh")
def f11_index_add_doc(paddle):
    inp = paddle.ones((3, 3), dtype="float32")
    inp.stop_gradient = False
    index = paddle.to_tensor([0, 2], dtype="int32")
    value = paddle.to_tensor([[1, 1, 1], [1, 1, 1]], dtype="float32", stop_gradient=False)
    out = paddle.index_add(inp, index, 0, value)
    gi, gv = _grad(paddle, out * paddle.to_tensor([[1.0], [2.0], [3.0]]), inp, value)
    col = paddle.index_add(paddle.zeros([2, 3]), paddle.to_tensor([2, 2]), -1,
                           paddle.ones([2, 2]))
    return {"out": out, "gi": gi, "gv": gv, "col": col}


@program(item="fresh")
def f11_getitem_setitem_grad(paddle):
    x = _f64(paddle, np.arange(12.0).reshape([3, 4]))
    a = x[1]
    b = x[:, -1]
    c = x[paddle.to_tensor([0, 2])]
    d = x[x > 5.0]
    (g,) = _grad(paddle, a.sum() + b.sum() * 10.0 + c.sum() * 100.0 + d.sum(), x)
    y = paddle.zeros([2, 3])
    y[0, 1:] = 5.0
    y[1] = paddle.to_tensor([1.0, 2.0, 3.0])
    return {"a": a, "b": b, "c": c, "d": d, "g": g, "y": y, "none": x[None, 0].shape,
            "ell": x[..., 1].shape, "oob": attempt(lambda: x[5])}


# ---------------------------------------------------------------- searching and sorting


@program(item="fresh")
def f11_argmax_argmin_doc(paddle):
    x = paddle.to_tensor([[5, 8, 9, 5], [0, 0, 1, 7], [6, 9, 2, 4]])
    return {"max1": paddle.argmax(x), "max2": paddle.argmax(x, axis=0),
            "max3": paddle.argmax(x, axis=-1), "max4": paddle.argmax(x, axis=0, keepdim=True),
            "min1": paddle.argmin(x), "min3": paddle.argmin(x, axis=-1),
            "min4": paddle.argmin(x, axis=0, keepdim=True),
            "dtype": str(paddle.argmax(x).dtype),
            "int32": paddle.argmax(x, axis=1, dtype="int32"),
            "bad_axis": attempt(paddle.argmax, x, axis=2)}


@program(item="fresh")
def f11_sort_argsort_doc(paddle):
    x = paddle.to_tensor([[[5, 8, 9, 5], [0, 0, 1, 7], [6, 9, 2, 4]],
                          [[5, 2, 4, 2], [4, 7, 7, 9], [1, 7, 0, 6]]], dtype="float32")
    w = _f64(paddle, [3.0, 1.0, 2.0])
    s = paddle.sort(w, descending=True)
    (g,) = _grad(paddle, s * paddle.to_tensor([1.0, 10.0, 100.0], dtype="float64"), w)
    return {"a1": paddle.argsort(x, axis=-1), "a2": paddle.argsort(x, axis=0),
            "s1": paddle.sort(x=x, axis=-1), "s3": paddle.sort(x=x, axis=1),
            "desc": paddle.argsort(x[0], descending=True), "s": s, "g": g,
            "a_dtype": str(paddle.argsort(x).dtype)}


@program(item="fresh")
def f11_topk_doc(paddle):
    d1 = paddle.to_tensor([1, 4, 5, 7])
    d2 = paddle.to_tensor([[1, 4, 5, 7], [2, 6, 2, 5]])
    w = _f64(paddle, [[1.0, 4.0, 5.0, 7.0], [2.0, 6.0, 3.0, 5.0]])
    v, i = paddle.topk(w, k=2)
    (g,) = _grad(paddle, v * paddle.to_tensor([1.0, 2.0], dtype="float64"), w)
    return {"r1": paddle.topk(d1, k=1), "r2": paddle.topk(d2, k=1),
            "r4": paddle.topk(d2, k=1, axis=0), "small": paddle.topk(d2, k=2, largest=False),
            "v": v, "i": i, "i_dtype": str(i.dtype), "g": g, "bad": attempt(paddle.topk, d1, 9)}


@program(item="fresh")
def f11_searchsorted_doc(paddle):
    seq = paddle.to_tensor([[1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12]], dtype="int32")
    values = paddle.to_tensor([[3, 6, 9, 10], [3, 6, 9, 10]], dtype="int32")
    seq1 = paddle.to_tensor([1, 3, 5, 7, 9, 11, 13])
    out1 = paddle.searchsorted(seq, values)
    return {"out1": out1, "dtype": str(out1.dtype),
            "out2": paddle.searchsorted(seq, values, right=True),
            "out3": paddle.searchsorted(seq1, values),
            "i32": paddle.searchsorted(seq1, values, out_int32=True),
            "float": paddle.searchsorted(paddle.to_tensor([0.5, 1.5, 2.5]),
                                         paddle.to_tensor([1.5, 3.0]))}


@program(item="fresh")
def f11_unique_doc(paddle):
    x = paddle.to_tensor([2, 3, 3, 1, 5, 3])
    u, indices, inverse, counts = paddle.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True)
    m = paddle.to_tensor([[2, 1, 3], [3, 0, 1], [2, 1, 3]])
    return {"u": paddle.unique(x), "u2": u, "indices": indices, "inverse": inverse,
            "counts": counts, "flat": paddle.unique(m), "rows": paddle.unique(m, axis=0),
            "cols": paddle.unique(m, axis=-1), "dtype": str(indices.dtype),
            "f": paddle.unique(paddle.to_tensor([1.5, -1.0, 1.5]))}


@program(item="fresh")
def f11_kthvalue_mode_doc(paddle):
    x = _f64(paddle, [[[3.0, 1.0], [2.0, 5.0], [4.0, 0.0]], [[1.0, 1.5], [0.0, 2.0],
                                                              [9.0, 8.0]]])
    v, i = paddle.kthvalue(x, 2, 1)
    (g,) = _grad(paddle, v, x)
    t = paddle.to_tensor([[[1, 2, 2], [2, 3, 3]], [[0, 5, 5], [9, 9, 0]]], dtype=paddle.float32)
    mv, mi = paddle.mode(t, 2)
    return {"v": v, "i": i, "g": g, "keep": paddle.kthvalue(x, 1, -1, keepdim=True),
            "mv": mv, "mi": mi, "mode_neg": paddle.mode(t, -2),
            "bad_k": attempt(paddle.kthvalue, x, 5, 1)}


# ---------------------------------------------------------------- maths


@program(item="fresh")
def f11_add_subtract_doc(paddle):
    x = paddle.to_tensor([2, 3, 4], "float64", stop_gradient=False)
    y = paddle.to_tensor([1, 5, 2], "float64", stop_gradient=False)
    z = paddle.add(x, y)
    s3 = paddle.subtract(paddle.to_tensor([[[1, 2, 3], [1, 2, 3]]]), paddle.to_tensor([1, 0, 4]))
    nan = paddle.subtract(paddle.to_tensor([2, float("nan"), 5], dtype="float32"),
                          paddle.to_tensor([1, 4, float("nan")], dtype="float32"))
    inf = paddle.subtract(paddle.to_tensor([5, float("inf"), -float("inf")], dtype="float64"),
                          paddle.to_tensor([1, 4, 5], dtype="float64"))
    gx, gy = _grad(paddle, paddle.subtract(z, y * 3.0), x, y)
    return {"z": z, "s": paddle.subtract(paddle.to_tensor([[1, 2], [7, 8]]),
                                        paddle.to_tensor([[5, 6], [3, 4]])),
            "s3": s3, "nan": nan, "inf": inf, "gx": gx, "gy": gy,
            "bad": attempt(paddle.add, x, paddle.ones([2], dtype="float64"))}


@program(item="fresh")
def f11_multiply_divide_doc(paddle):
    a = paddle.multiply(paddle.to_tensor([[1, 2], [3, 4]]), paddle.to_tensor([[5, 6], [7, 8]]))
    b = paddle.multiply(paddle.to_tensor([[[1, 2, 3], [1, 2, 3]]]), paddle.to_tensor([2]))
    x = paddle.to_tensor([2, 3, 4], dtype="float64", stop_gradient=False)
    y = paddle.to_tensor([1, 5, 2], dtype="float64", stop_gradient=False)
    z = paddle.divide(x, y)
    gx, gy = _grad(paddle, z, x, y)
    idiv = paddle.divide(paddle.to_tensor([7, -7]), paddle.to_tensor([2, 2]))
    return {"a": a, "b": b, "z": z, "gx": gx, "gy": gy, "idiv": idiv,
            "idiv_dtype": str(idiv.dtype), "by_zero": paddle.divide(
                paddle.to_tensor([1.0, -1.0, 0.0]), paddle.to_tensor([0.0, 0.0, 0.0]))}


@program(item="fresh")
def f11_pow_doc(paddle):
    x = paddle.to_tensor([1, 2, 3], dtype="float32", stop_gradient=False)
    r1 = paddle.pow(x, 2)
    r2 = paddle.pow(x, 2.5)
    y = paddle.to_tensor([2], dtype="float32", stop_gradient=False)
    r3 = paddle.pow(x, y)
    gx, gy = _grad(paddle, r3, x, y)
    (gg,) = paddle.grad([paddle.sum(r2)], [x], create_graph=True)
    (g2,) = _grad(paddle, gg, x)
    return {"r1": r1, "r2": r2, "r3": r3, "gx": gx, "gy": gy, "g2": g2,
            "int": paddle.pow(paddle.to_tensor([2, 3]), 2),
            "int_dtype": str(paddle.pow(paddle.to_tensor([2, 3]), 2).dtype),
            "op": x ** 0.5, "rpow": 2.0 ** x}


@program(item="fresh")
def f11_exp_log_doc(paddle):
    x = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3], stop_gradient=False)
    e = paddle.exp(x)
    l = paddle.log(paddle.to_tensor([[2, 3, 4], [7, 8, 9]], dtype="float32"))
    w = _f64(paddle, [0.5, 1.0, 2.0])
    (gl,) = _grad(paddle, paddle.log(w), w)
    (ge,) = _grad(paddle, e, x)
    li = paddle.log(paddle.to_tensor([1, 2]).astype("float32"))
    return {"e": e, "l": l, "ge": ge, "gl": gl, "li": li,
            "edge": paddle.log(paddle.to_tensor([0.0, -1.0])),
            "int": attempt(paddle.log, paddle.to_tensor([1, 2]))}


@program(item="fresh")
def f11_sqrt_rsqrt_abs_doc(paddle):
    x = paddle.to_tensor([0.1, 0.2, 0.3, 0.4], stop_gradient=False)
    s = paddle.sqrt(x)
    r = paddle.rsqrt(x)
    a = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3], stop_gradient=False)
    ab = paddle.abs(a)
    gs, = _grad(paddle, s, x)
    gr, = _grad(paddle, r, x)
    ga, = _grad(paddle, ab, a)
    return {"s": s, "r": r, "ab": ab, "gs": gs, "gr": gr, "ga": ga,
            "abs_int": paddle.abs(paddle.to_tensor([-3, 2])), "neg_sqrt": paddle.sqrt(
                paddle.to_tensor([-1.0])), "abs0": _grad(paddle, paddle.abs(
                    paddle.to_tensor([0.0], stop_gradient=False)), a)[0]}


@program(item="fresh")
def f11_clip_doc(paddle):
    x1 = paddle.to_tensor([[1.2, 3.5], [4.5, 6.4]], "float32", stop_gradient=False)
    out1 = paddle.clip(x1, min=3.5, max=5.0)
    out2 = paddle.clip(x1, min=2.5)
    (g,) = _grad(paddle, out1, x1)
    xi = paddle.to_tensor([1, 5, 9])
    ci = paddle.clip(xi, 2, 6)
    return {"out1": out1, "out2": out2, "g": g, "ci": ci, "ci_dtype": str(ci.dtype),
            "tmax": paddle.clip(x1, max=paddle.to_tensor(2.0)), "method": x1.clip(0.0, 1.0)}


@program(item="fresh")
def f11_floor_divide_remainder_doc(paddle):
    x = paddle.to_tensor([2, 3, 8, 7])
    y = paddle.to_tensor([1, 5, 3, 3])
    yn = paddle.to_tensor([1, -5, -3, -3])
    xf = paddle.to_tensor([-7.5, 7.5, -2.0])
    yf = paddle.to_tensor([2.0, -2.0, 3.0])
    return {"fd": paddle.floor_divide(x, y), "fd_neg": paddle.floor_divide(x, yn),
            "rem": paddle.remainder(x, y), "fmod": paddle.floor_mod(x, yn),
            "mod": paddle.mod(x, yn), "op_fd": x // yn, "op_mod": -x % y,
            "f_fd": paddle.floor_divide(xf, yf), "f_rem": paddle.remainder(xf, yf),
            "zero": attempt(paddle.floor_divide, x, paddle.to_tensor([0, 1, 1, 1]))}


@program(item="fresh")
def f11_matmul_doc(paddle):
    shapes = []
    for a, b in (([10], [10]), ([10, 5], [5]), ([10, 5, 2], [2]), ([10, 5, 2], [10, 2, 5]),
                 ([10, 1, 5, 2], [1, 3, 2, 5])):
        shapes.append(paddle.matmul(paddle.ones(a), paddle.ones(b)).shape)
    x = _f64(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = _f64(paddle, [[1.0, 0.5, 0.0], [2.0, -1.0, 1.0]])
    z = paddle.matmul(x, y, transpose_x=True)
    gx, gy = _grad(paddle, z, x, y)
    return {"shapes": shapes, "z": z, "gx": gx, "gy": gy, "op": (x @ y).shape,
            "ty": paddle.matmul(y, y, transpose_y=True),
            "bad": attempt(paddle.matmul, paddle.ones([2, 3]), paddle.ones([2, 3]))}


@program(item="fresh")
def f11_bmm_dot_outer_doc(paddle):
    x = paddle.to_tensor([[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], [[3.0, 3.0, 3.0],
                                                               [4.0, 4.0, 4.0]]],
                         stop_gradient=False)
    y = paddle.to_tensor([[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], [[4.0, 4.0], [5.0, 5.0],
                                                                  [6.0, 6.0]]])
    out = paddle.bmm(x, y)
    (g,) = _grad(paddle, out, x)
    d1 = paddle.dot(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([4, 5, 6]))
    d2 = paddle.dot(paddle.to_tensor([[1, 2, 3], [2, 4, 6]]),
                    paddle.to_tensor([[4, 5, 6], [4, 5, 6]]))
    o = paddle.outer(paddle.arange(1, 4).astype("float32"), paddle.arange(1, 6).astype("float32"))
    return {"out": out, "g": g, "d1": d1, "d1_shape": d1.shape, "d2": d2, "o": o,
            "bad": attempt(paddle.bmm, x, paddle.ones([3, 3, 2]))}


@program(item="fresh")
def f11_maximum_minimum_doc(paddle):
    nan = float("nan")
    r = {"max1": paddle.maximum(paddle.to_tensor([[1, 2], [7, 8]]),
                                paddle.to_tensor([[3, 4], [5, 6]])),
         "max2": paddle.maximum(paddle.to_tensor([[1, 2, 3], [1, 2, 3]]),
                                paddle.to_tensor([3, 0, 4])),
         "max_nan": paddle.maximum(paddle.to_tensor([2, 3, 5], dtype="float32"),
                                   paddle.to_tensor([1, nan, nan], dtype="float32")),
         "min_nan": paddle.minimum(paddle.to_tensor([2, 3, 5], dtype="float32"),
                                   paddle.to_tensor([1, nan, nan], dtype="float32")),
         "min_inf": paddle.minimum(paddle.to_tensor([5, 3, float("inf")], dtype="float64"),
                                   paddle.to_tensor([1, -float("inf"), 5], dtype="float64"))}
    x = _f64(paddle, [1.0, 5.0, 3.0])
    y = _f64(paddle, [2.0, 4.0, 3.0])
    gx, gy = _grad(paddle, paddle.maximum(x, y), x, y)
    hx, hy = _grad(paddle, paddle.minimum(x, y), x, y)
    r.update(gx=gx, gy=gy, hx=hx, hy=hy)
    return r


@program(item="fresh")
def f11_sign_stanh_lerp(paddle):
    x = paddle.to_tensor([3.0, 0.0, -2.0, 1.7], dtype="float32", stop_gradient=False)
    s = paddle.sign(x=x)
    (gs,) = _grad(paddle, s, x)
    st = paddle.stanh(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), scale_a=0.67, scale_b=1.72)
    a = _f64(paddle, [1.0, 2.0, 3.0, 4.0])
    b = _f64(paddle, [10.0, 10.0, 10.0, 10.0])
    l = paddle.lerp(a, b, 0.5)
    ga, gb = _grad(paddle, l, a, b)
    return {"s": s, "gs": gs, "st": st, "l": l, "ga": ga, "gb": gb,
            "sign_int": paddle.sign(paddle.to_tensor([-3, 0, 4]))}


# ---------------------------------------------------------------- logic and comparison


@program(item="fresh")
def f11_logical_doc(paddle):
    x = paddle.to_tensor([True])
    y = paddle.to_tensor([True, False, True, False])
    xo = paddle.to_tensor([True, False], dtype="bool").reshape([2, 1])
    yo = paddle.to_tensor([True, False, True, False], dtype="bool").reshape([2, 2])
    i = paddle.to_tensor([0, 2, -1])
    return {"and": paddle.logical_and(x, y), "or": paddle.logical_or(xo, yo),
            "not": paddle.logical_not(y), "xor": paddle.logical_xor(x, y),
            "int_and": paddle.logical_and(i, paddle.to_tensor([1, 1, 0])),
            "int_not": paddle.logical_not(i), "op": (y & x) | ~y,
            "op_dtype": str(((y & x) | ~y).dtype)}


@program(item="fresh")
def f11_compare_doc(paddle):
    x = paddle.to_tensor([1, 2, 3])
    y = paddle.to_tensor([1, 3, 2])
    f = paddle.to_tensor([1.0, 2.5, 3.0])
    return {"eq": paddle.equal(x, y), "gt": paddle.greater_than(x, y),
            "ge": paddle.greater_equal(x, y), "lt": paddle.less_than(x, y),
            "ne": paddle.not_equal(x, y), "eq_all": paddle.equal_all(x, y),
            "eq_all2": paddle.equal_all(x, paddle.to_tensor([1, 2, 3])),
            "mixed": attempt(lambda: x < f), "scalar": x == 2, "scalar_f": f > 2, "bcast": paddle.equal(
                x, paddle.to_tensor([[1], [2]])), "eq_dtype": str(paddle.equal(x, y).dtype)}


@program(item="fresh")
def f11_allclose_isclose_doc(paddle):
    x = paddle.to_tensor([10000.0, 1e-07])
    y = paddle.to_tensor([10000.1, 1e-08])
    xn = paddle.to_tensor([1.0, float("nan")])
    yn = paddle.to_tensor([1.0, float("nan")])
    a1 = paddle.allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False)
    return {"a1": a1, "a1_shape": a1.shape, "a1_dtype": str(a1.dtype),
            "a2": paddle.allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=True),
            "a3": paddle.allclose(xn, yn), "a4": paddle.allclose(xn, yn, equal_nan=True),
            "i1": paddle.isclose(x, y, rtol=1e-05, atol=1e-08),
            "i3": paddle.isclose(xn, yn), "i4": paddle.isclose(xn, yn, equal_nan=True),
            "bad": attempt(paddle.allclose, x, paddle.to_tensor([1, 2]))}


@program(item="fresh")
def f11_isnan_isfinite_doc(paddle):
    x = paddle.to_tensor([float("-inf"), -2, 3.6, float("inf"), 0, float("-nan"), float("nan")])
    return {"nan": paddle.isnan(x), "fin": paddle.isfinite(x), "inf": paddle.isinf(x),
            "int": paddle.isnan(paddle.to_tensor([1, 2])),
            "int_fin": paddle.isfinite(paddle.to_tensor([1, 2])),
            "any_nan": paddle.isnan(x).any(), "dtype": str(paddle.isnan(x).dtype)}


# ---------------------------------------------------------------- statistics and reductions


@program(item="fresh")
def f11_mean_doc(paddle):
    x = paddle.to_tensor(np.arange(1.0, 25.0, dtype="float32").reshape([2, 3, 4]),
                         stop_gradient=False)
    out4 = paddle.mean(x, axis=[0, 2])
    (g,) = _grad(paddle, out4 * paddle.to_tensor([1.0, 2.0, 3.0]), x)
    return {"out1": paddle.mean(x), "out2": paddle.mean(x, axis=-1),
            "out3": paddle.mean(x, axis=-1, keepdim=True), "out4": out4,
            "out5": paddle.mean(x, axis=[0, 2], keepdim=True).shape, "g": g,
            "int": attempt(paddle.mean, paddle.to_tensor([1, 2])),
            "empty": paddle.mean(paddle.ones([0]))}


@program(item="fresh")
def f11_std_var_doc(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, 4.0, 5.0]], stop_gradient=False)
    out3 = paddle.std(x, axis=1)
    (g,) = _grad(paddle, out3, x)
    v2 = paddle.var(x, axis=1)
    (gv,) = _grad(paddle, v2, x)
    return {"std1": paddle.std(x), "std2": paddle.std(x, unbiased=False), "std3": out3,
            "g": g, "var1": paddle.var(x), "var2": v2, "gv": gv,
            "keep": paddle.var(x, axis=-1, keepdim=True, unbiased=False),
            "one": paddle.std(paddle.to_tensor([2.0]))}


@program(item="fresh")
def f11_median_quantile_doc(paddle):
    x = paddle.arange(12).reshape([3, 4])
    y = paddle.arange(0, 8, dtype="float32").reshape([4, 2])
    w = _f64(paddle, [[3.0, 1.0, 2.0, 5.0], [0.0, 4.0, 6.0, 1.0]])
    m = paddle.median(w, axis=1)
    (g,) = _grad(paddle, m, w)
    q = paddle.quantile(w, q=0.25, axis=-1)
    (gq,) = _grad(paddle, q, w)
    y2 = y.clone()
    y2[0, 0] = float("nan")
    return {"y1": paddle.median(x), "y2": paddle.median(x, axis=0),
            "y3": paddle.median(x, axis=1), "y4": paddle.median(x, axis=0, keepdim=True),
            "y5": paddle.median(x, mode="min"), "m": m, "g": g,
            "q1": paddle.quantile(y, q=0.5, axis=[0, 1]), "q2": paddle.quantile(y, q=0.5, axis=1),
            "q3": paddle.quantile(y, q=[0.3, 0.5], axis=0), "q": q, "gq": gq,
            "q4": paddle.quantile(y2, q=0.8, axis=1, keepdim=True),
            "bad_q": attempt(paddle.quantile, y, 1.5)}


@program(item="fresh")
def f11_sum_doc(paddle):
    x = paddle.to_tensor([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]], stop_gradient=False)
    out4 = paddle.sum(x, axis=1, keepdim=True)
    (g,) = _grad(paddle, out4 * paddle.to_tensor([[1.0], [2.0]]), x)
    y = paddle.to_tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    b = paddle.to_tensor([[True, True, True, True], [False, False, False, False]])
    s_int = paddle.sum(y, axis=[1, 2])
    return {"out1": paddle.sum(x), "out2": paddle.sum(x, axis=0),
            "out3": paddle.sum(x, axis=-1), "out4": out4, "g": g, "s_int": s_int,
            "s_int_dtype": str(s_int.dtype), "i32": str(paddle.sum(y.astype("int32")).dtype),
            "bool": paddle.sum(b, axis=1), "bool_dtype": str(paddle.sum(b).dtype),
            "dtype_arg": paddle.sum(x, dtype="float64"), "bad": attempt(paddle.sum, x, axis=2)}


@program(item="fresh", differs=(["gz"], PROD_AT_ZERO))
def f11_prod_doc(paddle):
    x = paddle.to_tensor([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]], stop_gradient=False)
    out2 = paddle.prod(x, -1)
    (g,) = _grad(paddle, out2, x)
    y = paddle.to_tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
    z = _f64(paddle, [2.0, 0.0, 3.0])
    (gz,) = _grad(paddle, paddle.prod(z), z)
    return {"out1": paddle.prod(x), "out2": out2, "out3": paddle.prod(x, 0),
            "out4": paddle.prod(x, 0, keepdim=True), "out5": paddle.prod(x, 0, dtype="int64"),
            "out6": paddle.prod(y, [1, 2]), "g": g, "gz": gz}


@program(item="fresh")
def f11_max_min_amax_doc(paddle):
    x = paddle.to_tensor([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]], dtype="float64",
                         stop_gradient=False)
    r1 = paddle.max(x)
    r1.backward()
    g1 = x.grad.numpy().copy()
    x.clear_grad()
    r2 = paddle.max(x, axis=0)
    r2.backward()
    g2 = x.grad.numpy().copy()
    t = paddle.to_tensor([[0.1, 0.9, 0.9, 0.9], [0.9, 0.9, 0.6, 0.7]], dtype="float64",
                         stop_gradient=False)
    (ga,) = _grad(paddle, paddle.amax(t), t)
    (gm,) = _grad(paddle, paddle.max(t), t)
    (gmin,) = _grad(paddle, paddle.min(t, axis=-1, keepdim=True), t)
    return {"r1": r1, "g1": g1, "r2": r2, "g2": g2, "ga": ga, "gm": gm, "gmin": gmin,
            "amin": paddle.amin(t, axis=1), "empty": attempt(paddle.max, paddle.ones([0]))}


@program(item="fresh")
def f11_logsumexp_doc(paddle):
    x = paddle.to_tensor([[-1.5, 0.0, 2.0], [3.0, 1.2, -2.4]], stop_gradient=False)
    out2 = paddle.logsumexp(x, 1)
    (g,) = _grad(paddle, out2, x)
    big = paddle.logsumexp(paddle.to_tensor([1000.0, 1000.0]))
    return {"out1": paddle.logsumexp(x), "out2": out2, "g": g, "big": big,
            "keep": paddle.logsumexp(x, axis=-1, keepdim=True),
            "multi": paddle.logsumexp(x, axis=[0, 1])}


@program(item="fresh")
def f11_all_any_doc(paddle):
    x = paddle.cast(paddle.to_tensor([[1, 0], [1, 1]], dtype="int32"), "bool")
    return {"all1": paddle.all(x), "all2": paddle.all(x, axis=0),
            "all3": paddle.all(x, axis=-1), "all4": paddle.all(x, axis=1, keepdim=True),
            "any1": paddle.any(x), "any2": paddle.any(x, axis=0),
            "any4": paddle.any(x, axis=1, keepdim=True),
            "empty_all": paddle.all(paddle.ones([0], dtype="bool")),
            "empty_any": paddle.any(paddle.ones([0], dtype="bool")),
            "float_any": paddle.any(paddle.to_tensor([0.0, 0.5]))}


@program(item="fresh")
def f11_count_nonzero_nansum_nanmean_doc(paddle):
    x = paddle.to_tensor([[0.0, 1.1, 1.2], [0.0, 0.0, 1.3], [0.0, 0.0, 0.0]])
    n = paddle.to_tensor([[float("nan"), 0.3, 0.5, 0.9], [0.1, 0.2, float("-nan"), 0.7]],
                         dtype="float32", stop_gradient=False)
    s = paddle.nansum(n, axis=0)
    (g,) = _grad(paddle, s, n)
    m = paddle.nanmean(n, axis=1)
    (gm,) = _grad(paddle, m, n)
    c1 = paddle.count_nonzero(x)
    return {"c1": c1, "c1_dtype": str(c1.dtype), "c2": paddle.count_nonzero(x, axis=0),
            "c3": paddle.count_nonzero(x, axis=0, keepdim=True),
            "ns1": paddle.nansum(n), "ns": s, "ns4": paddle.nansum(n, axis=1, keepdim=True),
            "g": g, "nm1": paddle.nanmean(n), "nm": m, "gm": gm}


@program(item="fresh")
def f11_trace_diagonal_tril_doc(paddle):
    c2 = paddle.ones([3, 10, 10])
    c3 = paddle.ones([3, 10, 5, 10])
    x = paddle.to_tensor(np.arange(12, dtype="float64").reshape([2, 2, 3]),
                         stop_gradient=False)
    d = paddle.diagonal(x, offset=1, axis1=0, axis2=1)
    (gd,) = _grad(paddle, d, x)
    data = paddle.arange(1, 13, dtype="int64").reshape([3, -1])
    m = _f64(paddle, np.arange(9.0).reshape([3, 3]))
    (gt,) = _grad(paddle, paddle.trace(m, offset=1) + paddle.triu(m, 1).sum(), m)
    return {"t1": paddle.trace(paddle.ones([2, 3])), "t2": paddle.trace(c2, 1, 1, 2).shape,
            "t3": paddle.trace(c3, offset=-3, axis1=1, axis2=-1).shape,
            "d1": paddle.diagonal(x), "d2": paddle.diagonal(x, 0, 2, 1), "d": d, "gd": gd,
            "tril": paddle.tril(data), "tril2": paddle.tril(data, diagonal=2),
            "triu_neg": paddle.triu(data, diagonal=-1), "gt": gt}


# ---------------------------------------------------------------- type conversion, promotion


@program(item="fresh")
def f11_cast_astype_doc(paddle):
    x = paddle.to_tensor([2, 3, 4], "float64")
    y = paddle.cast(x, "uint8")
    w = paddle.to_tensor([1.7, -2.5], stop_gradient=False)
    c = paddle.cast(w, "float64")
    (g,) = _grad(paddle, c * c, w)
    return {"y": y, "y_dtype": str(y.dtype), "trunc": paddle.cast(w, "int32"),
            "bool": paddle.to_tensor([0.0, 0.3]).astype("bool"),
            "from_bool": paddle.to_tensor([True, False]).astype(paddle.float32),
            "c_dtype": str(c.dtype), "c_sg": c.stop_gradient, "g": g,
            "int_sg": paddle.cast(w, "int64").stop_gradient,
            "bad": attempt(paddle.cast, x, "float7")}


@program(item="fresh")
def f11_promotion_tensor_scalar(paddle):
    i = paddle.to_tensor([1, 2, 3])
    f = paddle.to_tensor([1.0, 2.0])
    f64 = paddle.to_tensor([1.0, 2.0], dtype="float64")
    b = paddle.to_tensor([True, False])
    outs = {"i+1": i + 1, "i+1.5": i + 1.5, "i*2.0": i * 2.0, "i/2": i / 2,
            "f+1": f + 1, "f64*2": f64 * 2, "b+1": b + 1, "b*1.5": b * 1.5,
            "1-i": 1 - i, "2.0/f": 2.0 / f, "i**2": i ** 2, "i**-1.0": i ** -1.0,
            "f+True": f + True}
    r = {k + "_dtype": str(v.dtype) for k, v in outs.items()}
    r.update(outs)
    return r


@program(item="fresh")
def f11_promotion_tensor_tensor(paddle):
    i32 = paddle.to_tensor([1, 2], dtype="int32")
    i64 = paddle.to_tensor([3, 4], dtype="int64")
    f32 = paddle.to_tensor([0.5, 1.5], dtype="float32")
    f64 = paddle.to_tensor([2.0, 3.0], dtype="float64")
    b = paddle.to_tensor([True, False])
    pairs = {"i32+i64": (i32, i64), "f32+f64": (f32, f64), "i64+f32": (i64, f32),
             "b+i64": (b, i64), "b+f32": (b, f32), "i32*f64": (i32, f64)}
    r = {}
    for k, (a, c) in pairs.items():
        r[k] = attempt(lambda a=a, c=c: a + c if "+" in k else a * c)
        if not hasattr(r[k], "type_name"):
            r[k + "_dtype"] = str(r[k].dtype)
    r["func"] = attempt(paddle.add, f32, f64)
    return r


@program(item="fresh")
def f11_tensor_methods_basic(paddle):
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], stop_gradient=False)
    y = x.abs().sum(axis=1).mean()
    (g,) = _grad(paddle, y, x)
    return {"y": y, "g": g, "numel": x.numel(), "size": x.size, "ndim": x.ndim, "dim": x.dim(),
            "shape": x.shape, "dtype": str(x.dtype), "item": x[0, 1].item(),
            "tolist": x.tolist(), "argmax": x.argmax(axis=-1), "t": x.t().shape,
            "unsq": x.unsqueeze(0).shape, "max": x.max(axis=0), "numel_f": paddle.numel(x),
            "rank": paddle.rank(x), "item_bad": attempt(x.item)}


# ---------------------------------------------------------------- cumulative ops


@program(item="fresh")
def f11_cumsum_doc(paddle):
    data = paddle.reshape(paddle.arange(12), (3, 4))
    y4 = paddle.cumsum(data, dtype="float64")
    w = _f64(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    c = paddle.cumsum(w, axis=-1)
    (g,) = _grad(paddle, c * paddle.to_tensor([1.0, 10.0, 100.0], dtype="float64"), w)
    return {"y1": paddle.cumsum(data), "y2": paddle.cumsum(data, axis=0),
            "y3": paddle.cumsum(data, axis=-1), "y4": y4, "y4_dtype": str(y4.dtype),
            "dtype": str(paddle.cumsum(data).dtype), "c": c, "g": g,
            "bool": attempt(paddle.cumsum, paddle.to_tensor([True, True, False])),
            "bad": attempt(paddle.cumsum, data, axis=3)}


@program(item="fresh")
def f11_cumprod_doc(paddle):
    data = paddle.reshape(paddle.arange(12), (3, 4))
    y = paddle.cumprod(data, dim=1, dtype="float64")
    w = _f64(paddle, [[1.0, 2.0, 3.0], [4.0, 0.0, 6.0]])
    c = paddle.cumprod(w, dim=-1)
    (g,) = _grad(paddle, c, w)
    return {"y1": paddle.cumprod(data, dim=0), "y2": paddle.cumprod(data, dim=-1), "y": y,
            "y_dtype": str(y.dtype), "c": c, "g": g}


@program(item="fresh")
def f11_cummax_cummin_doc(paddle):
    data = paddle.reshape(paddle.to_tensor([-1, 5, 0, -2, -3, 2]), (2, 3))
    v, i = paddle.cummax(data)
    w = _f64(paddle, [1.0, 3.0, 2.0, 5.0, 4.0])
    cv, ci = paddle.cummax(w, axis=0)
    (g,) = _grad(paddle, cv, w)
    mv, mi = paddle.cummin(w, axis=-1)
    (gm,) = _grad(paddle, mv, w)
    return {"v": v, "i": i, "v0": paddle.cummax(data, axis=0),
            "vneg": paddle.cummax(data, axis=-1), "i_dtype": str(i.dtype),
            "i32": str(paddle.cummax(data, dtype="int32")[1].dtype), "cv": cv, "ci": ci,
            "g": g, "mv": mv, "mi": mi, "gm": gm}


@program(item="fresh")
def f11_diff_doc(paddle):
    x = paddle.to_tensor([1, 4, 5, 2])
    y = paddle.to_tensor([7, 9])
    w = _f64(paddle, [[1.0, 3.0, 6.0], [10.0, 15.0, 21.0]])
    d = paddle.diff(w, axis=0)
    (g,) = _grad(paddle, paddle.diff(w, n=2, axis=-1) * 5.0, w)
    return {"d1": paddle.diff(x), "d2": paddle.diff(x, n=2),
            "d3": paddle.diff(x, append=y), "d4": paddle.diff(x, n=2, append=y),
            "d5": paddle.diff(x, n=3, append=y), "pre": paddle.diff(x, prepend=y),
            "d": d, "g": g, "bool": paddle.diff(paddle.to_tensor([True, False, False]))}


# ---------------------------------------------------------------- nn.functional basics


@program(item="fresh")
def f11_relu_sigmoid_doc(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([-2, 0, 1], dtype="float32", stop_gradient=False)
    r = F.relu(x)
    (g,) = _grad(paddle, r, x)
    s_in = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3], stop_gradient=False)
    s = F.sigmoid(s_in)
    (gs,) = _grad(paddle, s, s_in)
    return {"r": r, "g": g, "s": s, "gs": gs, "relu6": F.relu6(paddle.to_tensor([-1.0, 7.0])),
            "leaky": F.leaky_relu(paddle.to_tensor([-2.0, 2.0]), 0.1),
            "tanh": F.tanh(paddle.to_tensor([0.5])),
            "int": attempt(F.relu, paddle.to_tensor([-1, 2]))}


@program(item="fresh")
def f11_softmax_doc(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[[2.0, 3.0, 4.0, 5.0], [3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 8.0, 9.0]],
                          [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [6.0, 7.0, 8.0, 9.0]]],
                         dtype="float32", stop_gradient=False)
    out1 = F.softmax(x)
    out2 = F.softmax(x, dtype="float64")
    (g,) = _grad(paddle, out1[:, :, 0] * 3.0, x)
    return {"out1": out1, "out2": out2, "out2_dtype": str(out2.dtype),
            "axis0": F.softmax(x, axis=0), "g": g,
            "bad": attempt(F.softmax, x, axis=3)}


@program(item="fresh")
def f11_log_softmax_doc(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[[-2.0, 3.0, -4.0, 5.0], [3.0, -4.0, 5.0, -6.0], [-7.0, -8.0, 8.0, 9.0]],
                          [[1.0, -2.0, -3.0, 4.0], [-5.0, 6.0, 7.0, -8.0], [6.0, 7.0, 8.0, 9.0]]],
                         stop_gradient=False)
    out1 = F.log_softmax(x)
    out2 = F.log_softmax(x, dtype="float64")
    (g,) = _grad(paddle, out1[..., 1], x)
    return {"out1": out1, "out2_dtype": str(out2.dtype), "out2": out2, "g": g,
            "neg": F.log_softmax(x, axis=-2)}


@program(item="fresh")
def f11_gelu_silu_doc(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[-1.0, 0.5], [1.0, 1.5]], stop_gradient=False)
    a = F.gelu(x)
    b = F.gelu(x, approximate=True)
    ga, gb = (_grad(paddle, a, x)[0], _grad(paddle, b, x)[0])
    s = F.silu(x)
    (gs,) = _grad(paddle, s, x)
    return {"a": a, "b": b, "ga": ga, "gb": gb, "s": s, "gs": gs,
            "softplus": F.softplus(paddle.to_tensor([-1.0, 0.0, 30.0]))}


@program(item="fresh")
def f11_dropout_doc(paddle):
    F = paddle.nn.functional
    x = paddle.ones([200, 50])
    y_train = F.dropout(x, 0.5)
    y_test = F.dropout(x, 0.5, training=False)
    y_down = F.dropout(x, 0.5, training=False, mode="downscale_in_infer")
    y_axis = F.dropout(paddle.ones([4, 300]), 0.5, axis=0)
    kept = (y_train != 0).astype("float32").mean().item()
    vals = sorted(set(np.unique(y_train.numpy()).tolist()))
    row_const = bool(np.all(y_axis.numpy() == y_axis.numpy()[:, :1]))
    return {"kept_near_half": abs(kept - 0.5) < 0.05, "vals": vals, "test": y_test,
            "down": y_down[0, :3], "shape": y_train.shape, "row_const": row_const,
            "p0": F.dropout(x, 0.0)[0, :3], "p1": F.dropout(x, 1.0)[0, :3],
            "bad": attempt(F.dropout, x, 1.5)}


@program(item="fresh")
def f11_one_hot_embedding_doc(paddle):
    F = paddle.nn.functional
    label = paddle.to_tensor([1, 1, 3, 0], dtype="int64")
    oh = F.one_hot(label, num_classes=4)
    x = paddle.arange(3, 6).reshape((3, 1)).astype(paddle.int64)
    w = paddle.to_tensor(np.arange(30, dtype="float32").reshape([10, 3]), stop_gradient=False)
    emb = F.embedding(x=x, weight=w)
    (g,) = _grad(paddle, emb * 2.0, w)
    pad = F.embedding(paddle.to_tensor([0, 2]), w, padding_idx=0)
    return {"oh": oh, "oh_dtype": str(oh.dtype), "oh_shape": oh.shape, "emb": emb,
            "emb_shape": emb.shape, "g": g, "pad": pad,
            "bad": attempt(F.one_hot, paddle.to_tensor([5]), 4)}


@program(item="fresh")
def f11_pad_doc(paddle):
    F = paddle.nn.functional
    x = paddle.arange(paddle.prod(paddle.to_tensor((1, 1, 3))), dtype="float32").reshape(
        (1, 1, 3)) + 1
    y1 = F.pad(x, [0, 0, 0, 0, 2, 3], value=1, mode="constant", data_format="NCL")
    y2 = F.pad(x, [2, 3], value=1, mode="constant", data_format="NCL")
    x4 = paddle.arange(6, dtype="float32").reshape((1, 1, 2, 3)) + 1
    x4.stop_gradient = False
    y3 = F.pad(x4, [1, 0, 1, 1], mode="reflect")
    (g,) = _grad(paddle, y3, x4)
    return {"y1": y1, "y2": y2, "y3": y3, "g": g,
            "rep": F.pad(x4, [1, 1, 0, 0], mode="replicate"),
            "circ": F.pad(x4, [1, 1, 1, 1], mode="circular")}


@program(item="fresh")
def f11_linear_doc(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[0.5, -1.0], [2.0, 0.0], [1.0, 1.0]], stop_gradient=False)
    weight = paddle.full(shape=[2, 4], fill_value=0.5, dtype="float32")
    weight.stop_gradient = False
    bias = paddle.ones(shape=[4], dtype="float32")
    bias.stop_gradient = False
    y = F.linear(x, weight, bias)
    gx, gw, gb = _grad(paddle, y * y, x, weight, bias)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb, "nobias": F.linear(x, weight),
            "batch": F.linear(paddle.ones([2, 3, 2]), weight).shape,
            "bad": attempt(F.linear, x, paddle.ones([3, 4]))}


@program(item="fresh")
def f11_cross_entropy_doc(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, 3.0, 0.0]],
                              dtype="float64", stop_gradient=False)
    label = paddle.to_tensor([0, 2, 1], dtype="int64")
    weight = paddle.to_tensor([1.0, 2.0, 0.5], dtype="float64")
    mean = F.cross_entropy(logits, label)
    (g,) = _grad(paddle, mean, logits)
    soft = paddle.to_tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5], [0.3, 0.3, 0.4]],
                            dtype="float64")
    return {"mean": mean, "shape": mean.shape, "g": g,
            "w": F.cross_entropy(logits, label, weight=weight),
            "none": F.cross_entropy(logits, label, reduction="none"),
            "sum": F.cross_entropy(logits, label.unsqueeze(-1), reduction="sum"),
            "soft": F.cross_entropy(logits, soft, soft_label=True),
            "ignore": F.cross_entropy(logits, paddle.to_tensor([0, -100, 1])),
            "smooth": F.cross_entropy(logits, label, label_smoothing=0.1)}


@program(item="fresh")
def f11_normalize_doc(paddle):
    F = paddle.nn.functional
    x = paddle.arange(6, dtype="float32").reshape([2, 3])
    w = _f64(paddle, [[3.0, 4.0], [1.0, 0.0]])
    n = F.normalize(w)
    (g,) = _grad(paddle, n * paddle.to_tensor([1.0, 2.0], dtype="float64"), w)
    return {"y1": F.normalize(x), "y2": F.normalize(x, p=1.5), "y3": F.normalize(x, axis=0),
            "n": n, "g": g, "zero": F.normalize(paddle.zeros([1, 2]))}


@program(item="fresh")
def f11_layer_norm_doc(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(np.linspace(-1, 2, 24).reshape([2, 2, 2, 3]).astype("float32"),
                         stop_gradient=False)
    out = F.layer_norm(x, x.shape[1:])
    w = paddle.to_tensor([1.0, 2.0, 0.5], stop_gradient=False)
    b = paddle.to_tensor([0.0, 0.1, -0.1], stop_gradient=False)
    o2 = F.layer_norm(x, 3, weight=w, bias=b)
    gx, gw, gb = _grad(paddle, o2 * o2[..., :1], x, w, b)
    return {"out": out, "mean": out.mean().item(), "o2": o2, "gx": gx, "gw": gw, "gb": gb,
            "bad": attempt(F.layer_norm, x, [5])}


# ---------------------------------------------------------------- einsum, norm, meshgrid, clone


@program(item="fresh")
def f11_einsum_doc(paddle):
    x = _f64(paddle, [1.0, 2.0, 3.0, 4.0])
    y = _f64(paddle, [0.5, 1.0, 1.5, 2.0, 2.5])
    a = paddle.to_tensor(np.arange(24.0).reshape([2, 3, 4]))
    b = paddle.to_tensor(np.arange(40.0).reshape([2, 4, 5]))
    outer = paddle.einsum("i,j->ij", x, y)
    gx, gy = _grad(paddle, outer, x, y)
    return {"sum": paddle.einsum("i->", x), "dot": paddle.einsum("i,i->", x, x),
            "outer": outer, "gx": gx, "gy": gy, "bmm": paddle.einsum("bij,bjk->bik", a, b),
            "trans": paddle.einsum("ijk->kji", a).shape, "ell": paddle.einsum("...jk->...kj",
                                                                             a).shape,
            "bad": attempt(paddle.einsum, "i,i->", x, y)}


@program(item="fresh")
def f11_norm_doc(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4]) - 12
    x.stop_gradient = False
    fro = paddle.linalg.norm(x, p="fro", axis=[0, 1])
    p2 = paddle.linalg.norm(x, p=2, axis=-1)
    (g,) = _grad(paddle, p2, x)
    return {"fro": fro, "p2": p2, "p2_01": paddle.linalg.norm(x, p=2, axis=[0, 1]),
            "inf": paddle.linalg.norm(x, p=float("inf")),
            "ninf": paddle.linalg.norm(x, p=-float("inf"), axis=0),
            "p1": paddle.linalg.norm(x, p=1, axis=1, keepdim=True), "all": paddle.linalg.norm(x),
            "g": g, "pnorm": paddle.norm(x, p=3, axis=-1)}


@program(item="fresh")
def f11_meshgrid_doc(paddle):
    x = paddle.randint(low=0, high=100, shape=[100])
    y = paddle.randint(low=0, high=100, shape=[200])
    gx, gy = paddle.meshgrid(x, y)
    a = paddle.to_tensor([1.0, 2.0])
    b = paddle.to_tensor([3.0, 4.0, 5.0])
    ga, gb = paddle.meshgrid(a, b)
    l1, l2 = paddle.meshgrid([a, b])
    return {"gx": gx.shape, "gy": gy.shape, "dtype": str(gx.dtype), "ga": ga, "gb": gb,
            "list": l1.shape, "gx_range": bool((gx.min() >= 0).item() and (gx.max() < 100).item())}


@program(item="fresh")
def f11_clone_detach_doc(paddle):
    x = paddle.ones([2])
    x.stop_gradient = False
    x.retain_grads()
    clone_x = paddle.clone(x)
    clone_x.retain_grads()
    y = clone_x ** 3
    y.backward()
    d = x.detach()
    return {"clone_grad": clone_x.grad, "x_grad": x.grad, "clone_leaf": clone_x.is_leaf,
            "clone_sg": clone_x.stop_gradient, "d_sg": d.stop_gradient, "y": y,
            "method": x.clone().stop_gradient}
