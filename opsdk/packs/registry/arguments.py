"""The arguments of a registered op's call: lists, NumPy arrays and numbers where the op takes a
tensor become Tensors, as core ops accept them, so no pack has to convert (or crash on) them."""
import inspect

import numpy as np

from ...errors import OpArgumentError
from ...tensor import Tensor

_ARRAY_LIKE = (list, tuple, np.ndarray, np.generic, int, float, bool, complex)


def tensor_slots(op):
    """(positions, names) of the op's tensor arguments: from its input specs and the forward
    signature, or, for an op verified on samples, from where its first sample holds Tensors."""
    if op.inputs:
        count = len(op.inputs)
        try:
            params = list(inspect.signature(op.function.forward).parameters)[1:]  # after ctx
        except (TypeError, ValueError):
            params = []
        return frozenset(range(count)), frozenset(params[:count])
    try:
        (sample, *_) = op.samples(op.dtypes[0], rng=0)
    except Exception:  # noqa: BLE001 - a broken sampler is the checks' finding, not this call's
        return frozenset(), frozenset()
    positions = {i for i, a in enumerate(sample.args) if isinstance(a, Tensor)}
    names = {k for k, v in sample.kwargs.items() if isinstance(v, Tensor)}
    return frozenset(positions), frozenset(names)


def _float_like(args, kwargs):
    """The dtype of the first floating Tensor argument, or None."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, Tensor) and value.array.dtype.kind == "f":
            return value.array.dtype
    return None


def _as_tensor(op, value, argument, like):
    """value as a Tensor for the op: NumPy data keeps its dtype, Python data follows ``like``."""
    from ...functional.creation import to_tensor

    if not isinstance(value, _ARRAY_LIKE) and not hasattr(value, "__cuda_array_interface__"):
        raise OpArgumentError(f"op '{op.qualname}': argument {argument} must be a Tensor, a list, "
                              f"an array or a number; got: {type(value).__name__}")
    native = isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "__cuda_array_interface__")
    try:
        tensor = to_tensor(value, dtype=None if native else like)
    except OpArgumentError as error:
        raise OpArgumentError(f"op '{op.qualname}': argument {argument}: {error}") from None
    kind = tensor.array.dtype.kind
    if not native and like is None and kind in "biu" and tensor.dtype not in op.dtypes:
        floats = [d for d in op.dtypes if d.startswith("float")]
        if floats:  # swish(3) means swish(3.0), as it does for core ops on Python numbers
            from ...dtypes import default_float

            default = np.dtype(default_float()).name
            tensor = tensor.astype(default if default in floats else floats[0])
    return tensor


def converted(op, slots, args, kwargs):
    """(args, kwargs) with every non-Tensor value at a tensor slot turned into a Tensor.

    None stays None: it is how an op is told that an optional tensor (a norm's weight) is absent.
    """
    positions, names = slots
    like = _float_like(args, kwargs)
    args = tuple(_as_tensor(op, a, f"#{i}", like) if i in positions and not isinstance(a, (Tensor, type(None))) else a
                 for i, a in enumerate(args))
    kwargs = {k: _as_tensor(op, v, f"'{k}'", like) if k in names and not isinstance(v, (Tensor, type(None))) else v
              for k, v in kwargs.items()}
    return args, kwargs
