"""cast, and float arguments: integer and bool tensors made float where an op needs one."""
from ..autograd.record import record
from ..dtypes import convert_dtype, default_float
from ..errors import NoKernelDTypeError
from ..tensor import Tensor, _wrap, tensor_arg
from . import maths


def cast(x, dtype):
    """x converted to dtype; the gradient is cast back to x's dtype.

    Example:
        >>> opsdk.cast(opsdk.to_tensor([1.5]), "int64").numpy()
        array([1])
    """
    x = tensor_arg(x, "cast")
    dt = convert_dtype(dtype, op="cast")
    # an integer result gets no gradient (record: no node), though it reports stop_gradient=False
    return record("cast", x._data.astype(dt), (x,), _CAST, (x._data.dtype,))


# the gradient of cast is the output's gradient cast back to the input's dtype
_CAST = (lambda g, src: maths.cast(g, src),)


def as_dtype(x, dtype, op):
    """x in dtype: x itself when it has it, else cast (a graph op); dtype checked for op."""
    dt = convert_dtype(dtype, op=op)
    return x if x._data.dtype == dt else cast(x, dt)


def float_arg(x, op, arg="x"):
    """x as a float tensor: an integer tensor becomes the default float, as in Paddle; a bool
    tensor is a NoKernelDTypeError (Paddle 3.3.1 has no bool kernel for these ops: a
    RuntimeError there), a bool list or array too."""
    if not isinstance(x, Tensor):
        x = tensor_arg(x, op, arg)
    if x._data.dtype.kind == "b":
        raise NoKernelDTypeError(f"{op}: argument '{arg}' must not be a bool tensor (Paddle has "
                                 f"no bool kernel for {op}); expected: a float or integer tensor; "
                                 f"got: bool")
    if x._data.dtype.kind not in "fc":
        return _wrap(x._data.astype(default_float()))
    return x


maths.provide(cast=cast)
