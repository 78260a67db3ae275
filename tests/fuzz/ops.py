"""The catalogue of core ops the fuzz suite drives: how to draw inputs for each, and how to call
it. One function serves opsdk and Paddle (``m`` is the module: opsdk speaks Paddle's API);
``torch`` is the reference for second order where Paddle has no double grad."""
import numpy as np
from hypothesis import strategies as st

from . import strategies as S


class Op:
    """One op: ``draw(data) -> (arrays, diff, attrs, dtype)``, ``fn(m, *tensors, **attrs)``."""

    def __init__(self, name, draw, fn, torch=None, second=True, scale=1.0, paddle_wrong=None):
        # torch: only where the op must be spelled differently for torch_shim
        self.name, self.draw, self.fn, self.torch = name, draw, fn, torch
        self.second = second  # Paddle can differentiate it twice
        self.scale = scale    # tolerance multiplier (ill-conditioned formulas)
        # paddle_wrong(arrays, attrs) -> the stages where Paddle's answer is a wrong number for
        # these inputs (compared against torch instead; docs/paddle.md lists them)
        self.paddle_wrong = paddle_wrong or (lambda arrays, attrs: ())

    def __repr__(self):
        return self.name


def _unary_draw(low=-3.0, high=3.0, kinks=(), integers=False, half=False, zero=True):
    def draw(data):
        dtype = S.float_dtype(data, with_half=half)
        shp = S.shape(data, zero=zero)
        return [S.values(data, shp, dtype, low, high, kinks=kinks, integers=integers)], [True], \
            {}, dtype
    return draw


def _binary_draw(low=-3.0, high=3.0, kinks=(), positive_y=False, integers=False, ties=True):
    def draw(data):
        dtype = S.float_dtype(data)
        sa, sb = S.broadcast_pair(data)
        x = S.values(data, sa, dtype, low, high, kinks=kinks, integers=integers)
        y = S.values(data, sb, dtype, 0.25 if positive_y else low, high, kinks=kinks,
                     integers=integers)
        if ties and x.shape == y.shape and x.size and data.draw(st.booleans(), label="tie"):
            y.reshape(-1)[0] = x.reshape(-1)[0]
        diff = data.draw(st.sampled_from([(True, True), (True, False), (False, True)]),
                         label="diff")
        return [x, y], list(diff), {}, dtype
    return draw


def _with_scalar_draw(scalars):
    def draw(data):
        dtype = S.float_dtype(data)
        x = S.values(data, S.shape(data), dtype)
        return [x], [True], {"s": data.draw(st.sampled_from(scalars), label="scalar")}, dtype
    return draw


def _reduce_draw(keepdim=True, unbiased=False, p=False, nonempty_axes=False):
    def draw(data):
        dtype = S.float_dtype(data)
        shp = S.shape(data, zero=not nonempty_axes)
        attrs = {"axis": S.axes_for(data, len(shp))}
        if keepdim:
            attrs["keepdim"] = data.draw(st.booleans(), label="keepdim")
        if unbiased:
            attrs["unbiased"] = data.draw(st.booleans(), label="unbiased")
        if p:
            attrs["p"] = data.draw(st.sampled_from([2, 1, 3, "fro", float("inf")]), label="p")
            if attrs["p"] == "fro" or attrs["axis"] is None or isinstance(attrs["axis"], list):
                attrs["axis"] = None if attrs["p"] != "fro" else attrs["axis"]
        return [S.values(data, shp, dtype)], [True], attrs, dtype
    return draw


def _extreme_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, zero=False)
    x = S.values(data, shp, dtype, specials=(0.0, 1.0, -1.0, np.inf, -np.inf))
    if x.size > 1 and data.draw(st.booleans(), label="tie"):
        x.reshape(-1)[-1] = x.reshape(-1)[0]
    return [x], [True], {"axis": S.axis_for(data, len(shp)),
                         "keepdim": data.draw(st.booleans(), label="keepdim")}, dtype


def _matmul_draw(data):
    dtype = S.float_dtype(data)
    n, k, m = (data.draw(st.integers(0, 3), label=v) for v in "nkm")
    batch = S.shape(data, 0, 2, zero=False, max_side=2)
    kind = data.draw(st.sampled_from(["mm", "vec_mat", "mat_vec", "batched"]), label="kind")
    if kind == "mm":
        a, b = (n, k), (k, m)
    elif kind == "vec_mat":
        a, b = (k,), (k, m)
    elif kind == "mat_vec":
        a, b = (n, k), (k,)
    else:
        a, b = batch + (n, k), batch[-1:] + (k, m)
    tx = data.draw(st.booleans(), label="tx") and len(a) >= 2
    ty = data.draw(st.booleans(), label="ty") and len(b) >= 2
    if tx:
        a = a[:-2] + (a[-1], a[-2])
    if ty:
        b = b[:-2] + (b[-1], b[-2])
    return [S.values(data, a, dtype, specials=()), S.values(data, b, dtype, specials=())], \
        [True, True], {"transpose_x": tx, "transpose_y": ty}, dtype


def _perm_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1)
    perm = data.draw(st.permutations(list(range(len(shp)))), label="perm")
    return [S.values(data, shp, dtype)], [True], {"perm": list(perm)}, dtype


def _reshape_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data)
    n = int(np.prod(shp, dtype=np.int64))
    # a new shape with the same element count (-1 once where n allows it)
    sides = [s for s in range(1, 5) if n % s == 0] or [1]
    first = data.draw(st.sampled_from(sides), label="first") if n else 0
    new = [first, n // first if first else 0]
    if n and data.draw(st.booleans(), label="infer"):
        new[1] = -1
    return [S.values(data, shp, dtype)], [True], {"shape": new}, dtype


def _squeeze_draw(data):
    dtype = S.float_dtype(data)
    shp = list(S.shape(data))
    if shp and data.draw(st.booleans(), label="one"):
        shp[data.draw(st.integers(0, len(shp) - 1), label="where")] = 1
    attrs = {"axis": S.axis_for(data, len(shp))} if shp else {}
    return [S.values(data, tuple(shp), dtype)], [True], attrs, dtype


def _unsqueeze_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data)
    axis = data.draw(st.integers(-len(shp) - 1, len(shp)), label="axis")
    return [S.values(data, shp, dtype)], [True], {"axis": axis}, dtype


def _concat_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1)
    axis = data.draw(st.integers(-len(shp), len(shp) - 1), label="axis")
    parts = []
    for i in range(data.draw(st.integers(1, 3), label="count")):
        s = list(shp)
        s[axis] = data.draw(st.integers(0, 3), label="side")
        parts.append(S.values(data, tuple(s), dtype))
    return parts, [True] * len(parts), {"axis": axis}, dtype


def _split_draw(data):
    dtype = S.float_dtype(data)
    shp = list(S.shape(data, 1))
    axis = data.draw(st.integers(0, len(shp) - 1), label="axis")
    k = data.draw(st.integers(1, 3), label="parts")
    shp[axis] = k * data.draw(st.integers(0, 2), label="each")
    return [S.values(data, tuple(shp), dtype)], [True], {"num": k, "axis": axis}, dtype


def _unbind_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1)
    return [S.values(data, shp, dtype)], [True], \
        {"axis": data.draw(st.integers(0, len(shp) - 1), label="axis")}, dtype


def _flip_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1)
    axes = data.draw(st.lists(st.integers(0, len(shp) - 1), min_size=1, unique=True),
                     label="axes")
    return [S.values(data, shp, dtype)], [True], {"axis": axes}, dtype


def _expand_draw(data):
    dtype = S.float_dtype(data)
    small, big = S.broadcast_pair(data)
    target = tuple(np.broadcast_shapes(small, big))
    return [S.values(data, small, dtype)], [True], {"shape": list(target)}, dtype


def _tile_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 0, 2)
    reps = data.draw(st.lists(st.integers(1, 2), min_size=max(len(shp), 1), max_size=3),
                     label="reps")
    return [S.values(data, shp, dtype)], [True], {"reps": reps}, dtype


def _getitem_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1)
    idx = []
    for s in shp:
        kind = data.draw(st.sampled_from(["slice", "int", "all", "list"] if s else ["all"]),
                         label="kind")
        if kind == "int":
            idx.append(data.draw(st.integers(-s, s - 1), label="i"))
        elif kind == "slice":
            a = data.draw(st.integers(-s, s), label="a")
            b = data.draw(st.integers(-s, s), label="b")
            step = data.draw(st.sampled_from([1, 2, -1]), label="step")
            idx.append(slice(a, b, step))
        elif kind == "list":
            idx.append(data.draw(st.lists(st.integers(0, s - 1), min_size=1, max_size=3),
                                 label="l"))
        else:
            idx.append(slice(None))
    lists = [i for i in idx if isinstance(i, list)]
    if len(lists) > 1:  # one advanced index (Paddle and NumPy combine several differently)
        idx = [slice(None) if isinstance(i, list) and i is not lists[0] else i for i in idx]
    if data.draw(st.booleans(), label="none") and not lists:
        idx.insert(data.draw(st.integers(0, len(idx)), label="where"), None)
    return [S.values(data, shp, dtype)], [True], {"index": tuple(idx)}, dtype


def _mask_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1)
    x = S.values(data, shp, dtype)
    mask = np.asarray(data.draw(st.lists(st.booleans(), min_size=x.size, max_size=x.size),
                                label="mask"), dtype=bool).reshape(shp)
    return [x], [True], {"mask": mask}, dtype


def _gather_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1, zero=False)
    axis = data.draw(st.integers(0, len(shp) - 1), label="axis")
    index = data.draw(st.lists(st.integers(0, shp[axis] - 1), max_size=4), label="index")
    return [S.values(data, shp, dtype)], [True], \
        {"index": np.asarray(index, dtype=np.int64), "axis": axis}, dtype


def _take_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data, 1, zero=False)
    axis = data.draw(st.integers(0, len(shp) - 1), label="axis")
    ishape = list(shp)
    ishape[axis] = data.draw(st.integers(1, 3), label="k")
    idx = np.asarray(data.draw(st.lists(st.integers(0, shp[axis] - 1),
                                        min_size=int(np.prod(ishape)),
                                        max_size=int(np.prod(ishape))), label="i"),
                     dtype=np.int64).reshape(ishape)
    return [S.values(data, shp, dtype)], [True], {"indices": idx, "axis": axis}, dtype


def _where_draw(data):
    dtype = S.float_dtype(data)
    sa, sb = S.broadcast_pair(data)
    cond = np.asarray(data.draw(st.lists(st.booleans(), min_size=int(np.prod(sa)),
                                         max_size=int(np.prod(sa))), label="c"),
                      dtype=bool).reshape(sa)
    return [S.values(data, sa, dtype), S.values(data, sb, dtype)], [True, True], \
        {"cond": cond}, dtype


def _clip_draw(data):
    dtype = S.float_dtype(data)
    lo = data.draw(st.sampled_from([-1.0, 0.0, None]), label="lo")
    hi = data.draw(st.sampled_from([1.0, 2.0, None]), label="hi")
    x = S.values(data, S.shape(data), dtype, kinks=tuple(v for v in (lo, hi) if v is not None))
    return [x], [True], {"lo": lo, "hi": hi}, dtype


def _softmax_draw(data):
    dtype = S.float_dtype(data)
    shp = S.shape(data)
    return [S.values(data, shp, dtype, specials=(0.0, 1.0, -1.0, 5.0))], [True], \
        {"axis": S.axis_for(data, len(shp), allow_none=False)}, dtype


def _cast_draw(data):
    dtype = S.float_dtype(data)
    return [S.values(data, S.shape(data), dtype)], [True], \
        {"to": data.draw(st.sampled_from(["float32", "float64"]), label="to")}, dtype


F = lambda m: m.nn.functional  # noqa: E731
_ALL = ("values", "grad", "backward", "second order")


def _nonfinite(arrays, attrs):
    # inf/nan inputs: handled by the special-value fallback of the test (torch, elementwise)
    return ()


def _lse_wrong(arrays, attrs):
    # Paddle's logsumexp of +inf (or of only -inf) is nan; it is +inf (-inf)
    x = arrays[0]
    return _ALL if (np.isposinf(x).any() or np.isneginf(x).any()) else _nonfinite(arrays, attrs)


def _norm_wrong(arrays, attrs):
    # Paddle's norm of a 0-d tensor along axis 0 is 0, whatever the value; of a tensor with
    # no elements it may crash the process (p_norm kernel): torch is the reference for both
    x = arrays[0]
    if (x.ndim == 0 and attrs.get("axis") is not None) or x.size == 0:
        return _ALL
    # Paddle's float64 p-norm for p other than 1, 2, inf is computed to float32 precision
    if x.dtype == np.float64 and attrs.get("p") not in (1, 2, "fro", float("inf")):
        return _ALL
    return ()


def _var_wrong(arrays, attrs):
    # a 0-d tensor's var/std is Paddle's constant (no gradient): compared with Paddle
    return () if arrays[0].ndim == 0 else _nonfinite(arrays, attrs)

OPS = [
    Op("neg", _unary_draw(), lambda m, x: m.neg(x)),
    Op("abs", _unary_draw(kinks=(0.0,)), lambda m, x: m.abs(x)),
    Op("exp", _unary_draw(), lambda m, x: m.exp(x)),
    Op("log", _unary_draw(-1.0, 4.0), lambda m, x: m.log(x)),
    Op("sqrt", _unary_draw(-1.0, 4.0), lambda m, x: m.sqrt(x)),
    Op("rsqrt", _unary_draw(0.1, 4.0), lambda m, x: m.rsqrt(x)),
    Op("square", _unary_draw(), lambda m, x: m.square(x)),
    Op("reciprocal", _unary_draw(), lambda m, x: m.reciprocal(x), second=False),
    Op("sin", _unary_draw(), lambda m, x: m.sin(x)),
    Op("cos", _unary_draw(), lambda m, x: m.cos(x)),
    Op("tanh", _unary_draw(), lambda m, x: m.tanh(x)),
    Op("sigmoid", _unary_draw(-30.0, 30.0), lambda m, x: F(m).sigmoid(x)),
    Op("log_sigmoid", _unary_draw(-30.0, 5.0), lambda m, x: m.log(F(m).sigmoid(x))),
    Op("sign", _unary_draw(kinks=(0.0,)), lambda m, x: m.sign(x), second=False),
    Op("floor", _unary_draw(integers=True), lambda m, x: m.floor(x), second=False),
    Op("ceil", _unary_draw(integers=True), lambda m, x: m.ceil(x), second=False),
    Op("round", _unary_draw(integers=True), lambda m, x: m.round(x), second=False),
    Op("relu", _unary_draw(kinks=(0.0,)), lambda m, x: F(m).relu(x)),
    Op("clip", _clip_draw, lambda m, x, lo, hi: m.clip(x, lo, hi)),
    Op("pow_scalar", _with_scalar_draw([2, 3, 0.5, -1, 0, 1.5, -2, 1]),
       lambda m, x, s: x ** s),
    Op("rpow_scalar", _with_scalar_draw([2.0, 0.5, 3]), lambda m, x, s: s ** x),
    Op("scalar_ops", _with_scalar_draw([0.5, -2, 3.0, 1]),
       lambda m, x, s: (x + s) * s - s / (x * 0 + 4) + (s - x)),
    Op("softmax", _softmax_draw, lambda m, x, axis: F(m).softmax(x, axis)),
    Op("log_softmax", _softmax_draw, lambda m, x, axis: F(m).log_softmax(x, axis)),
    Op("add", _binary_draw(), lambda m, x, y: m.add(x, y)),
    Op("subtract", _binary_draw(), lambda m, x, y: m.subtract(x, y)),
    Op("multiply", _binary_draw(), lambda m, x, y: m.multiply(x, y)),
    Op("divide", _binary_draw(), lambda m, x, y: m.divide(x, y)),
    Op("pow", _binary_draw(-2.0, 3.0, kinks=(0.0,)), lambda m, x, y: m.pow(x, y), scale=10),
    Op("maximum", _binary_draw(), lambda m, x, y: m.maximum(x, y)),
    Op("minimum", _binary_draw(), lambda m, x, y: m.minimum(x, y)),
    Op("remainder", _binary_draw(-5.0, 5.0, integers=True),
       lambda m, x, y: m.remainder(x, y), second=False),
    Op("floor_divide", _binary_draw(-5.0, 5.0, integers=True),
       lambda m, x, y: m.floor_divide(x, y), second=False),
    Op("where", _where_draw, lambda m, x, y, cond: m.where(m.to_tensor(cond), x, y)),
    Op("matmul", _matmul_draw, lambda m, x, y, transpose_x, transpose_y:
       m.matmul(x, y, transpose_x, transpose_y)),
    Op("sum", _reduce_draw(), lambda m, x, axis, keepdim: m.sum(x, axis=axis, keepdim=keepdim)),
    Op("mean", _reduce_draw(), lambda m, x, axis, keepdim: m.mean(x, axis=axis, keepdim=keepdim)),
    Op("max", _extreme_draw, lambda m, x, axis, keepdim: m.max(x, axis=axis, keepdim=keepdim),
       second=False),
    Op("min", _extreme_draw, lambda m, x, axis, keepdim: m.min(x, axis=axis, keepdim=keepdim),
       second=False),
    Op("logsumexp", _reduce_draw(nonempty_axes=True),
       lambda m, x, axis, keepdim: m.logsumexp(x, axis=axis, keepdim=keepdim),
       second=False, paddle_wrong=_lse_wrong),
    Op("var", _reduce_draw(unbiased=True),
       lambda m, x, axis, keepdim, unbiased: m.var(x, axis, unbiased, keepdim), scale=10, paddle_wrong=_var_wrong),
    Op("std", _reduce_draw(unbiased=True),
       lambda m, x, axis, keepdim, unbiased: m.std(x, axis, unbiased, keepdim), scale=10, paddle_wrong=_var_wrong),
    Op("norm", _reduce_draw(p=True),
       lambda m, x, axis, keepdim, p: m.norm(x, p=p, axis=axis, keepdim=keepdim),
       second=False, scale=10, paddle_wrong=_norm_wrong),
    Op("reshape", _reshape_draw, lambda m, x, shape: m.reshape(x, shape)),
    Op("transpose", _perm_draw, lambda m, x, perm: m.transpose(x, perm)),
    Op("squeeze", _squeeze_draw, lambda m, x, axis=None: m.squeeze(x, axis)),
    Op("unsqueeze", _unsqueeze_draw, lambda m, x, axis: m.unsqueeze(x, axis)),
    Op("flatten", _unary_draw(), lambda m, x: m.flatten(x)),
    Op("concat", _concat_draw, lambda m, *xs, axis: m.concat(list(xs), axis)),
    Op("stack", _unary_draw(), lambda m, x: m.stack([x, x * 2])),
    Op("split", _split_draw, lambda m, x, num, axis: [p * (i + 1) for i, p in
                                                      enumerate(m.split(x, num, axis))]),
    Op("unbind", _unbind_draw, lambda m, x, axis: [p * (i + 1) for i, p in
                                                   enumerate(m.unbind(x, axis))]),
    Op("flip", _flip_draw, lambda m, x, axis: m.flip(x, axis)),
    Op("expand", _expand_draw, lambda m, x, shape: m.expand(x, shape)),
    Op("tile", _tile_draw, lambda m, x, reps: m.tile(x, reps)),
    Op("getitem", _getitem_draw, lambda m, x, index: x[index]),
    Op("masked_select", _mask_draw, lambda m, x, mask: m.masked_select(x, m.to_tensor(mask))),
    Op("index_select", _gather_draw, lambda m, x, index, axis:
       m.index_select(x, m.to_tensor(index), axis)),
    Op("gather", _gather_draw, lambda m, x, index, axis: m.gather(x, m.to_tensor(index), axis)),
    Op("take_along_axis", _take_draw, lambda m, x, indices, axis:
       m.take_along_axis(x, m.to_tensor(indices), axis)),
    Op("cast", _cast_draw, lambda m, x, to: m.cast(x, to)),
]

BY_NAME = {op.name: op for op in OPS}
