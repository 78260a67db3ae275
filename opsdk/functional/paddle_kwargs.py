"""The keyword arguments Paddle 3.3.1's functions gained over the core ops' own: ``alpha``
(add, subtract), ``rounding_mode`` (divide), ``decimals`` (round), ``correction`` (var),
``dtype`` (mean, Tensor.norm), ``left`` (solve), and the creation functions' ``device``,
``requires_grad`` and ``pin_memory``. The public names are these; the ops they call, and the
operators (``x + y`` is arithmetic.add itself), run as before. ``out=`` is op_args.with_out.
"""
import functools

import numpy as np

from ..autograd.grad_mode import no_grad
from ..errors import OpArgumentError
from ..tensor import Tensor, _wrap
from . import arithmetic, creation, decompositions, linalg, reduction, shape, unary
from .casting import cast
from .creation import placed
from .op_args import _signature_with, aliases, with_out, write_out


def add(x, y, name=None, *, alpha=1, out=None):
    """x + alpha * y (Paddle scales y first: ``y * alpha``, skipped when alpha is 1). out=
    as op_args.with_out, written here: add is the hottest op, one call layer less."""
    r = arithmetic.add(x, y if alpha == 1 else y * alpha)
    return r if out is None else write_out(out, r, "add")


def subtract(x, y, name=None, *, alpha=1, out=None):
    """x - alpha * y (out= as in add)."""
    r = arithmetic.subtract(x, y if alpha == 1 else y * alpha)
    return r if out is None else write_out(out, r, "subtract")


add.takes_out = subtract.takes_out = True


_ROUNDING = {"trunc": np.trunc, "floor": np.floor}


def divide(x, y, name=None, *, rounding_mode=None):
    """x / y; rounding_mode 'trunc' or 'floor' rounds the quotient (integers stay integers,
    as in Paddle; the rounded quotient carries no gradient, as Paddle's)."""
    if rounding_mode is None:
        return arithmetic.divide(x, y)
    if rounding_mode not in _ROUNDING:
        # Paddle: a ValueError with this wording
        raise OpArgumentError(f"div expected rounding_mode to be one of None, 'trunc', or "
                              f"'floor' but found {rounding_mode}.")
    xd = x._data if isinstance(x, Tensor) else np.asarray(x)
    yd = y._data if isinstance(y, Tensor) else np.asarray(y)
    if xd.dtype.kind in "iub" and yd.dtype.kind in "iub":
        dtype = np.result_type(xd, yd) if isinstance(y, Tensor) else xd.dtype
        q = np.floor_divide(xd, yd)
        if rounding_mode == "trunc":
            # floor rounds a negative inexact quotient one below trunc
            q = q + ((np.remainder(xd, yd) != 0) & ((xd < 0) != (yd < 0)))
        return _wrap(np.asarray(q).astype(dtype, copy=False))
    with no_grad():
        q = arithmetic.divide(x, y)
    return _wrap(np.asarray(_ROUNDING[rounding_mode](q._data)))


def round(x, decimals=0, name=None):  # noqa: A001  (Paddle's name)
    """x rounded half away from zero to ``decimals`` places (negative: to tens, hundreds...)."""
    if decimals == 0:
        return unary.round(x)
    scale = 10.0 ** decimals
    return arithmetic.divide(unary.round(arithmetic.multiply(x, scale)), scale)


def var(x, axis=None, unbiased=None, keepdim=False, name=None, *, correction=1):
    """Variance dividing by n - correction (unbiased=True is correction 1, False is 0; Paddle
    refuses both given)."""
    if unbiased is not None:
        if correction != 1:
            raise OpArgumentError("var: Only one of unbiased and correction may be given")
        return reduction.var(x, axis, bool(unbiased), keepdim)
    if correction in (0, 1):
        return reduction.var(x, axis, bool(correction), keepdim)
    biased = reduction.var(x, axis, False, keepdim)
    data = x._data if isinstance(x, Tensor) else np.asarray(x)
    n = data.size // max(biased._data.size, 1) if data.size else 0
    left = n - correction
    factor = n / left if left > 0 else float("inf")
    return arithmetic.multiply(biased, factor)


def mean(x, axis=None, keepdim=False, name=None, *, dtype=None):
    """Mean over axis; dtype casts x first (Paddle: mean of an int tensor in float64)."""
    return reduction.mean(x if dtype is None else cast(x, dtype), axis, keepdim)


def norm(x, p=None, axis=None, keepdim=False, out=None, dtype=None, name=None):
    """Tensor.norm: paddle.linalg.norm with Paddle's positional out and dtype (x cast first)."""
    r = decompositions.norm(x if dtype is None else cast(x, dtype), p, axis, keepdim)
    return r if out is None else write_out(out, r, "norm")


def _swap_last(t):
    return shape.transpose(t, [*range(t.ndim - 2), t.ndim - 1, t.ndim - 2])


def solve(x, y, left=True, name=None):
    """z with x @ z = y; left=False: z @ x = y (solved as x^T z^T = y^T)."""
    if left:
        return linalg.solve(x, y)
    return _swap_last(linalg.solve(_swap_last(x), _swap_last(y)))


@aliases(input="x", mat2="y")
def mm(x, y, name=None):
    return linalg.mm(x, y)


@aliases(input="x", other="y")
def true_divide(x, y, name=None):
    return arithmetic.divide(x, y)


@aliases(input="x")
def trunc(x, name=None):
    from .more_unary import trunc as _trunc
    return _trunc(x)


def trunc_(input, name=None):
    """paddle.trunc_(input): input truncated in place (Tensor.trunc_)."""
    return Tensor.trunc_(input)


@aliases(input="x")
def t(x, name=None):
    return shape.t(x)


@aliases(input="x")
def unbind(x, axis=0):
    return shape.unbind(x, axis)


@aliases(input="x")
def permute(x, *args, dims=None, perm=None, name=None):
    """transpose, Paddle's PyTorch-style name: the axes as a list or one by one
    (``x.permute(1, 0)``), or as dims=."""
    order = dims if dims is not None else perm
    if order is None:
        order = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    return shape.transpose(x, order)


# -- the creation functions' keywords -----------------------------------------------------

def creating(fn, out=True, pin=True):
    """fn taking Paddle's ``device``, ``requires_grad`` (and ``pin_memory``, ``out`` where
    Paddle has them) as keyword-only arguments."""
    op = fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, out=None, device=None, requires_grad=False, pin_memory=False, **kwargs):
        t = placed(fn(*args, **kwargs), device, requires_grad, pin_memory, op)
        return t if out is None else write_out(out, t, op)
    extra = ([("out", None)] if out else []) + [("device", None), ("requires_grad", False)]
    wrapper.__signature__ = _signature_with(fn, *extra, *([("pin_memory", False)] if pin else []))
    return wrapper


CREATION = {"arange": (True, True), "empty": (True, True), "eye": (True, True),
            "full": (True, True), "ones": (True, True), "zeros": (True, True),
            "rand": (True, True), "randn": (True, True), "randperm": (True, True),
            "linspace": (True, False), "uniform": (True, False),
            "standard_normal": (True, False),
            "empty_like": (False, True), "full_like": (False, True), "ones_like": (False, True),
            "zeros_like": (False, True)}


def from_dlpack(dlpack, *, device=None, copy=None):
    """A Tensor sharing memory with a DLPack-capable array; copy=True copies it, device moves
    it (a copy when it is elsewhere)."""
    t = creation.from_dlpack(dlpack)
    if copy:
        t = _wrap(t._data.copy())
    return placed(t, device, False, False, "from_dlpack")


# what the top level takes from here: {name: function}; with_out added where Paddle has out
PUBLIC = {"add": add, "subtract": subtract, "divide": divide, "round": round, "var": var,
          "mean": mean, "mm": mm, "true_divide": true_divide, "trunc": trunc, "t": t,
          "unbind": unbind, "permute": permute, "from_dlpack": from_dlpack}
# Tensor methods from here (the rest of PUBLIC are methods under their own names too)
METHODS = {"norm": norm, "solve": solve}
ALIASES = {"sub": "subtract", "div": "divide"}
