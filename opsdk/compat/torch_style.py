"""Paddle 3.3.1's PyTorch-style names that need the Paddle-facing layers: the top-level
``paddle.softmax`` (dim, dtype, and Paddle's default axis) and ``Tensor.create_parameter``.
opsdk/__init__ exports them and hands them to the Tensor's method table (provide)."""
from ..errors import ArgumentTypeError
from ..dtypes import convert_dtype
from ..functional.casting import cast
from ..tensor import Tensor


def softmax(input, dim=None, dtype=None, *, out=None):
    """exp(x) / sum(exp(x)) along dim, in dtype (input cast first). With dim None, Paddle's
    (PyTorch's old) default: axis 0 for 0-, 1- and 3-D tensors, else axis 1."""
    from ..nn.functional.activation import softmax as _softmax
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"softmax: input must be a Tensor; got: {type(input).__name__}")
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    x = input if dtype is None else cast(input, convert_dtype(dtype, op="softmax"))
    return _softmax(x, axis=dim)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """opsdk.create_parameter, as Paddle also binds it to Tensor."""
    from ..nn.parameter import create_parameter as _create
    return _create(shape, dtype, name, attr, is_bias, default_initializer)
