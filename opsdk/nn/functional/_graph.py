"""Small helpers the nn.functional ops share: argument checks."""
from ...errors import DTypeError, NoKernelDTypeError
from ...tensor import tensor_arg  # noqa: F401  (the ops import it from here)


def float_arg(x, op, arg="x"):
    """x as a float Tensor, or a NoKernelDTypeError (a DTypeError that is also the RuntimeError
    Paddle raises: it has no integer kernel for these ops) naming the op and the argument."""
    x = tensor_arg(x, op, arg)
    if x.array.dtype.kind != "f":
        raise NoKernelDTypeError(f"{op}: argument '{arg}' must be a float tensor; expected: "
                                 f"float16, float32 or float64; got: {x.array.dtype}")
    return x


def same_dtype(op, **tensors):
    """Raise a DTypeError unless every given Tensor has the same dtype."""
    items = [(k, t) for k, t in tensors.items() if t is not None]
    first = items[0][1].array.dtype
    for k, t in items[1:]:
        if t.array.dtype != first:
            names = ", ".join(f"{k} {t.array.dtype}" for k, t in items)
            raise DTypeError(f"{op}: arguments must share one dtype; expected: all {first}; got: "
                             f"{names}. Cast with .astype('{first}') first")
