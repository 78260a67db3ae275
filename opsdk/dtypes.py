"""Dtypes: opsdk uses NumPy dtype objects, named as Paddle names them."""
import numpy as np

from .errors import DTypeError

bool_ = np.dtype("bool")
int8 = np.dtype("int8")
uint8 = np.dtype("uint8")
int16 = np.dtype("int16")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
complex64 = np.dtype("complex64")
complex128 = np.dtype("complex128")

FLOAT_DTYPES = (float16, float32, float64)

_default_float = float32


def convert_dtype(dtype, op="to_tensor", arg="dtype"):
    """Turn a name ('float32', 'paddle.float32'), NumPy dtype or type into a NumPy dtype."""
    if dtype is None:
        return None
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, str):
        name = dtype.rsplit(".", 1)[-1]
        if name == "bool":
            return bool_
        try:
            return np.dtype(name)
        except TypeError:
            pass
    else:
        try:
            return np.dtype(dtype)
        except TypeError:
            pass
    raise DTypeError(f"{op}: argument '{arg}' is not a dtype; expected: a name such as 'float32' "
                     f"or a numpy dtype; got: {dtype!r}")


def get_default_dtype():
    """The dtype Python floats become (float32 unless changed)."""
    return _default_float.name


def set_default_dtype(d):
    """Set the dtype Python floats become: 'float16', 'float32' or 'float64'."""
    global _default_float
    d = convert_dtype(d, op="set_default_dtype", arg="d")
    if d not in FLOAT_DTYPES:
        raise DTypeError(f"set_default_dtype: expected: float16, float32 or float64; got: {d}")
    _default_float = d


def default_float():
    """The current default float dtype (a numpy dtype)."""
    return _default_float


# -- Paddle 3.x type promotion ----------------------------------------------------------------
_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _category(dtype):
    return _RANK[dtype.kind]


def promote(dx, dy, x_0d, y_0d, op):
    """The result dtype of a binary op on tensors of dtypes dx, dy, as Paddle 3.x computes it.

    A 0-d tensor beside a tensor with dimensions acts like a Python number of its kind: the
    tensor's dtype wins unless the 0-d one is of a higher kind (int tensor * 0-d float64 is
    float64). Otherwise floats promote to the wider float, and any other mix of dtypes is an
    error (Paddle raises TypeError: int32 * int64, float32 * int64, bool * float32).
    """
    if dx == dy:
        return dx
    if dx.kind not in _RANK or dy.kind not in _RANK:
        raise DTypeError(f"{op}: dtypes {dx} and {dy} are not supported")
    cx, cy = _category(dx), _category(dy)
    if x_0d != y_0d:
        if x_0d:
            return dx if cx > cy else dy
        return dy if cy > cx else dx
    if cx == cy == 2 or (x_0d and y_0d):
        if cx != cy:
            return dx if cx > cy else dy
        return np.promote_types(dx, dy)
    raise DTypeError(f"{op}: tensors of dtypes {dx} and {dy} do not combine; expected: equal "
                     f"dtypes, or two float dtypes (Paddle's type promotion); got: {dx} and "
                     f"{dy}. Cast one with .astype() first")


def promote_scalar(dtype, value, op):
    """The result dtype of a binary op on a tensor of ``dtype`` and a Python number."""
    kind = dtype.kind
    if kind == "f" or kind == "c":
        return dtype
    if type(value) is float:
        return _default_float
    if kind == "b" and type(value) is int:
        return int64
    return dtype
