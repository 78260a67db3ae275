"""The Tensor's methods: every operator and method that is not about the data itself.

tensor.py holds what a Tensor is; this one table gives it its operations, each taken from the
module of ops that defines it (``grep "__mul__ ="`` finds where ``*`` comes from). ``install``
copies the table onto Tensor when opsdk loads. An op of a layer above the core (erf, from the
built-in pack) is handed down with ``provide``.
"""
import numpy as np

from .autograd import grad_api
from .autograd.record import clone
from .device import CPU, Place, move_to
from .dtypes import convert_dtype
from .errors import ShapeError
from .functional import (along_axis, arithmetic, casting, combined, counting, creation,
                         cumulative, indexing, inplace, linalg, logic, more_unary, nan_reduction,
                         order_stats, products, rearrange, reduction, shape, sorting,
                         triangular, unary)
# two modules share their name with a method defined below: imported under longer names
from .functional import diagonal as diagonal_ops, scatter as scatter_ops
from .tensor import Tensor, _wrap, bump_version

# methods whose op lives above the core, set by that layer (provide)
_provided = {}


def provide(**methods):
    """Hand down a method whose op lives in a layer above the core (opsdk/__init__ does)."""
    _provided.update(methods)


def _reflected(fn):
    """fn with its operands swapped: ``2 - x`` runs ``subtract(2, x)``."""
    def method(self, other):
        return fn(other, self)
    method.__name__ = f"reflected_{fn.__name__}"
    return method


def _in_place(op, name, ufunc=None, reads_input=True):
    return inplace.inplace_method(op, name, ufunc, reads_input)


def _shape_in_place(op, name, inverse=None):
    """x.name(...): x takes op's new shape over the same memory (reshape_, squeeze_, ...)."""
    back = inverse or (lambda b, old, args, kwargs: shape.reshape(b, old))
    return inplace.shape_method(op, back, name)


class TensorMethods:
    """The table: each attribute of this class body becomes a method of Tensor (install)."""

    # -- operators ----------------------------------------------------------------------------
    __add__ = arithmetic.add
    __radd__ = _reflected(arithmetic.add)
    __sub__ = arithmetic.subtract
    __rsub__ = _reflected(arithmetic.subtract)
    __mul__ = arithmetic.multiply
    __rmul__ = _reflected(arithmetic.multiply)
    __truediv__ = arithmetic.divide
    __rtruediv__ = _reflected(arithmetic.divide)
    __pow__ = arithmetic.pow
    __rpow__ = _reflected(arithmetic.pow)
    __matmul__ = linalg.matmul
    __rmatmul__ = _reflected(linalg.matmul)
    __floordiv__ = arithmetic.floor_divide
    __rfloordiv__ = _reflected(arithmetic.floor_divide)
    __mod__ = arithmetic.remainder
    __rmod__ = _reflected(arithmetic.remainder)
    __neg__ = unary.neg
    __abs__ = unary.abs
    __pos__ = lambda self: self  # noqa: E731
    __eq__ = logic.equal
    __ne__ = logic.not_equal
    __lt__ = logic.less_than
    __le__ = logic.less_equal
    __gt__ = logic.greater_than
    __ge__ = logic.greater_equal
    __and__ = logic.logical_and
    __or__ = logic.logical_or
    __xor__ = logic.logical_xor
    __invert__ = logic.logical_not
    __getitem__ = indexing.getitem
    __setitem__ = inplace.setitem
    __iadd__ = inplace.augmented(arithmetic.add, np.add, "+=")
    __isub__ = inplace.augmented(arithmetic.subtract, np.subtract, "-=")
    __imul__ = inplace.augmented(arithmetic.multiply, np.multiply, "*=")
    __itruediv__ = inplace.augmented(arithmetic.divide, np.divide, "/=")

    # -- arithmetic and elementwise functions --------------------------------------------------
    add = arithmetic.add
    subtract = arithmetic.subtract
    multiply = arithmetic.multiply
    divide = arithmetic.divide
    pow = arithmetic.pow
    square = arithmetic.square
    reciprocal = arithmetic.reciprocal
    maximum = arithmetic.maximum
    minimum = arithmetic.minimum
    remainder = arithmetic.remainder
    mod = arithmetic.remainder
    floor_mod = arithmetic.remainder
    floor_divide = arithmetic.floor_divide
    scale = arithmetic.scale
    neg = unary.neg
    abs = unary.abs
    exp = unary.exp
    log = unary.log
    sqrt = unary.sqrt
    rsqrt = unary.rsqrt
    sin = unary.sin
    cos = unary.cos
    tanh = unary.tanh
    sigmoid = unary.sigmoid
    sign = unary.sign
    floor = unary.floor
    ceil = unary.ceil
    round = unary.round
    trunc = unary.trunc
    clip = unary.clip
    log1p = more_unary.log1p
    expm1 = more_unary.expm1
    log2 = more_unary.log2
    log10 = more_unary.log10
    frac = more_unary.frac
    stanh = more_unary.stanh
    cast = casting.cast
    lerp = combined.lerp
    addmm = combined.addmm
    dist = combined.dist
    diff = combined.diff

    def astype(self, dtype):
        """x in dtype; the tensor itself when it has that dtype already (paddle.cast copies)."""
        if convert_dtype(dtype, op="astype") == self._data.dtype:
            return self
        return casting.cast(self, dtype)

    def erf(self, name=None):
        """The error function (the built-in pack's op, ``opsdk.erf``)."""
        return _provided["erf"](self)

    # -- comparisons and logic ----------------------------------------------------------------
    equal = logic.equal
    not_equal = logic.not_equal
    less_than = logic.less_than
    less_equal = logic.less_equal
    greater_than = logic.greater_than
    greater_equal = logic.greater_equal
    logical_not = logic.logical_not
    isnan = logic.isnan
    isinf = logic.isinf
    isfinite = logic.isfinite
    allclose = logic.allclose
    isclose = logic.isclose
    equal_all = logic.equal_all

    # -- reductions and scans -----------------------------------------------------------------
    sum = reduction.sum
    mean = reduction.mean
    max = reduction.max
    min = reduction.min
    amax = reduction.max
    amin = reduction.min
    logsumexp = reduction.logsumexp
    argmax = reduction.argmax
    argmin = reduction.argmin
    all = reduction.all
    any = reduction.any
    var = reduction.var
    std = reduction.std
    norm = reduction.norm
    prod = products.prod
    nansum = nan_reduction.nansum
    nanmean = nan_reduction.nanmean
    count_nonzero = nan_reduction.count_nonzero
    cumsum = cumulative.cumsum
    cumprod = cumulative.cumprod
    logcumsumexp = cumulative.logcumsumexp
    cumsum_ = cumulative.cumsum_
    cumprod_ = cumulative.cumprod_

    # -- products -----------------------------------------------------------------------------
    matmul = linalg.matmul
    mm = linalg.mm
    dot = linalg.dot
    kron = products.kron
    cross = products.cross

    # -- shapes ---------------------------------------------------------------------------------
    reshape = shape.reshape
    view = shape.reshape
    flatten = shape.flatten
    transpose = shape.transpose
    t = shape.t
    T = property(lambda self: shape.transpose(self, list(range(self.ndim))[::-1]))
    squeeze = shape.squeeze
    unsqueeze = shape.unsqueeze
    expand = shape.expand
    expand_as = shape.expand_as
    broadcast_to = shape.broadcast_to
    split = shape.split
    chunk = shape.chunk
    unbind = shape.unbind
    flip = shape.flip
    tile = shape.tile
    moveaxis = shape.moveaxis
    roll = rearrange.roll
    rot90 = rearrange.rot90
    repeat_interleave = rearrange.repeat_interleave
    diagonal = diagonal_ops.diagonal
    diag = diagonal_ops.diag
    trace = diagonal_ops.trace
    tril = triangular.tril
    triu = triangular.triu
    tril_ = triangular.tril_
    triu_ = triangular.triu_
    contiguous = lambda self: self  # noqa: E731  (every tensor is)
    is_contiguous = lambda self: True  # noqa: E731

    # -- indexing, sorting and selection --------------------------------------------------------
    gather = indexing.gather
    index_select = indexing.index_select
    masked_select = indexing.masked_select
    nonzero = indexing.nonzero
    take_along_axis = along_axis.take_along_axis
    put_along_axis = along_axis.put_along_axis
    put_along_axis_ = along_axis.put_along_axis_
    scatter = scatter_ops.scatter
    scatter_ = scatter_ops.scatter_
    index_add = scatter_ops.index_add
    index_add_ = scatter_ops.index_add_
    masked_fill = scatter_ops.masked_fill
    masked_fill_ = scatter_ops.masked_fill_
    sort = sorting.sort
    argsort = sorting.argsort
    topk = sorting.topk
    kthvalue = order_stats.kthvalue
    mode = order_stats.mode
    median = order_stats.median
    unique = counting.unique
    histogram = counting.histogram
    bincount = counting.bincount

    # -- values, copies and devices -----------------------------------------------------------
    clone = clone

    def set_value(self, value):
        """Overwrite the values (no graph), as Paddle's Tensor.set_value."""
        arr = value._data if isinstance(value, Tensor) else np.asarray(value)
        if tuple(arr.shape) != tuple(self._data.shape):
            raise ShapeError(f"set_value: expected: shape {self.shape}; got: {list(arr.shape)}")
        self._data[...] = arr
        bump_version(self)
        return self

    def copy_(self, other, blocking=True):
        return TensorMethods.set_value(self, other)

    fill_ = inplace.fill_
    zero_ = inplace.zero_

    def uniform_(self, min=-1.0, max=1.0, seed=0, name=None):
        data = creation.get_rng().uniform(min, max, self._data.shape)
        return inplace.fill_(self, data.astype(self._data.dtype))

    def normal_(self, mean=0.0, std=1.0, name=None):
        data = creation.get_rng().normal(mean, std, self._data.shape)
        return inplace.fill_(self, data.astype(self._data.dtype))

    def cpu(self):
        t = _wrap(move_to(self._data, CPU))
        t.stop_gradient = self.stop_gradient
        return t

    def cuda(self, device_id=0, blocking=True):
        t = _wrap(move_to(self._data, Place("gpu", device_id)))
        t.stop_gradient = self.stop_gradient
        return t

    # -- gradients ----------------------------------------------------------------------------
    backward = grad_api.backward
    retain_grads = grad_api.retain_grads

    # -- in place: the result written into the tensor (reads_input: the rule reads x) ----------
    add_ = _in_place(arithmetic.add, "add_", np.add, False)
    subtract_ = _in_place(arithmetic.subtract, "subtract_", np.subtract, False)
    sub_ = _in_place(arithmetic.subtract, "sub_", np.subtract, False)
    multiply_ = _in_place(arithmetic.multiply, "multiply_", np.multiply)
    mul_ = _in_place(arithmetic.multiply, "mul_", np.multiply)
    divide_ = _in_place(arithmetic.divide, "divide_", np.divide)
    div_ = _in_place(arithmetic.divide, "div_", np.divide)
    pow_ = _in_place(arithmetic.pow, "pow_")
    remainder_ = _in_place(arithmetic.remainder, "remainder_")
    mod_ = _in_place(arithmetic.remainder, "mod_")
    floor_mod_ = _in_place(arithmetic.remainder, "floor_mod_")
    floor_divide_ = _in_place(arithmetic.floor_divide, "floor_divide_", reads_input=False)
    scale_ = _in_place(arithmetic.scale, "scale_", reads_input=False)
    clip_ = _in_place(unary.clip, "clip_", reads_input=False)
    clamp_ = _in_place(unary.clip, "clamp_", reads_input=False)
    exp_ = _in_place(unary.exp, "exp_", reads_input=False)
    tanh_ = _in_place(unary.tanh, "tanh_", reads_input=False)
    sigmoid_ = _in_place(unary.sigmoid, "sigmoid_", reads_input=False)
    sqrt_ = _in_place(unary.sqrt, "sqrt_", reads_input=False)
    rsqrt_ = _in_place(unary.rsqrt, "rsqrt_")
    abs_ = _in_place(unary.abs, "abs_")
    neg_ = _in_place(unary.neg, "neg_", reads_input=False)
    log_ = _in_place(unary.log, "log_")
    sin_ = _in_place(unary.sin, "sin_")
    cos_ = _in_place(unary.cos, "cos_")
    square_ = _in_place(arithmetic.square, "square_")
    reciprocal_ = _in_place(arithmetic.reciprocal, "reciprocal_")
    floor_ = _in_place(unary.floor, "floor_", reads_input=False)
    ceil_ = _in_place(unary.ceil, "ceil_", reads_input=False)
    round_ = _in_place(unary.round, "round_", reads_input=False)
    reshape_ = _shape_in_place(shape.reshape, "reshape_")
    squeeze_ = _shape_in_place(shape.squeeze, "squeeze_")
    unsqueeze_ = _shape_in_place(shape.unsqueeze, "unsqueeze_")
    flatten_ = _shape_in_place(shape.flatten, "flatten_")
    transpose_ = _shape_in_place(shape.transpose, "transpose_", lambda b, old, args, kwargs:
                                 shape.transpose(b, list(np.argsort(args[0] if args
                                                                    else kwargs["perm"]))))
    t_ = _shape_in_place(shape.t, "t_", lambda b, old, args, kwargs: shape.t(b))


# what Python puts in every class body (__hash__: None, as the table defines __eq__)
_CLASS_ITEMS = ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__hash__")


def install():
    """Copy the table onto Tensor."""
    for name, value in vars(TensorMethods).items():
        if name not in _CLASS_ITEMS:
            setattr(Tensor, name, value)


install()


# Paddle's module-level in-place functions (paddle.tanh_(x), ...): the methods above
MODULE_INPLACE = ("abs_", "cos_", "divide_", "div_", "floor_divide_", "floor_mod_", "mod_",
                  "remainder_", "flatten_", "log_", "multiply_", "neg_", "pow_", "reshape_",
                  "sin_", "square_", "squeeze_", "unsqueeze_", "subtract_", "sub_", "tanh_",
                  "transpose_", "t_", "exp_", "sqrt_", "rsqrt_", "reciprocal_", "sigmoid_",
                  "scale_", "clip_", "floor_", "ceil_", "round_", "zero_", "fill_", "add_")


def module_inplace_functions():
    """{name: function(x, *args)} for MODULE_INPLACE, each calling the Tensor method."""
    return {name: vars(TensorMethods)[name] for name in MODULE_INPLACE}
