"""Bad-input fuzz against PaddlePaddle 3.3.1: ``cd tests && python -m paddle_compat.error_fuzz [-v]``.

About 150 of the most used paddle / paddle.Tensor / paddle.nn.functional functions are called
with a fixed set of the bad inputs users hit (an axis out of range either side, an int, bool or
float where another dtype belongs, shapes that do not broadcast, an empty or a 0-d tensor, a
negative size, a list of the wrong length, None for a required tensor). Each case ends one of
three ways:

* ``agree``: both succeed with the same values, shapes and dtypes;
* ``family``: both raise, and opsdk's error is an instance of the built-in class Paddle's is
  (its most specific built-in base), so ``except ValueError:`` code written for Paddle works;
* ``mismatch``: anything else (one side raises, the families differ, the results differ).

Two more outcomes are counted apart: ``noted``, a case in NOTED, where Paddle crashes or returns
garbage (uninitialised memory, an index read out of bounds) and opsdk keeps its refusal; and
``missing``, where opsdk has no such name yet (other work adds names; a missing name is not a
bad-input difference).

Paddle runs in a child process (``--paddle-worker``), so a Paddle call that ends the process
(an abort, a segfault) costs only that case: it is reported as ``paddle-crash`` and the worker
starts again after it. The cases are the same on every run; the table is deterministic.
"""
import os
import pickle
import struct
import subprocess
import sys
import warnings

import numpy as np

# ---------------------------------------------------------------------------------------------
# the inputs (NumPy, made into each framework's tensors inside the case)

A23 = (np.arange(6, dtype=np.float32).reshape(2, 3) + 1) / 7     # positive, < 1
A4 = np.array([0.5, 0.25, 0.75, 0.125], dtype=np.float32)
A234 = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) + 1) / 25
A1244 = (np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) + 1) / 33
I23 = np.arange(6, dtype=np.int32).reshape(2, 3)
B23 = np.array([[True, False, True], [False, True, True]])
E03 = np.zeros((0, 3), dtype=np.float32)
S0 = np.array(0.5, dtype=np.float32)


def T(P, a, dtype=None):
    return P.to_tensor(np.array(a), dtype=dtype)


def F(P):
    """paddle.nn.functional of framework P."""
    return P.nn.functional


CASES = []


def case(name, label, fn):
    CASES.append((f"{name}: {label}", fn))


def _attr(P, path):
    obj = P
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


# ---------------------------------------------------------------------------------------------
# elementwise unary: int / bool input where a float is needed, empty, 0-d, None

UNARY = ["abs", "exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "asin", "acos", "atan",
         "sinh", "cosh", "floor", "ceil", "round", "sign", "square", "rsqrt", "reciprocal",
         "neg", "log1p", "expm1", "erf", "trunc", "frac", "digamma", "lgamma", "isnan",
         "isinf", "isfinite", "logical_not", "bitwise_not", "sigmoid", "log2", "log10"]
for _n in UNARY:
    case(_n, "int32 input", lambda P, n=_n: _attr(P, n)(T(P, I23)))
    case(_n, "bool input", lambda P, n=_n: _attr(P, n)(T(P, B23)))
    case(_n, "empty input", lambda P, n=_n: _attr(P, n)(T(P, E03)))
    case(_n, "None", lambda P, n=_n: _attr(P, n)(None))

for _n in ["relu", "gelu", "silu", "softplus", "elu", "leaky_relu", "hardtanh", "relu6",
           "sigmoid", "tanh", "log_sigmoid", "mish", "hardswish", "softsign", "selu"]:
    case(f"F.{_n}", "int32 input", lambda P, n=_n: getattr(F(P), n)(T(P, I23)))
    case(f"F.{_n}", "None", lambda P, n=_n: getattr(F(P), n)(None))
    case(f"F.{_n}", "0-d input", lambda P, n=_n: getattr(F(P), n)(T(P, S0)))

# ---------------------------------------------------------------------------------------------
# elementwise binary: shapes that do not broadcast, mixed dtypes, None

BINARY = ["add", "subtract", "multiply", "divide", "pow", "maximum", "minimum", "floor_divide",
          "remainder", "atan2", "equal", "not_equal", "less_than", "greater_than", "less_equal",
          "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "fmax",
          "fmin", "isclose", "allclose", "equal_all", "heaviside", "hypot"]
for _n in BINARY:
    case(_n, "shapes [2,3] and [4]", lambda P, n=_n: _attr(P, n)(T(P, A23), T(P, A4)))
    case(_n, "shapes [2,3] and [3,2]", lambda P, n=_n: _attr(P, n)(T(P, A23), T(P, A23.T)))
    case(_n, "float32 and int32", lambda P, n=_n: _attr(P, n)(T(P, A23), T(P, I23)))
    case(_n, "float32 and bool", lambda P, n=_n: _attr(P, n)(T(P, A23), T(P, B23)))
    case(_n, "y None", lambda P, n=_n: _attr(P, n)(T(P, A23), None))
    case(_n, "empty and [2,3]", lambda P, n=_n: _attr(P, n)(T(P, E03), T(P, A23)))

# ---------------------------------------------------------------------------------------------
# reductions: an axis out of range either side, a float axis, a repeated axis, empty input

REDUCE = ["sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "std", "var",
          "logsumexp", "argmax", "argmin", "median", "nansum", "nanmean", "count_nonzero",
          "cumsum", "cumprod", "logcumsumexp", "nanmedian", "mode", "kthvalue"]


def _reduce(P, n, x, **kw):
    if n == "kthvalue":
        return P.kthvalue(x, 1, **kw)
    if n == "cumprod":
        return P.cumprod(x, dim=kw.pop("axis", None), **kw)
    return _attr(P, n)(x, **kw)


for _n in REDUCE:
    case(_n, "axis 2 of a 2-d tensor", lambda P, n=_n: _reduce(P, n, T(P, A23), axis=2))
    case(_n, "axis -3 of a 2-d tensor", lambda P, n=_n: _reduce(P, n, T(P, A23), axis=-3))
    case(_n, "float axis 1.0", lambda P, n=_n: _reduce(P, n, T(P, A23), axis=1.0))
    case(_n, "empty input", lambda P, n=_n: _reduce(P, n, T(P, E03), axis=0))
    case(_n, "None", lambda P, n=_n: _reduce(P, n, None))
    if _n not in ("argmax", "argmin", "cumsum", "cumprod", "logcumsumexp", "mode",
                  "kthvalue", "median", "nanmedian"):
        case(_n, "axis [0, 0]", lambda P, n=_n: _reduce(P, n, T(P, A23), axis=[0, 0]))
        case(_n, "axis [0, 5]", lambda P, n=_n: _reduce(P, n, T(P, A23), axis=[0, 5]))
    case(_n, "bool input", lambda P, n=_n: _reduce(P, n, T(P, B23), axis=0))

# ---------------------------------------------------------------------------------------------
# ops along one axis

case("F.softmax", "axis 2", lambda P: F(P).softmax(T(P, A23), axis=2))
case("F.softmax", "axis -3", lambda P: F(P).softmax(T(P, A23), axis=-3))
case("F.log_softmax", "axis 2", lambda P: F(P).log_softmax(T(P, A23), axis=2))
case("F.softmax", "int32 input", lambda P: F(P).softmax(T(P, I23)))
case("flip", "axis 2", lambda P: P.flip(T(P, A23), axis=2))
case("flip", "axis [0, 0]", lambda P: P.flip(T(P, A23), axis=[0, 0]))
case("roll", "axis 2", lambda P: P.roll(T(P, A23), 1, axis=2))
case("roll", "shifts and axis of other lengths", lambda P: P.roll(T(P, A23), [1, 2], axis=0))
case("squeeze", "axis 2", lambda P: P.squeeze(T(P, A23), axis=2))
case("squeeze", "axis -3", lambda P: P.squeeze(T(P, A23), axis=-3))
case("unsqueeze", "axis 4", lambda P: P.unsqueeze(T(P, A23), axis=4))
case("unsqueeze", "axis -5", lambda P: P.unsqueeze(T(P, A23), axis=-5))
case("sort", "axis 2", lambda P: P.sort(T(P, A23), axis=2))
case("argsort", "axis -3", lambda P: P.argsort(T(P, A23), axis=-3))
case("topk", "k larger than the axis", lambda P: P.topk(T(P, A23), 5))
case("topk", "k 0", lambda P: P.topk(T(P, A23), 0))
case("topk", "axis 2", lambda P: P.topk(T(P, A23), 1, axis=2))
case("concat", "axis 2", lambda P: P.concat([T(P, A23), T(P, A23)], axis=2))
case("concat", "shapes [2,3] and [3,2]", lambda P: P.concat([T(P, A23), T(P, A23.T)], axis=0))
case("concat", "empty list", lambda P: P.concat([], axis=0))
case("concat", "float32 and int32", lambda P: P.concat([T(P, A23), T(P, I23)], axis=0))
case("concat", "a tensor, not a list", lambda P: P.concat(T(P, A23), axis=0))
case("stack", "shapes [2,3] and [3,2]", lambda P: P.stack([T(P, A23), T(P, A23.T)]))
case("stack", "axis 3", lambda P: P.stack([T(P, A23), T(P, A23)], axis=3))
case("stack", "empty list", lambda P: P.stack([]))
case("split", "sections not dividing", lambda P: P.split(T(P, A23), 2, axis=1))
case("split", "sections summing wrong", lambda P: P.split(T(P, A23), [1, 1], axis=1))
case("split", "axis 2", lambda P: P.split(T(P, A23), 1, axis=2))
case("chunk", "chunks 0", lambda P: P.chunk(T(P, A23), 0, axis=1))
case("chunk", "axis 2", lambda P: P.chunk(T(P, A23), 3, axis=2))
case("unbind", "axis 2", lambda P: P.unbind(T(P, A23), axis=2))
case("gather", "index out of range", lambda P: P.gather(T(P, A23), T(P, [0, 5]), axis=1))
case("gather", "float index", lambda P: P.gather(T(P, A23), T(P, [0.0, 1.0]), axis=1))
case("gather", "axis 2", lambda P: P.gather(T(P, A23), T(P, [0, 1]), axis=2))
case("index_select", "index out of range", lambda P: P.index_select(T(P, A23), T(P, [0, 7]), axis=1))
case("index_select", "float index", lambda P: P.index_select(T(P, A23), T(P, [0.0]), axis=1))
case("index_select", "axis -3", lambda P: P.index_select(T(P, A23), T(P, [0]), axis=-3))
case("take_along_axis", "index rank 1 for a 2-d x", lambda P: P.take_along_axis(T(P, A23), T(P, [0, 1]), axis=1))
case("take_along_axis", "axis 2", lambda P: P.take_along_axis(T(P, A23), T(P, [[0], [1]]), axis=2))
case("put_along_axis", "values of another shape", lambda P: P.put_along_axis(
    T(P, A23), T(P, [[0], [1]]), T(P, np.ones((3, 3), np.float32)), axis=1))
case("repeat_interleave", "negative repeats", lambda P: P.repeat_interleave(T(P, A23), -1, axis=0))
case("repeat_interleave", "axis 2", lambda P: P.repeat_interleave(T(P, A23), 2, axis=2))
case("diff", "axis 2", lambda P: P.diff(T(P, A23), axis=2))
case("cross", "no axis of length 3", lambda P: P.cross(T(P, A23.T[:2]), T(P, A23.T[:2])))
case("cross", "axis 0 of length 2", lambda P: P.cross(T(P, A23), T(P, A23), axis=0))
case("flatten", "start after stop", lambda P: P.flatten(T(P, A234), start_axis=2, stop_axis=1))
case("flatten", "stop_axis 3", lambda P: P.flatten(T(P, A234), start_axis=0, stop_axis=3))
case("moveaxis", "destination 3", lambda P: P.moveaxis(T(P, A23), 0, 3))
case("moveaxis", "source repeated", lambda P: P.moveaxis(T(P, A234), [0, 0], [1, 2]))
case("diagonal", "axis1 equals axis2", lambda P: P.diagonal(T(P, A23), axis1=0, axis2=0))
case("diagonal", "axis2 2", lambda P: P.diagonal(T(P, A23), axis1=0, axis2=2))
case("trace", "1-d input", lambda P: P.trace(T(P, A4)))
case("tril", "1-d input", lambda P: P.tril(T(P, A4)))
case("triu", "float diagonal", lambda P: P.triu(T(P, A23), diagonal=1.5))
case("unique", "axis 2", lambda P: P.unique(T(P, A23), axis=2))
case("cummax", "axis 2", lambda P: P.cummax(T(P, A23), axis=2))
case("searchsorted", "sorted_sequence rank differs", lambda P: P.searchsorted(T(P, A23), T(P, A4)))
case("bincount", "negative entries", lambda P: P.bincount(T(P, [1, -1, 2])))
case("bincount", "float input", lambda P: P.bincount(T(P, A4)))
case("histogram", "min greater than max", lambda P: P.histogram(T(P, A4), bins=3, min=2, max=1))
case("nonzero", "None", lambda P: P.nonzero(None))
case("where", "condition float", lambda P: P.where(T(P, A23), T(P, A23), T(P, A23)))
case("where", "shapes [2,3], [4]", lambda P: P.where(T(P, B23), T(P, A23), T(P, A4)))
case("masked_fill", "mask of another shape", lambda P: P.masked_fill(T(P, A23), T(P, [True, False]), 0.0))
case("masked_select", "mask float", lambda P: P.masked_select(T(P, A23), T(P, A23)))
case("masked_select", "mask not broadcastable", lambda P: P.masked_select(T(P, A23), T(P, [True, False])))
case("scatter", "index out of range", lambda P: P.scatter(T(P, A23), T(P, [0, 5]), T(P, A23)))
case("scatter", "index 2-d", lambda P: P.scatter(T(P, A23), T(P, [[0, 1]]), T(P, A23)))
case("clip", "min greater than max", lambda P: P.clip(T(P, A23), min=1.0, max=0.0))
case("clip", "int32 input, float bounds", lambda P: P.clip(T(P, I23), min=0.5, max=3.5))
case("kron", "None", lambda P: P.kron(T(P, A23), None))

# ---------------------------------------------------------------------------------------------
# shapes

case("reshape", "numel differs", lambda P: P.reshape(T(P, A23), [4, 2]))
case("reshape", "two -1", lambda P: P.reshape(T(P, A23), [-1, -1]))
case("reshape", "size -2", lambda P: P.reshape(T(P, A23), [-2, 3]))
# (Paddle takes a float shape equal to x's own, [2.0, 3.0], as a no-op; [3.0, 2.0] it refuses)
case("reshape", "float size", lambda P: P.reshape(T(P, A23), [3.0, 2.0]))
case("reshape", "None shape", lambda P: P.reshape(T(P, A23), None))
case("reshape", "0 in shape beyond x's rank", lambda P: P.reshape(T(P, A4), [2, 0]))
case("transpose", "perm too short", lambda P: P.transpose(T(P, A234), [1, 0]))
case("transpose", "perm too long", lambda P: P.transpose(T(P, A23), [1, 0, 2]))
case("transpose", "perm repeated", lambda P: P.transpose(T(P, A23), [0, 0]))
case("transpose", "perm out of range", lambda P: P.transpose(T(P, A23), [0, 2]))
case("expand", "incompatible", lambda P: P.expand(T(P, A23), [2, 4]))
case("expand", "fewer dims", lambda P: P.expand(T(P, A234), [3, 4]))
case("expand", "negative size", lambda P: P.expand(T(P, A4), [-2, 4]))
case("broadcast_to", "incompatible", lambda P: P.broadcast_to(T(P, A23), [3, 3]))
case("expand_as", "incompatible", lambda P: P.expand_as(T(P, A23), T(P, np.zeros((3, 3)))))
case("tile", "negative repeat", lambda P: P.tile(T(P, A23), [-1, 2]))
case("tile", "float repeat", lambda P: P.tile(T(P, A23), [1.5, 2]))
case("slice", "axes and starts of other lengths", lambda P: P.slice(T(P, A23), [0, 1], [0], [1]))
case("slice", "axis 2", lambda P: P.slice(T(P, A23), [2], [0], [1]))
case("strided_slice", "stride 0", lambda P: P.strided_slice(T(P, A23), [0], [0], [2], [0]))
case("broadcast_tensors", "incompatible", lambda P: P.broadcast_tensors([T(P, A23), T(P, A4)]))
case("t", "3-d input", lambda P: P.t(T(P, A234)))
case("squeeze", "float axis", lambda P: P.squeeze(T(P, A23), axis=0.5))
case("view", "numel differs", lambda P: T(P, A23).view([5]))
case("meshgrid", "2-d input", lambda P: P.meshgrid(T(P, A23), T(P, A4)))
case("rot90", "axes repeated", lambda P: P.rot90(T(P, A23), axes=[0, 0]))
case("rot90", "one axis", lambda P: P.rot90(T(P, A23), axes=[0]))

# ---------------------------------------------------------------------------------------------
# creation: negative sizes, float sizes, bad dtypes

case("zeros", "negative size", lambda P: P.zeros([2, -3]))
case("ones", "float size", lambda P: P.ones([2.5, 3]))
case("full", "negative size", lambda P: P.full([-1], 1.0))
case("full", "string fill value", lambda P: P.full([2], "a"))
case("zeros", "dtype 'foo'", lambda P: P.zeros([2], dtype="foo"))
case("arange", "step 0", lambda P: P.arange(0, 5, 0))
case("arange", "end before start", lambda P: P.arange(5, 0, 1))
case("linspace", "num -1", lambda P: P.linspace(0, 1, -1))
case("linspace", "num 0", lambda P: P.linspace(0, 1, 0))
case("eye", "negative rows", lambda P: P.eye(-1))
case("eye", "float rows", lambda P: P.eye(2.5))
case("to_tensor", "ragged list", lambda P: P.to_tensor([[1.0, 2.0], [3.0]]))
case("to_tensor", "dtype 'foo'", lambda P: P.to_tensor([1.0], dtype="foo"))
case("to_tensor", "a string", lambda P: P.to_tensor("abc"))
case("zeros_like", "None", lambda P: P.zeros_like(None))
case("full_like", "dtype 'foo'", lambda P: P.full_like(T(P, A23), 1.0, dtype="foo"))
case("diag", "3-d input", lambda P: P.diag(T(P, A234)))
case("diagflat", "None", lambda P: P.diagflat(None))
case("tril_indices", "negative rows", lambda P: P.tril_indices(-1, 3))
case("one_hot", "num_classes too small", lambda P: F(P).one_hot(T(P, [0, 4]), 3))
case("one_hot", "float input", lambda P: F(P).one_hot(T(P, A4), 3))
case("cast", "dtype 'foo'", lambda P: P.cast(T(P, A23), "foo"))

# ---------------------------------------------------------------------------------------------
# products

case("matmul", "inner sizes differ", lambda P: P.matmul(T(P, A23), T(P, A23)))
case("matmul", "0-d input", lambda P: P.matmul(T(P, S0), T(P, A23)))
case("matmul", "float32 and int32", lambda P: P.matmul(T(P, A23), T(P, I23.T)))
case("matmul", "batch sizes do not broadcast", lambda P: P.matmul(
    T(P, np.ones((2, 2, 3), np.float32)), T(P, np.ones((3, 3, 2), np.float32))))
case("mm", "inner sizes differ", lambda P: P.mm(T(P, A23), T(P, A23)))
case("bmm", "2-d inputs", lambda P: P.bmm(T(P, A23), T(P, A23.T)))
case("bmm", "batch sizes differ", lambda P: P.bmm(
    T(P, np.ones((2, 2, 3), np.float32)), T(P, np.ones((3, 3, 2), np.float32))))
case("dot", "lengths differ", lambda P: P.dot(T(P, A4), T(P, A4[:3])))
case("dot", "3-d input", lambda P: P.dot(T(P, A234), T(P, A234)))
case("mv", "vector too long", lambda P: P.mv(T(P, A23), T(P, A4)))
case("outer", "None", lambda P: P.outer(T(P, A4), None))
case("inner", "sizes differ", lambda P: P.inner(T(P, A23), T(P, A4)))
case("einsum", "subscripts and operands disagree", lambda P: P.einsum("ij,jk->ik", T(P, A23)))
case("einsum", "sizes differ", lambda P: P.einsum("ij,jk->ik", T(P, A23), T(P, A23)))
case("tensordot", "axes sizes differ", lambda P: P.tensordot(T(P, A23), T(P, A23), axes=[[1], [1, 0]]))
case("addmm", "shapes differ", lambda P: P.addmm(T(P, A23), T(P, A23), T(P, A23)))
case("linalg.inv", "not square", lambda P: P.linalg.inv(T(P, A23)))
case("linalg.det", "1-d input", lambda P: P.linalg.det(T(P, A4)))
case("linalg.solve", "shapes differ", lambda P: P.linalg.solve(T(P, np.eye(3, dtype=np.float32)), T(P, A23)))
case("linalg.norm", "p 'foo'", lambda P: P.linalg.norm(T(P, A23), p="foo"))
case("linalg.norm", "axis 2", lambda P: P.linalg.norm(T(P, A23), axis=2))
case("norm", "axis [0, 0]", lambda P: P.norm(T(P, A23), p=2, axis=[0, 0]))
case("dist", "shapes differ", lambda P: P.dist(T(P, A23), T(P, A4)))
case("cdist", "last sizes differ", lambda P: P.cdist(T(P, A23), T(P, A4.reshape(2, 2))))

# ---------------------------------------------------------------------------------------------
# nn.functional

W45 = np.ones((4, 5), np.float32)
case("F.linear", "weight's rows differ", lambda P: F(P).linear(T(P, A23), T(P, W45)))
case("F.linear", "bias length differs", lambda P: F(P).linear(T(P, A23), T(P, np.ones((3, 2), np.float32)), T(P, A4)))
case("F.linear", "int32 input", lambda P: F(P).linear(T(P, I23), T(P, np.ones((3, 2), np.float32))))
case("F.layer_norm", "normalized_shape wrong", lambda P: F(P).layer_norm(T(P, A23), [2]))
case("F.layer_norm", "normalized_shape too long", lambda P: F(P).layer_norm(T(P, A23), [2, 3, 4]))
case("F.layer_norm", "weight length differs", lambda P: F(P).layer_norm(T(P, A23), [3], weight=T(P, A4)))
case("F.batch_norm", "running stats length differs", lambda P: F(P).batch_norm(
    T(P, A23), T(P, A4), T(P, A4), training=False))
case("F.batch_norm", "1-d input", lambda P: F(P).batch_norm(
    T(P, A4), T(P, A4), T(P, A4), training=False))
C_W = np.ones((2, 3, 3, 3), np.float32)
case("F.conv2d", "in_channels differ", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W)))
case("F.conv2d", "3-d input", lambda P: F(P).conv2d(T(P, A1244[0]), T(P, C_W[:, :2])))
case("F.conv2d", "kernel larger than input", lambda P: F(P).conv2d(
    T(P, A1244), T(P, np.ones((1, 2, 5, 5), np.float32))))
case("F.conv2d", "stride 0", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W[:, :2]), stride=0))
case("F.conv2d", "groups not dividing", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W[:, :1]), groups=3))
case("F.conv2d", "padding list of length 3", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W[:, :2]), padding=[1, 1, 1]))
case("F.conv1d", "in_channels differ", lambda P: F(P).conv1d(T(P, A234), T(P, np.ones((2, 2, 3), np.float32))))
case("F.max_pool2d", "2-d input", lambda P: F(P).max_pool2d(T(P, A23), 2))
case("F.max_pool2d", "kernel larger than input", lambda P: F(P).max_pool2d(T(P, A1244), 5))
case("F.max_pool2d", "kernel 0", lambda P: F(P).max_pool2d(T(P, A1244), 0))
case("F.avg_pool2d", "stride 0", lambda P: F(P).avg_pool2d(T(P, A1244), 2, stride=0))
case("F.avg_pool2d", "padding larger than half the kernel", lambda P: F(P).avg_pool2d(T(P, A1244), 2, padding=2))
case("F.adaptive_avg_pool2d", "output_size of length 3", lambda P: F(P).adaptive_avg_pool2d(T(P, A1244), [1, 2, 3]))
case("F.adaptive_avg_pool2d", "output_size 0", lambda P: F(P).adaptive_avg_pool2d(T(P, A1244), 0))
case("F.interpolate", "size of length 3", lambda P: F(P).interpolate(T(P, A1244), size=[2, 2, 2]))
case("F.interpolate", "no size nor scale", lambda P: F(P).interpolate(T(P, A1244)))
case("F.interpolate", "mode 'foo'", lambda P: F(P).interpolate(T(P, A1244), size=[2, 2], mode="foo"))
case("F.pad", "pad of odd length", lambda P: F(P).pad(T(P, A1244), [1, 1, 1]))
case("F.pad", "mode 'foo'", lambda P: F(P).pad(T(P, A1244), [1, 1, 1, 1], mode="foo"))
case("F.pad", "reflect pad wider than input", lambda P: F(P).pad(T(P, A1244), [5, 5, 5, 5], mode="reflect"))
case("F.dropout", "p 1.5", lambda P: F(P).dropout(T(P, A23), p=1.5))
case("F.dropout", "p -0.1", lambda P: F(P).dropout(T(P, A23), p=-0.1))
case("F.dropout", "mode 'foo'", lambda P: F(P).dropout(T(P, A23), p=0.5, mode="foo"))
case("F.embedding", "float ids", lambda P: F(P).embedding(T(P, A4), T(P, W45)))
case("F.embedding", "1-d weight", lambda P: F(P).embedding(T(P, [0, 1]), T(P, A4)))
# an id outside the table: Paddle's CPU kernel reads out of bounds (garbage or a crash) in some
# builds; it runs here in the worker process, so a crash costs only this case
case("F.embedding", "id out of range", lambda P: F(P).embedding(T(P, [0, 9]), T(P, W45)))
case("F.cross_entropy", "label out of range", lambda P: F(P).cross_entropy(T(P, A23), T(P, [0, 5])))
case("F.cross_entropy", "label shape differs", lambda P: F(P).cross_entropy(T(P, A23), T(P, [0, 1, 2])))
case("F.cross_entropy", "float label", lambda P: F(P).cross_entropy(T(P, A23), T(P, [0.0, 1.0])))
case("F.cross_entropy", "reduction 'foo'", lambda P: F(P).cross_entropy(T(P, A23), T(P, [0, 1]), reduction="foo"))
case("F.nll_loss", "label out of range", lambda P: F(P).nll_loss(T(P, A23), T(P, [0, 5])))
case("F.nll_loss", "1-d input", lambda P: F(P).nll_loss(T(P, A4), T(P, [0])))
case("F.mse_loss", "shapes differ", lambda P: F(P).mse_loss(T(P, A23), T(P, A4)))
case("F.mse_loss", "reduction 'foo'", lambda P: F(P).mse_loss(T(P, A23), T(P, A23), reduction="foo"))
case("F.l1_loss", "shapes differ", lambda P: F(P).l1_loss(T(P, A23), T(P, A4)))
case("F.smooth_l1_loss", "shapes differ", lambda P: F(P).smooth_l1_loss(T(P, A23), T(P, A4)))
case("F.binary_cross_entropy", "input above 1", lambda P: F(P).binary_cross_entropy(T(P, A23 * 4), T(P, A23)))
case("F.binary_cross_entropy", "shapes differ", lambda P: F(P).binary_cross_entropy(T(P, A23), T(P, A4)))
case("F.binary_cross_entropy_with_logits", "shapes differ", lambda P: F(P).binary_cross_entropy_with_logits(T(P, A23), T(P, A4)))
case("F.kl_div", "reduction 'foo'", lambda P: F(P).kl_div(T(P, A23), T(P, A23), reduction="foo"))
case("F.normalize", "axis 2", lambda P: F(P).normalize(T(P, A23), axis=2))
case("F.cosine_similarity", "sizes differ", lambda P: F(P).cosine_similarity(T(P, A23), T(P, A23.T)))
case("F.pairwise_distance", "sizes differ", lambda P: F(P).pairwise_distance(T(P, A23), T(P, A4)))
case("F.glu", "odd axis length", lambda P: F(P).glu(T(P, A23), axis=-1))
case("F.hardtanh", "min above max", lambda P: F(P).hardtanh(T(P, A23), min=1.0, max=-1.0))
case("F.pixel_shuffle", "channels not divisible", lambda P: F(P).pixel_shuffle(T(P, A1244), 2))
case("F.unfold", "kernel larger than input", lambda P: F(P).unfold(T(P, A1244), [5, 5]))
case("F.label_smooth", "epsilon 2", lambda P: F(P).label_smooth(T(P, A23), epsilon=2.0))
case("F.grid_sample", "grid last size 3", lambda P: F(P).grid_sample(
    T(P, A1244), T(P, np.zeros((1, 2, 2, 3), np.float32))))
case("F.gumbel_softmax", "axis 2", lambda P: F(P).gumbel_softmax(T(P, A23), axis=2).shape)
case("F.log_softmax", "int32 input", lambda P: F(P).log_softmax(T(P, I23)))
case("F.prelu", "weight length differs", lambda P: F(P).prelu(T(P, A1244), T(P, np.ones(3, np.float32))))
case("F.sigmoid_focal_loss", "shapes differ", lambda P: F(P).sigmoid_focal_loss(T(P, A23), T(P, A4)))
case("F.margin_ranking_loss", "shapes differ", lambda P: F(P).margin_ranking_loss(T(P, A23), T(P, A4), T(P, A23)))
case("F.instance_norm", "2-d input", lambda P: F(P).instance_norm(T(P, A23)))
case("F.group_norm", "groups not dividing", lambda P: F(P).group_norm(T(P, A1244), 3))

# ---------------------------------------------------------------------------------------------
# Tensor methods and indexing

case("Tensor.reshape", "numel differs", lambda P: T(P, A23).reshape([5]))
case("Tensor.transpose", "perm too short", lambda P: T(P, A234).transpose([1, 0]))
case("Tensor.sum", "axis 5", lambda P: T(P, A23).sum(axis=5))
case("Tensor.mean", "axis -4", lambda P: T(P, A23).mean(axis=-4))
case("Tensor.max", "axis 3", lambda P: T(P, A23).max(axis=3))
case("Tensor.argmax", "axis 3", lambda P: T(P, A23).argmax(axis=3))
case("Tensor.item", "several elements", lambda P: T(P, A23).item())
case("Tensor.item", "index out of range", lambda P: T(P, A23).item(9))
case("Tensor.__getitem__", "index 5 on axis 0", lambda P: T(P, A23)[5])
case("Tensor.__getitem__", "index -3 on axis 0", lambda P: T(P, A23)[-3])
case("Tensor.__getitem__", "index 7 on axis 1", lambda P: T(P, A23)[:, 7])
case("Tensor.__getitem__", "too many indices", lambda P: T(P, A23)[0, 0, 0])
case("Tensor.__getitem__", "float index", lambda P: T(P, A23)[1.0])
case("Tensor.__getitem__", "float tensor index", lambda P: T(P, A23)[T(P, [0.0, 1.0])])
case("Tensor.__getitem__", "bool mask of another shape", lambda P: T(P, A23)[T(P, [True, False, True])])
case("Tensor.__getitem__", "int tensor index out of range", lambda P: T(P, A23)[T(P, [0, 4])])
case("Tensor.__setitem__", "value of another shape", lambda P: T(P, A23).__setitem__(0, T(P, A4)))
case("Tensor.__setitem__", "index 5", lambda P: T(P, A23).__setitem__(5, 1.0))
case("Tensor.astype", "dtype 'foo'", lambda P: T(P, A23).astype("foo"))
case("Tensor.unsqueeze", "axis 5", lambda P: T(P, A23).unsqueeze(5))
case("Tensor.flatten", "start_axis 2", lambda P: T(P, A23).flatten(2))
case("Tensor.expand", "incompatible", lambda P: T(P, A23).expand([5, 5]))
case("Tensor.tile", "negative repeat", lambda P: T(P, A23).tile([-1]))
case("Tensor.topk", "k 10", lambda P: T(P, A23).topk(10))
case("Tensor.split", "sections not dividing", lambda P: T(P, A23).split(4, axis=1))
case("Tensor.__matmul__", "inner sizes differ", lambda P: T(P, A23) @ T(P, A23))
case("Tensor.__add__", "shapes [2,3] and [4]", lambda P: T(P, A23) + T(P, A4))
case("Tensor.__add__", "a string", lambda P: T(P, A23) + "a")
case("Tensor.__mul__", "None", lambda P: T(P, A23) * None)
case("Tensor.__float__", "several elements", lambda P: float(T(P, A23)))
case("Tensor.__int__", "several elements", lambda P: int(T(P, A23)))
case("Tensor.__bool__", "several elements", lambda P: bool(T(P, A23)))
case("Tensor.__len__", "0-d", lambda P: len(T(P, S0)))
case("Tensor.__iter__", "0-d", lambda P: list(T(P, S0)))
case("Tensor.backward", "non-scalar without grad", lambda P: T(P, A23).sum().backward())
case("Tensor.index_select", "axis 2", lambda P: T(P, A23).index_select(T(P, [0]), axis=2))
case("Tensor.gather", "index out of range", lambda P: T(P, A23).gather(T(P, [3])))
case("Tensor.masked_fill", "mask of another shape", lambda P: T(P, A23).masked_fill(T(P, [True, False]), 1.0))
case("Tensor.squeeze", "axis 2", lambda P: T(P, A23).squeeze(2))
case("Tensor.cumsum", "axis 2", lambda P: T(P, A23).cumsum(axis=2))
case("Tensor.set_value", "value of another shape", lambda P: T(P, A23).set_value(A4))
case("Tensor.clip", "int32, float bounds", lambda P: T(P, I23).clip(0.5, 2.5))
case("Tensor.norm", "p 'foo'", lambda P: T(P, A23).norm(p="foo"))
case("Tensor.numpy", "on a 0-size tensor", lambda P: T(P, E03).numpy().shape)


# ---------------------------------------------------------------------------------------------
# a 0-d tensor where a vector is needed, more negative sizes and wrong-length lists

for _n, _fn in [
        ("topk", lambda P, x: P.topk(x, 1)), ("sort", lambda P, x: P.sort(x)),
        ("argsort", lambda P, x: P.argsort(x)), ("concat", lambda P, x: P.concat([x, x])),
        ("stack", lambda P, x: P.stack([x, x])), ("unbind", lambda P, x: P.unbind(x)),
        ("split", lambda P, x: P.split(x, 1)), ("flip", lambda P, x: P.flip(x, 0)),
        ("index_select", lambda P, x: P.index_select(x, T(P, [0]))),
        ("gather", lambda P, x: P.gather(x, T(P, [0]))), ("nonzero", lambda P, x: P.nonzero(x)),
        ("diag", lambda P, x: P.diag(x)), ("dot", lambda P, x: P.dot(x, x)),
        ("cross", lambda P, x: P.cross(x, x)), ("outer", lambda P, x: P.outer(x, x)),
        ("flatten", lambda P, x: P.flatten(x)), ("cumsum", lambda P, x: P.cumsum(x, 0)),
        ("diff", lambda P, x: P.diff(x)), ("unique", lambda P, x: P.unique(x)),
        ("F.softmax", lambda P, x: F(P).softmax(x)), ("F.normalize", lambda P, x: F(P).normalize(x)),
        ("F.linear", lambda P, x: F(P).linear(x, T(P, np.ones((1, 2), np.float32)))),
        ("F.layer_norm", lambda P, x: F(P).layer_norm(x, [1])),
        ("F.one_hot", lambda P, x: F(P).one_hot(T(P, np.array(1)), 3)),
        ("Tensor.reshape", lambda P, x: x.reshape([2])), ("Tensor.t", lambda P, x: x.t()),
        ("Tensor.transpose", lambda P, x: x.transpose([0])),
        ("Tensor.__getitem__", lambda P, x: x[0])]:
    case(_n, "0-d input", lambda P, fn=_fn: fn(P, T(P, S0)))

case("unsqueeze", "axis list out of range", lambda P: P.unsqueeze(T(P, A23), [0, 5]))
case("expand", "size -2", lambda P: P.expand(T(P, A23), [-2, 3]))
case("full_like", "None", lambda P: P.full_like(None, 1.0))
case("ones", "negative size", lambda P: P.ones([-1, 2]))
case("zeros", "shape None", lambda P: P.zeros(None))
case("arange", "float step 0.0", lambda P: P.arange(0.0, 1.0, 0.0))
case("split", "negative section", lambda P: P.split(T(P, A23), [-2, 5], axis=1))
case("split", "two -1 sections", lambda P: P.split(T(P, A23), [-1, -1, 1], axis=1))
case("chunk", "negative chunks", lambda P: P.chunk(T(P, A23), -1, axis=1))
case("topk", "negative k", lambda P: P.topk(T(P, A23), -1))
case("kthvalue", "k 0", lambda P: P.kthvalue(T(P, A23), 0))
case("kthvalue", "k larger than the axis", lambda P: P.kthvalue(T(P, A23), 4))
case("repeat_interleave", "repeats of another length", lambda P: P.repeat_interleave(
    T(P, A23), T(P, [1, 2, 3]), axis=0))
case("F.layer_norm", "normalized_shape of other sizes", lambda P: F(P).layer_norm(T(P, A234), [4, 3]))
case("F.layer_norm", "bias length differs", lambda P: F(P).layer_norm(T(P, A23), [3], bias=T(P, A4)))
case("F.embedding", "2-d weight, 0-d ids", lambda P: F(P).embedding(T(P, np.array(1)), T(P, W45)))
case("F.conv2d", "weight 3-d", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W[0])))
case("F.conv2d", "bias length differs", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W[:, :2]), bias=T(P, A4)))
case("F.conv2d", "negative padding", lambda P: F(P).conv2d(T(P, A1244), T(P, C_W[:, :2]), padding=-1))
case("F.avg_pool2d", "kernel list of length 3", lambda P: F(P).avg_pool2d(T(P, A1244), [2, 2, 2]))
case("F.interpolate", "scale_factor 0", lambda P: F(P).interpolate(T(P, A1244), scale_factor=0))
case("F.interpolate", "negative size", lambda P: F(P).interpolate(T(P, A1244), size=[-1, 2]))
case("F.pad", "2-d input, pad of length 4", lambda P: F(P).pad(T(P, A23), [1, 1, 1, 1]))
case("F.cross_entropy", "weight length differs", lambda P: F(P).cross_entropy(
    T(P, A23), T(P, [0, 1]), weight=T(P, A4)))
case("F.cross_entropy", "soft label shape differs", lambda P: F(P).cross_entropy(
    T(P, A23), T(P, A4), soft_label=True))
case("F.nll_loss", "float label", lambda P: F(P).nll_loss(T(P, A23), T(P, [0.0, 1.0])))
case("F.softmax", "dtype 'foo'", lambda P: F(P).softmax(T(P, A23), dtype="foo"))
case("F.dropout", "axis 3", lambda P: F(P).dropout(T(P, A23), p=0.5, axis=3, training=False))
case("F.normalize", "p 0", lambda P: F(P).normalize(T(P, A23), p=0))
case("Tensor.expand", "size -2", lambda P: T(P, A23).expand([-2, 3]))
case("Tensor.unsqueeze", "axis -4", lambda P: T(P, A23).unsqueeze(-4))
case("Tensor.sum", "axis [0, 0]", lambda P: T(P, A23).sum(axis=[0, 0]))
case("Tensor.sum", "float axis", lambda P: T(P, A23).sum(axis=0.0))
case("Tensor.__getitem__", "bool index of another length", lambda P: T(P, A23)[[True, False, True]])
case("Tensor.__getitem__", "step 0", lambda P: T(P, A23)[::0])
case("Tensor.__getitem__", "None index list", lambda P: T(P, A23)[[None]])
case("Tensor.__setitem__", "value of a bool mask of another shape", lambda P: T(P, A23).__setitem__(
    T(P, [True, False]), 1.0))
case("Tensor.astype", "None", lambda P: T(P, A23).astype(None))
case("Tensor.__matmul__", "0-d", lambda P: T(P, S0) @ T(P, S0))
case("Tensor.__pow__", "None", lambda P: T(P, A23) ** None)
case("Tensor.__lt__", "None", lambda P: T(P, A23) < None)
case("Tensor.__eq__", "shapes [2,3] and [4]", lambda P: T(P, A23) == T(P, A4))


case("sum", "dtype 'foo'", lambda P: P.sum(T(P, A23), dtype="foo"))
case("squeeze", "axis list out of range", lambda P: P.squeeze(T(P, A23), [0, 4]))
case("unsqueeze", "axis repeated", lambda P: P.unsqueeze(T(P, A23), [0, 0]))
case("clip", "bool input", lambda P: P.clip(T(P, B23), 0, 1))
case("F.cross_entropy", "axis 2", lambda P: F(P).cross_entropy(T(P, A23), T(P, [0, 1]), axis=2))
case("F.log_softmax", "axis -3", lambda P: F(P).log_softmax(T(P, A23), axis=-3))
case("F.relu", "bool input", lambda P: F(P).relu(T(P, B23)))
case("F.gelu", "bool input", lambda P: F(P).gelu(T(P, B23)))
case("F.mse_loss", "int32 input", lambda P: F(P).mse_loss(T(P, I23), T(P, I23)))
case("F.l1_loss", "bool input", lambda P: F(P).l1_loss(T(P, B23), T(P, B23)))
case("F.linear", "weight 1-d", lambda P: F(P).linear(T(P, A23), T(P, A23[0])))
case("F.embedding", "negative id", lambda P: F(P).embedding(T(P, [0, -1]), T(P, W45)))
case("mean", "int32 input", lambda P: P.mean(T(P, I23)))
case("matmul", "bool inputs", lambda P: P.matmul(T(P, B23), T(P, B23.T)))
case("transpose", "None perm", lambda P: P.transpose(T(P, A23), None))
case("index_select", "2-d index", lambda P: P.index_select(T(P, A23), T(P, [[0, 1]]), axis=1))
case("take_along_axis", "index out of range", lambda P: P.take_along_axis(
    T(P, A23), T(P, [[0], [7]]), axis=1))
case("scatter", "updates of another shape", lambda P: P.scatter(T(P, A23), T(P, [0, 1]), T(P, A4)))
case("cumsum", "dtype 'foo'", lambda P: P.cumsum(T(P, A23), dtype="foo"))
case("Tensor.__getitem__", "a string", lambda P: T(P, A23)["a"])
case("Tensor.__setitem__", "a string value", lambda P: T(P, A23).__setitem__(0, "a"))
case("Tensor.reshape", "None", lambda P: T(P, A23).reshape(None))
case("Tensor.sum", "bool input, axis 2", lambda P: T(P, B23).sum(axis=2))


# ---------------------------------------------------------------------------------------------
# cases where opsdk refuses on purpose what Paddle 3.3.1 "accepts" with garbage or a crash

_UNINIT = ("Paddle returns uninitialised memory (a reduction over an axis of length 0 has no "
           "identity)")
NOTED = {
    "amax: empty input": _UNINIT,
    "amin: empty input": _UNINIT,
    "argmax: empty input": _UNINIT,
    "argmin: empty input": _UNINIT,
    "mode: empty input": "Paddle's mode of a [0, 3] tensor ends the process (SIGFPE)",
    "Tensor.__getitem__: int tensor index out of range": (
        "Paddle reads past the tensor's end (the row of index 4 is garbage)"),
    "slice: axis 2": "Paddle slices another axis than the one named (axis 2 of a 2-d tensor)",
    "gather: float index": "Paddle returns a tensor it never initialised ('Not initialized')",
    "linalg.det: 1-d input": "Paddle returns an empty tensor for a vector (no matrix to take)",
    "F.conv2d: kernel larger than input": (
        "Paddle's MKL call fails ('Parameter 11 was incorrect') and it returns an empty tensor"),
    "F.max_pool2d: kernel larger than input": (
        "Paddle pools a window reaching past the input (no padding asked for)"),
    "F.kl_div: reduction 'foo'": "Paddle reads an unknown reduction as 'none' (a typo passes)",
    "Tensor.__add__: a string": "Paddle returns x unchanged for x + 'a'",
    "full: string fill value": "Paddle fills with zeros for the fill value 'a'",
    "F.normalize: 0-d input": (
        "Paddle returns garbage (normalize(0.5) is 5e11) and, with axis=-1, ends the process"),
    "F.embedding: negative id": (
        "Paddle returns garbage for the id -1 (uninitialised memory; -3 it refuses)"),
    "expand: size -2": "Paddle reads the size -2 as 0 (a [0, 3] result)",
    "Tensor.expand: size -2": "Paddle reads the size -2 as 0 (a [0, 3] result)",
    "allclose: empty and [2,3]": (
        "Paddle compares a [0, 3] tensor with a [2, 3] one (True), though it refuses every "
        "other pair of shapes that differ"),
}


# ---------------------------------------------------------------------------------------------
# running and judging

def _builtin_family(exc):
    """The most specific built-in class of an exception (``ValueError`` for Paddle's
    ``ValueError`` subclass and for opsdk's OpArgumentError)."""
    return next(c for c in type(exc).__mro__ if c.__module__ == "builtins")


def _leaves(y):
    if isinstance(y, (list, tuple)):
        out = []
        for v in y:
            out.extend(_leaves(v))
        return out
    return [y]


def outcome(lib, fn):
    """(("ok", [(array, dtype name)]) or ("raise", family name, class name, first message
    line), the exception's class or None)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = fn(lib)
            leaves = []
            for v in _leaves(y):
                if hasattr(v, "numpy") and hasattr(v, "dtype"):
                    leaves.append((np.array(v.numpy()), str(v.dtype).replace("paddle.", "")))
                else:
                    leaves.append((np.array(v), type(v).__name__))
        return ("ok", leaves), None
    except Exception as e:  # noqa: BLE001 - every failure is a result here
        lines = [line for line in str(e).strip().splitlines() if line.strip()]
        text = next((line for line in lines if "Error" in line or "error" in line),
                    lines[0] if lines else "")
        return ("raise", _builtin_family(e).__name__, type(e).__name__, text.strip()[:200]), type(e)


def _same(a, b):
    (x, dx), (y, dy) = a, b
    if x.shape != y.shape or dx != dy:
        return False
    if x.dtype.kind in "fc" or y.dtype.kind in "fc":
        return np.allclose(x.astype(np.complex128) if x.dtype.kind == "c" else x.astype(float),
                           y.astype(np.complex128) if y.dtype.kind == "c" else y.astype(float),
                           rtol=1e-5, atol=1e-6, equal_nan=True)
    return np.array_equal(x, y)


BUILTIN = {c.__name__: c for c in (ValueError, IndexError, TypeError, RuntimeError,
                                   NotImplementedError, AssertionError, OSError, SystemError,
                                   AttributeError, KeyError, LookupError, ZeroDivisionError,
                                   MemoryError, OverflowError, ArithmeticError, Exception)}


def judge(theirs, ours, ours_exc_type=None):
    """("agree" | "family" | "mismatch" | "missing", a short reason)."""
    if ours[0] == "raise" and ours[2] == "AttributeError" and "module 'opsdk" in ours[3]:
        return "missing", ours[3]
    if theirs[0] == "crash":
        return "mismatch", f"paddle-crash ({theirs[1]}); opsdk {ours[0]}"
    if theirs[0] == "ok" and ours[0] == "ok":
        if len(theirs[1]) != len(ours[1]):
            return "mismatch", f"{len(ours[1])} outputs, Paddle {len(theirs[1])}"
        for k, (a, b) in enumerate(zip(ours[1], theirs[1])):
            if not _same(a, b):
                return "mismatch", (f"output {k}: opsdk {a[1]}{list(a[0].shape)}, "
                                    f"Paddle {b[1]}{list(b[0].shape)}")
        return "agree", ""
    if theirs[0] == "raise" and ours[0] == "raise":
        family = BUILTIN.get(theirs[1], Exception)
        if ours_exc_type is not None and issubclass(ours_exc_type, family):
            return "family", ""
        return "mismatch", f"opsdk {ours[2]} ({ours[1]}), Paddle {theirs[2]} ({theirs[1]}): {theirs[3][:90]}"
    if theirs[0] == "raise":
        return "mismatch", f"opsdk accepts; Paddle {theirs[2]} ({theirs[1]}): {theirs[3][:90]}"
    return "mismatch", f"opsdk refuses: {ours[2]}: {ours[3][:100]}"


def _paddle_worker(start):
    """Run the cases from ``start`` on under Paddle; one length-prefixed pickle per case, on
    the process's own stdout (what Paddle prints goes to stderr)."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle
    paddle.set_device("cpu")
    for i in range(start, len(CASES)):
        blob = pickle.dumps((i, outcome(paddle, CASES[i][1])[0]))
        out.write(struct.pack("<I", len(blob)) + blob)
        out.flush()


def paddle_outcomes():
    """Every case's Paddle outcome, the worker restarted after a case that ends its process."""
    results, start = {}, 0
    env = dict(os.environ, GLOG_minloglevel="3", FLAGS_call_stack_level="0")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    while start < len(CASES):
        proc = subprocess.Popen([sys.executable, "-m", "paddle_compat.error_fuzz", "--paddle-worker",
                                 str(start)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                cwd=here, env=env)
        while True:
            head = proc.stdout.read(4)
            if len(head) < 4:
                break
            i, res = pickle.loads(proc.stdout.read(struct.unpack("<I", head)[0]))
            results[i] = res
            start = i + 1
        code = proc.wait()
        if start < len(CASES):   # the worker ended inside case `start`
            results[start] = ("crash", f"exit {code}")
            start += 1
    return results


def run_all():
    """[(case name, verdict, reason)] for every case."""
    import opsdk
    theirs = paddle_outcomes()
    rows = []
    for i, (name, fn) in enumerate(CASES):
        ours, exc_type = outcome(opsdk, fn)
        verdict, reason = judge(theirs[i], ours, exc_type)
        if verdict == "mismatch" and name in NOTED and ours[0] == "raise":
            verdict, reason = "noted", NOTED[name]
        if verdict == "family" and not issubclass(exc_type, opsdk.errors.OpsdkError):
            reason = f"raw {exc_type.__name__}, not an opsdk error"
        rows.append((name, verdict, reason))
    return rows


def main(argv):
    if argv[:1] == ["--paddle-worker"]:
        _paddle_worker(int(argv[1]))
        return 0
    rows = run_all()
    counts = {v: sum(r[1] == v for r in rows)
              for v in ("agree", "family", "mismatch", "noted", "missing")}
    width = max(len(r[0]) for r in rows)
    for name, verdict, reason in rows:
        if verdict in ("mismatch", "noted") or (reason and "-v" in argv) or "-a" in argv:
            print(f"{name:<{width}}  {verdict:<8}  {reason}")
    raw = sum(1 for r in rows if r[2].startswith("raw"))
    print(f"\n{len(rows)} cases over {len({r[0].split(':')[0] for r in rows})} functions: "
          f"{counts['agree']} agree, {counts['family']} same family ({raw} of them raw built-in "
          f"errors, not opsdk's), {counts['mismatch']} mismatch; {counts['noted']} noted "
          f"(Paddle crashes or returns garbage, opsdk refuses), {counts['missing']} missing names")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
