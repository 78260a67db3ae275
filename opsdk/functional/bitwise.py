"""Bitwise and integer ops, without gradients: bitwise_*, gcd, lcm.

bitwise_and/or/xor/not/invert, bitwise_left_shift and bitwise_right_shift, gcd, lcm take
integer (and, for the logical ones, bool) tensors only; their results are integers."""
import numpy as np

from ..errors import NoKernelDTypeError
from ..tensor import Tensor, _wrap, as_array
from .op_args import tensor_arg


def _ints(op, *vals, bools=True):
    arrays = []
    for i, v in enumerate(vals):
        t = v if isinstance(v, Tensor) else tensor_arg(v, op, "xy"[i])
        kinds = "biu" if bools else "iu"
        if t._data.dtype.kind not in kinds:
            # Paddle has no float kernel for the bitwise ops: a RuntimeError (NotFound) there
            raise NoKernelDTypeError(f"{op}: argument '{'xy'[i]}' must be an integer"
                                     f"{' or bool' if bools else ''} tensor; got: "
                                     f"{t._data.dtype}")
        arrays.append(t._data)
    return arrays


def bitwise_and(x, y, out=None, name=None):
    """x & y, elementwise, with broadcasting."""
    return _wrap(as_array(np.bitwise_and(*_ints("bitwise_and", x, y))))


def bitwise_or(x, y, out=None, name=None):
    """x | y, elementwise, with broadcasting."""
    return _wrap(as_array(np.bitwise_or(*_ints("bitwise_or", x, y))))


def bitwise_xor(x, y, out=None, name=None):
    """x ^ y, elementwise, with broadcasting."""
    return _wrap(as_array(np.bitwise_xor(*_ints("bitwise_xor", x, y))))


def bitwise_not(x, out=None, name=None):
    """~x, elementwise (logical not for bool)."""
    return _wrap(as_array(np.invert(*_ints("bitwise_not", x))))


bitwise_invert = bitwise_not


def bitwise_left_shift(x, y, is_arithmetic=True, out=None, name=None):
    """x << y, elementwise."""
    a, b = _ints("bitwise_left_shift", x, y, bools=False)
    return _wrap(as_array(np.left_shift(a, b.astype(a.dtype))))


def bitwise_right_shift(x, y, is_arithmetic=True, out=None, name=None):
    """x >> y: arithmetic (the sign kept) or, with is_arithmetic=False, logical (zeros shifted
    in, the bits read as unsigned)."""
    a, b = _ints("bitwise_right_shift", x, y, bools=False)
    if is_arithmetic or a.dtype.kind == "u":
        return _wrap(as_array(np.right_shift(a, b.astype(a.dtype))))
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    return _wrap(as_array(np.right_shift(a.view(unsigned) if a.ndim else a.astype(unsigned),
                                         b.astype(unsigned)).astype(a.dtype)))


def gcd(x, y, name=None):
    """The greatest common divisor (non-negative), elementwise, with broadcasting."""
    a, b = _ints("gcd", x, y, bools=False)
    return _wrap(as_array(np.gcd(a, b)))


def lcm(x, y, name=None):
    """The least common multiple (non-negative; 0 where either is 0), with broadcasting."""
    a, b = _ints("lcm", x, y, bools=False)
    return _wrap(as_array(np.lcm(a, b)))
