"""Small helpers the nn.functional ops share: argument checks and saved-output references."""
from ...errors import DTypeError
from ...functional.record import OutputOf, _state, to_tensor_arg
from ...tensor import Tensor


def tensor_arg(x, op, arg="x"):
    """x as a Tensor (arrays and lists are wrapped, never differentiated)."""
    return x if isinstance(x, Tensor) else to_tensor_arg(x, op, arg)


def float_arg(x, op, arg="x"):
    """x as a float Tensor, or a DTypeError naming the op and the argument."""
    x = tensor_arg(x, op, arg)
    if x._data.dtype.kind != "f":
        raise DTypeError(f"{op}: argument '{arg}' must be a float tensor; expected: float16, "
                         f"float32 or float64; got: {x._data.dtype}")
    return x


def wants_grad(*ts):
    """True when grad mode is on and some Tensor among ts needs a gradient."""
    if not _state.enabled:
        return False
    for t in ts:
        if t is not None and t._req:
            return True
    return False


# a node's own output rebuilt on use, without a reference cycle (the core's OutputOf)
OutRef = OutputOf


def same_dtype(op, **tensors):
    """Raise a DTypeError unless every given Tensor has the same dtype."""
    items = [(k, t) for k, t in tensors.items() if t is not None]
    first = items[0][1]._data.dtype
    for k, t in items[1:]:
        if t._data.dtype != first:
            names = ", ".join(f"{k} {t._data.dtype}" for k, t in items)
            raise DTypeError(f"{op}: arguments must share one dtype; expected: all {first}; got: "
                             f"{names}. Cast with .astype('{first}') first")
