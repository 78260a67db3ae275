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

# the classes of NumPy's real and complex float dtypes: for an array's dtype of one of them,
# ``type(dtype) in`` answers what ``dtype.kind`` would, without reading the kind (ops and the
# engine ask it at every node; a dtype of any other class is asked its kind)
REAL_FLOAT_CLASSES = frozenset(type(np.dtype(c)) for c in "efdg")
FLOAT_CLASSES = REAL_FLOAT_CLASSES | frozenset(type(np.dtype(c)) for c in "FDG")


class DType:
    """A dtype as Paddle shows it: ``str(paddle.float32)`` is ``'paddle.float32'``.

    opsdk computes with NumPy dtypes; this is the face ``Tensor.dtype`` and ``opsdk.float32``
    show. It stands for its NumPy dtype wherever NumPy takes a dtype (NumPy reads its ``dtype``
    attribute), compares and hashes as that dtype (so it finds the same dict entries), and
    answers the dtype's attributes (``kind``, ``itemsize``, ``name`` is NumPy's ``'float32'``).
    """

    __slots__ = ("dtype",)

    def __new__(cls, dtype):
        # one object per dtype: opsdk.float32 is the dtype of every float32 tensor
        d = convert_dtype(dtype, op="dtype", arg="dtype")
        found = _SHOWN.get(d)
        if found is None:
            found = _SHOWN[d] = object.__new__(cls)
            found.dtype = d
        return found

    def __getattr__(self, name):
        if name == "dtype":  # unset (during unpickling): no recursion through __getattr__
            raise AttributeError(name)
        return getattr(self.dtype, name)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.dtype == other.dtype
        if isinstance(other, str) and other.startswith("paddle."):
            other = other[7:]
        try:
            return bool(self.dtype == other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.dtype)

    def __str__(self):
        return "paddle." + self.dtype.name

    __repr__ = __str__

    def __reduce__(self):
        return DType, (self.dtype.str,)


_SHOWN = {}


def shown(dtype):
    """The DType that shows ``dtype`` (a NumPy dtype or anything convert_dtype takes)."""
    try:
        return _SHOWN[dtype]
    except (KeyError, TypeError):
        return DType(dtype)

_default_float = float32


def convert_dtype(dtype, op="to_tensor", arg="dtype"):
    """Turn a name ('float32', 'paddle.float32'), NumPy dtype or type into a NumPy dtype."""
    if dtype is None:
        return None
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, DType):
        return dtype.dtype
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
    if type(value) is complex and kind != "c":
        # Paddle: a complex number makes every real tensor complex64, float64 complex128
        return complex128 if dtype == float64 else complex64
    if kind == "f" or kind == "c":
        return dtype
    if type(value) is float:
        return _default_float
    if kind == "b" and type(value) is int:
        return int64
    return dtype
