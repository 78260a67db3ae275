"""The Tensor's methods: every operator and method that is not about the data itself.

tensor.py holds what a Tensor is; this one table gives it its operations. Operators are one
line each (``grep "__mul__ ="`` finds where ``*`` comes from); a method named as the function
it calls is listed under that function's module (``x.exp()`` is ``unary.exp``); the rest
follow. ``install`` copies the table onto Tensor when opsdk loads. A method whose op lives in a
layer above the core (erf, from the built-in pack) is handed down with ``provide``.
"""
import functools

import numpy as np

from .autograd import grad_api, record
from .device import CPU, Place, move_to
from .dtypes import convert_dtype
from .errors import ArgumentTypeError, OpArgumentError, SetValueShapeError, StateError
from .functional import (along_axis, angles, arithmetic, bitwise, casting, combined,
                         conversion, counting, creation, cumulative, diagonal, generated,
                         indexing, inplace, linalg, logic, lowrank, manipulation,
                         more_linalg, more_maths, more_ops, more_unary, nan_reduction,
                         order_stats, placement, products, random, rearrange, reduction,
                         scan_search, scatter, select_fill, shape, sorting, special, storage,
                         tensor_info, triangular, trig, unary)
from .tensor import Tensor, _wrap, bump_version, is_tensor

# methods named as the module function they are, by module
SAME_NAME = {
    arithmetic: "add subtract multiply divide pow square reciprocal maximum minimum fmax fmin add_n "
                "remainder floor_divide scale",
    unary: "neg abs exp log sqrt rsqrt sin cos tanh sigmoid sign floor ceil round trunc clip",
    more_unary: "log1p expm1 log2 log10 frac stanh",
    casting: "cast",
    combined: "lerp addmm dist diff",
    logic: "equal not_equal less_than less_equal greater_than greater_equal logical_not isnan "
           "isinf isfinite allclose isclose equal_all where",
    reduction: "sum mean max min logsumexp argmax argmin all any var std norm",
    products: "prod kron cross",
    nan_reduction: "nansum nanmean nanmedian count_nonzero",
    cumulative: "cumsum cumprod logcumsumexp cumsum_ cumprod_",
    linalg: "matmul mm mv dot inner matrix_power multi_dot",
    shape: "reshape flatten transpose t squeeze unsqueeze expand expand_as broadcast_to split "
           "chunk unbind unstack flip tile moveaxis broadcast_tensors",
    rearrange: "roll rot90 repeat_interleave",
    diagonal: "diagonal diag diagflat diag_embed trace",
    triangular: "tril triu tril_ triu_",
    indexing: "gather gather_nd index_select masked_select nonzero",
    along_axis: "take_along_axis put_along_axis put_along_axis_",
    scatter: "scatter scatter_ index_add index_add_ masked_fill masked_fill_ scatter_nd_add "
             "scatter_nd",
    sorting: "sort argsort topk",
    order_stats: "kthvalue mode median quantile nanquantile",
    counting: "unique histogram bincount rank increment",
    inplace: "fill_ zero_",
    record: "clone",
    grad_api: "backward retain_grads",
    trig: "tan asin acos atan sinh cosh asinh acosh atanh hypot copysign ldexp nan_to_num",
    special: "lgamma gammaln digamma polygamma multigammaln erfinv i0 gammainc gammaincc logit",
    bitwise: "bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_invert bitwise_left_shift "
             "bitwise_right_shift gcd lcm",
    select_fill: "index_fill masked_scatter renorm",
    manipulation: "hsplit vsplit dsplit tensor_split atleast_1d atleast_2d atleast_3d ravel "
                  "narrow swapaxes swapdims matrix_transpose view_as unflatten take "
                  "take_along_dim slice strided_slice reverse block_diag unfold",
    placement: "scatter_add scatter_add_ scatter_reduce index_sample index_put index_put_ "
               "select_scatter slice_scatter diagonal_scatter multiplex",
    generated: "combinations vander new_zeros new_ones new_full new_empty",
    tensor_info: "ndimension is_floating_point is_integer is_empty is_same_shape element_size "
                 "type_as",
    more_maths: "logaddexp heaviside sgn signbit sinc deg2rad rad2deg isneginf isposinf isin "
                "nextafter frexp i0e i1 i1e",
    scan_search: "cummax cummin msort bucketize argwhere histogram_bin_edges unique_consecutive",
    more_linalg: "tensordot baddbmm cdist trapezoid cumulative_trapezoid",
    conversion: "to requires_grad requires_grad_ repeat split_with_sizes reduce_as "
                "broadcast_shape broadcast_shapes",
    random: "multinomial bernoulli_ normal_ log_normal_ cauchy_ geometric_ exponential_ "
            "random_",
    angles: "atan2",
    lowrank: "householder_product ormqr svd_lowrank pca_lowrank",
    more_ops: "histogramdd",
    storage: "data grad_ set_ as_strided _is_shared_buffer_with",
}

# paddle.linalg's decompositions that Paddle 3.3.1 also has as Tensor methods
from .functional import decompositions  # noqa: E402  (kept with its table entry)
# (norm: Tensor.norm is paddle.linalg.norm, a matrix norm over two axes; it replaces reduction's)
SAME_NAME[decompositions] = ("slogdet cholesky cholesky_solve cholesky_inverse eigvalsh qr pinv "
                             "lstsq cond lu lu_unpack cov corrcoef norm")

# in place, the result written into the tensor: (method, op, NumPy ufunc for a plain write,
# whether the op's gradient reads x, so the graph needs a copy of the old x)
IN_PLACE = [
    ("add_", arithmetic.add, np.add, False), ("subtract_", arithmetic.subtract, np.subtract, False),
    ("sub_", arithmetic.subtract, np.subtract, False),
    ("multiply_", arithmetic.multiply, np.multiply, True),
    ("mul_", arithmetic.multiply, np.multiply, True),
    ("divide_", arithmetic.divide, np.divide, True), ("div_", arithmetic.divide, np.divide, True),
    ("pow_", lambda x, y, name=None: arithmetic.pow(x, _scalar_exponent(y)), None, True), ("remainder_", arithmetic.remainder, None, True),
    ("mod_", arithmetic.remainder, None, True), ("floor_mod_", arithmetic.remainder, None, True),
    ("floor_divide_", arithmetic.floor_divide, None, False),
    ("scale_", arithmetic.scale, None, False), ("square_", arithmetic.square, None, True),
    ("reciprocal_", arithmetic.reciprocal, None, True), ("clip_", unary.clip, None, False),
    ("clamp_", unary.clip, None, False), ("exp_", unary.exp, None, False),
    ("tanh_", unary.tanh, None, False), ("sigmoid_", unary.sigmoid, None, False),
    ("sqrt_", unary.sqrt, None, False), ("rsqrt_", unary.rsqrt, None, True),
    ("abs_", unary.abs, None, True), ("neg_", unary.neg, None, False),
    ("log_", unary.log, None, True), ("sin_", unary.sin, None, True),
    ("cos_", unary.cos, None, True), ("floor_", unary.floor, None, False),
    ("ceil_", unary.ceil, None, False), ("round_", unary.round, None, False),
    ("addmm_", combined.addmm, None, False), ("baddbmm_", more_linalg.baddbmm, None, False),
    ("fill_diagonal_", conversion.fill_diagonal, None, False),
    ("fill_diagonal_tensor_", conversion.fill_diagonal_tensor, None, False),
]
def _scalar_exponent(y):
    """pow_'s exponent: Paddle's pow_ takes a Python int or float only (a TypeError else)."""
    if not isinstance(y, (int, float)):
        raise ArgumentTypeError(f"pow_: y must be scalar type, but received: {type(y)} "
                                f"(expected: an int or float)")
    return y


# the in-place forms of the maths Paddle added later: every backward reads x
MORE_IN_PLACE = [(f"{name}_", getattr(module, name), None, True) for module, names in (
    (more_unary, "log1p log2 log10 frac"), (unary, "trunc"),
    (trig, "tan asin acos atan sinh cosh asinh acosh atanh hypot copysign ldexp nan_to_num"),
    (special, "lgamma gammaln digamma polygamma multigammaln i0 gammainc gammaincc logit"),
    (bitwise, "bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_invert "
              "bitwise_left_shift bitwise_right_shift gcd lcm"),
    (select_fill, "index_fill masked_scatter renorm"),
    (special, "erfinv"), (more_maths, "sinc"), (combined, "lerp")) for name in names.split()]
IN_PLACE += MORE_IN_PLACE
# in-place ops Paddle composes of several in-place steps, each a write its inplace_version
# counts: {method: steps} (hypot_: pow_ add_ sqrt_; ldexp_: cast_ multiply_; nan_to_num_:
# three where_; lcm_: multiply_ abs_ floor_divide_ where_; gammainc_: gammaincc_ multiply_
# add_; index_fill_: transpose_ index_put_ transpose_). Differs: Paddle's gcd_ makes one plus
# two per round of its Euclid loop; opsdk's counts one.
PADDLE_WRITES = {"hypot_": 3, "ldexp_": 2, "nan_to_num_": 3, "lcm_": 4, "gammainc_": 3,
                 "index_fill_": 3}

# in place with a result of its own dtype (bool, or cast_'s): the tensor takes it (Paddle)
RETYPE_IN_PLACE = [(f"{name}_", getattr(logic, name)) for name in (
    "equal not_equal less_than less_equal greater_than greater_equal logical_and logical_or "
    "logical_xor logical_not").split()] + [("cast_", casting.cast), ("less_", logic.less_than)]

# x takes a new shape over the same memory: (method, op, the way back to the old shape)
_BACK = lambda b, old, args, kwargs: shape.reshape(b, old)  # noqa: E731
SHAPE_IN_PLACE = [
    ("reshape_", shape.reshape, _BACK), ("squeeze_", shape.squeeze, _BACK),
    ("unsqueeze_", shape.unsqueeze, _BACK), ("flatten_", shape.flatten, _BACK),
    ("transpose_", shape.transpose, lambda b, old, args, kwargs: shape.transpose(
        b, list(np.argsort(args[0] if args else kwargs["perm"])))),
    ("t_", shape.t, lambda b, old, args, kwargs: shape.t(b)),
]

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


_where_into = inplace.inplace_method(lambda x, condition, y: logic.where(condition, x, y),
                                     "where_", reads_input=False)


def _no_grad_for_apply(t, op):
    if not t.stop_gradient:
        raise StateError(f"{op}: cannot apply a function to a tensor that needs a gradient "
                         f"(stop_gradient=False), as in Paddle; detach() it first")


def _equality(compare, unlike):
    """``==`` / ``!=`` as Paddle's operators: against None the plain bool ``unlike`` (Python's
    ``x == None`` idiom), against a string a bool tensor filled with ``unlike`` (Paddle
    compares nothing there); otherwise the elementwise comparison."""
    def op(self, other):
        if other is None:
            return unlike
        if isinstance(other, str):
            return _wrap(np.full_like(self._data, unlike, dtype=bool))
        return compare(self, other)
    op.__name__ = compare.__name__
    return op

class TensorMethods:
    """The operators and the methods not named as a function (install adds the rest)."""

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
    __eq__ = _equality(logic.equal, False)
    __ne__ = _equality(logic.not_equal, True)
    __lt__ = logic.less_than
    __le__ = logic.less_equal
    __gt__ = logic.greater_than
    __ge__ = logic.greater_equal
    # Paddle's & | ^ ~ are bitwise: logical on bool tensors, bit by bit on integer ones
    __and__ = bitwise.bitwise_and
    __or__ = bitwise.bitwise_or
    __xor__ = bitwise.bitwise_xor
    __invert__ = bitwise.bitwise_not
    __getitem__ = indexing.subscript
    __setitem__ = inplace.setitem
    __iadd__ = inplace.augmented(arithmetic.add, np.add, "+=")
    __isub__ = inplace.augmented(arithmetic.subtract, np.subtract, "-=")
    __imul__ = inplace.augmented(arithmetic.multiply, np.multiply, "*=")
    __itruediv__ = inplace.augmented(arithmetic.divide, np.divide, "/=")

    # other names for the same function
    mod = floor_mod = arithmetic.remainder
    amax, amin = reduction.max, reduction.min
    view = conversion.view
    inverse = linalg.inv
    fill_diagonal_tensor = conversion.fill_diagonal_tensor
    is_tensor = is_tensor
    solve = linalg.solve
    T = property(lambda self: shape.transpose(self, list(range(self.ndim))[::-1]))
    mT = property(lambda self: _matrix_transposed(self))
    contiguous = lambda self: self  # noqa: E731  (every tensor is)
    itemsize = property(tensor_info.element_size)
    is_contiguous = lambda self: True  # noqa: E731

    def astype(self, dtype):
        """x in dtype; the tensor itself when it has that dtype already (paddle.cast copies)."""
        if convert_dtype(dtype, op="astype") == self._data.dtype:
            return self
        return casting.cast(self, dtype)

    def erf(self, name=None):
        """The error function (the built-in pack's op, ``opsdk.erf``)."""
        return _provided["erf"](self)

    def set_value(self, value):
        """Overwrite the values (no graph), as Paddle's Tensor.set_value."""
        arr = value._data if isinstance(value, Tensor) else np.asarray(value)
        if tuple(arr.shape) != tuple(self._data.shape):
            raise SetValueShapeError(f"set_value: expected: shape {self.shape}; got: "
                                     f"{list(arr.shape)}")
        self._data[...] = arr
        bump_version(self)
        return self

    def copy_(self, other, blocking=True):
        return TensorMethods.set_value(self, other)

    def uniform_(self, min=0.0, max=1.0, seed=0, name=None):
        if not min < max:  # Paddle refuses an empty range here (paddle.uniform does not)
            raise OpArgumentError(f"uniform_: 'min' must be less than 'max'\n"
                                  f"  expected: min < max\n  got: min={min}, max={max}")
        data = creation.get_rng().uniform(min, max, self._data.shape)
        return inplace.fill_values_(self, data.astype(self._data.dtype))

    def where_(condition, x=None, y=None, name=None):
        """x, in place, takes y where condition is False (Paddle's where_: as a method the
        tensor is the condition)."""
        # Paddle refuses numbers and a missing x or y here, and a condition that is not bool
        # (ValueError each)
        if not (isinstance(x, Tensor) and isinstance(y, Tensor)):
            raise OpArgumentError(f"where_: x and y must both be Tensors (x takes the result); "
                                  f"got: {type(x).__name__} and {type(y).__name__}")
        if not isinstance(condition, Tensor) or condition._data.dtype != np.bool_:
            got = condition.dtype if isinstance(condition, Tensor) else type(condition).__name__
            raise OpArgumentError(f"where_: condition must be a bool Tensor; got: {got}")
        return _where_into(x, condition, y)

    def create_parameter(*args, **kwargs):
        """opsdk.create_parameter, as Paddle also binds it to Tensor (from above: provide)."""
        return _provided["create_parameter"](*args, **kwargs)

    def softmax(self, dim=None, dtype=None, *, out=None):
        """paddle.softmax(x, dim, dtype) (from above: provide)."""
        return _provided["softmax"](self, dim, dtype)

    def apply(self, func):
        """func(x) for a tensor that needs no gradient (Paddle refuses one that does)."""
        _no_grad_for_apply(self, "apply")
        return func(self)

    def apply_(self, func):
        """x's values replaced by func(x), in place (the tensor must need no gradient)."""
        _no_grad_for_apply(self, "apply_")
        return TensorMethods.set_value(self, func(self))

    def cpu(self):
        """x on the CPU: the tensor itself when it is there already, as in Paddle."""
        if type(self._data) is np.ndarray:
            return self
        t = _wrap(move_to(self._data, CPU))
        t.stop_gradient = self.stop_gradient
        return t

    def cuda(self, device_id=0, blocking=True):
        t = _wrap(move_to(self._data, Place("gpu", device_id)))
        t.stop_gradient = self.stop_gradient
        return t


def _matrix_transposed(x):
    """x.mT: the last two axes swapped; Paddle refuses fewer than two (ValueError)."""
    if x.ndim < 2:
        raise OpArgumentError(f"Tensor.mT: expected: a tensor of 2 or more dimensions; got: "
                              f"ndim {x.ndim}")
    return shape.transpose(x, [*range(x.ndim - 2), x.ndim - 1, x.ndim - 2])


# what Python puts in every class body (__hash__: None, as the table defines __eq__)
_CLASS_ITEMS = ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__hash__")


def methods():
    """{name: method} for every entry of the table."""
    table = {name: getattr(module, name) for module, names in SAME_NAME.items()
             for name in names.split()}
    for name, op, ufunc, reads_input in IN_PLACE:
        table[name] = inplace.inplace_method(op, name, ufunc, reads_input,
                                             writes=PADDLE_WRITES.get(name, 1))
    # x takes the result's shape: Paddle's resize_
    table["resize_"] = inplace.inplace_method(storage.resized, "resize_", reads_input=False,
                                              reshapes=True)
    for name, op, back in SHAPE_IN_PLACE:
        table[name] = inplace.shape_method(op, back, name)
    for name, op in RETYPE_IN_PLACE:
        table[name] = inplace.retype_method(op, name)
    table.update((k, v) for k, v in vars(TensorMethods).items() if k not in _CLASS_ITEMS)
    table.update((name, conversion.dtype_method(name, dt))
                 for name, dt in conversion.DTYPE_METHODS.items())
    return table


def install():
    """Copy the table onto Tensor."""
    for name, method in methods().items():
        setattr(Tensor, name, method)


install()


# Paddle's module-level in-place functions (paddle.tanh_(x), ...): the methods above
MODULE_INPLACE = ("abs_", "cos_", "divide_", "div_", "floor_divide_", "floor_mod_", "mod_",
                  "remainder_", "flatten_", "log_", "multiply_", "neg_", "pow_", "reshape_",
                  "sin_", "square_", "squeeze_", "unsqueeze_", "subtract_", "sub_", "tanh_",
                  "transpose_", "t_", "exp_", "sqrt_", "rsqrt_", "reciprocal_", "sigmoid_",
                  "scale_", "clip_", "floor_", "ceil_", "round_", "zero_", "fill_", "add_") \
    + tuple(name for name, *_ in MORE_IN_PLACE) + tuple(name for name, _ in RETYPE_IN_PLACE) \
    + ("addmm_", "baddbmm_", "where_")


# Paddle's other names for an op: {alias: the op's name}; each is a top-level function and a
# Tensor method, as in Paddle (cat and concatenate only top-level)
ALIASES = {
    "div": "divide", "true_divide": "divide", "mul": "multiply", "sub": "subtract",
    "floor_mod": "remainder", "clamp": "clip", "negative": "neg", "eq": "equal",
    "ne": "not_equal", "gt": "greater_than", "greater": "greater_than", "ge": "greater_equal",
    "lt": "less_than", "less": "less_than", "le": "less_equal", "permute": "transpose",
}
# (Tensor.mod is in the class body, with floor_mod)
TOP_LEVEL_ONLY = {"cat": "concat", "concatenate": "concat", "mod": "remainder"}
# top-level ops Paddle also has as Tensor methods
ALSO_METHODS = "concat stack logical_and logical_or logical_xor bmm outer"


def paddle_aliases(namespace):
    """{alias: function} for opsdk's top level, read from its namespace (the ops it holds);
    the Tensor methods for the aliases and ALSO_METHODS are installed here too."""
    out = {alias: namespace[name] for alias, name in {**ALIASES, **TOP_LEVEL_ONLY}.items()}
    for alias, name in ALIASES.items():
        setattr(Tensor, alias, getattr(Tensor, name))
    for name in ALSO_METHODS.split():
        setattr(Tensor, name, namespace[name])
    return out


def module_inplace_functions():
    """{name: function(x, *args)} for MODULE_INPLACE, each the Tensor method (where_'s first
    argument is its condition; every other one's is the tensor written, which must be one)."""
    out = {name: _tensor_first(name, getattr(Tensor, name)) for name in MODULE_INPLACE}
    out["where_"] = Tensor.where_
    return out


def inplace_function(op, name):
    """paddle.<name>(x): op written into x, for the in-place forms Paddle has at its top level
    only (erf_, expm1_: no Tensor method)."""
    return _tensor_first(name, inplace.inplace_method(op, name, None, True))


def _tensor_first(name, method):
    @functools.wraps(method)
    def function(*args, **kwargs):
        # the tensor written comes first (its name varies: addmm_'s is 'input', and its 'x' is
        # another operand)
        if args and not isinstance(args[0], Tensor):
            # Paddle: a TypeError (its hypot_, ldexp_ word it so)
            raise ArgumentTypeError(f"{name}: x must be tensor type, but got {type(args[0])} "
                                    f"(expected: the Tensor to write into)")
        return method(*args, **kwargs)
    return function


# Paddle's ``out=`` (op_args.with_out): top-level functions and Tensor methods both, the
# top level only, Tensor methods only. Read from Paddle 3.3.1's signatures
# (tests/paddle_compat/test_signatures.py checks them); the creation functions take theirs
# with device and requires_grad (paddle_kwargs.CREATION)
OUT_BOTH = (
    "abs acos acosh add all amax amin any atanh bmm bucketize ceil clamp clip concat cos cosh "
    "cumprod cumsum diff div divide dot eq equal exp expm1 floor floor_divide floor_mod frac "
    "gather ge greater greater_equal greater_than gt index_add index_select le less less_equal "
    "less_than log log10 log1p log2 logical_and logical_not logical_or logical_xor logsumexp lt "
    "masked_select matmul maximum mean median minimum mod msort mul multiply ne nonzero "
    "not_equal outer pow prod quantile remainder round rsqrt scatter sign sin sinh sqrt stack "
    "sub subtract sum take_along_axis tanh topk tril triu true_divide var where")
OUT_TOP = "cat concatenate ger normal searchsorted"
OUT_METHODS = "sigmoid solve"  # (Tensor.norm takes out positionally: paddle_kwargs.norm)

# the in-place forms that take the new keywords: (method, op, ufunc, reads_input)
KWARG_IN_PLACE = (("add_", "add", np.add, False), ("subtract_", "subtract", np.subtract, False),
                  ("sub_", "subtract", np.subtract, False), ("divide_", "divide", np.divide, True),
                  ("div_", "divide", np.divide, True), ("round_", "round", None, False))


def install_paddle_kwargs(namespace):
    """Give opsdk's top level (``namespace``) and Tensor the keywords of paddle_kwargs and
    ``out=``; the ops' modules, and the operators, keep the plain functions."""
    from .functional import paddle_kwargs as pk
    namespace.update(pk.PUBLIC)
    for alias, name in pk.ALIASES.items():
        namespace[alias] = pk.PUBLIC[name]
    for name, fn in pk.PUBLIC.items():
        if name != "from_dlpack":
            setattr(Tensor, name, fn)
    for alias, name in pk.ALIASES.items():
        setattr(Tensor, alias, pk.PUBLIC[name])
    for name, fn in pk.METHODS.items():
        setattr(Tensor, name, fn)
    for name, (out, pin) in pk.CREATION.items():
        namespace[name] = pk.creating(namespace[name], out, pin)
    for name in (OUT_BOTH + " " + OUT_TOP).split():
        namespace[name] = _taking_out(namespace[name], name)
    for name in (OUT_BOTH + " " + OUT_METHODS).split():
        setattr(Tensor, name, _taking_out(getattr(Tensor, name), name))
    for name, op, ufunc, reads_input in KWARG_IN_PLACE:
        setattr(Tensor, name, inplace.inplace_method(pk.PUBLIC[op], name, ufunc, reads_input))
        namespace[name] = _tensor_first(name, getattr(Tensor, name))
    namespace["trunc_"] = _tensor_first("trunc_", pk.trunc_)


def _taking_out(fn, name):
    """fn with out= (op_args.with_out), unless it takes it itself (paddle_kwargs.add)."""
    from .functional.op_args import with_out
    return fn if getattr(fn, "takes_out", False) else with_out(fn, name)
