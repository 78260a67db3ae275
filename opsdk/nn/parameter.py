"""Parameters: trainable leaf tensors, and create_parameter to make one."""
import copy

import numpy as np

from ..dtypes import convert_dtype, default_float
from ..errors import OpArgumentError
from ..tensor import Tensor
from .naming import unique_name


class Parameter(Tensor):
    """A trainable leaf Tensor (stop_gradient=False) with a name and optimizer settings.

    Optimizers update ``_data`` in place under no_grad, so a parameter stays a leaf.
    ``trainable = False`` is the same as ``stop_gradient = True``.
    """

    persistable = True

    def __init__(self, data, name=None, trainable=True, optimize_attr=None, regularizer=None,
                 need_clip=True):
        self.array = data
        self._node = None
        self.name = name
        self.stop_gradient = not trainable
        self.optimize_attr = optimize_attr if optimize_attr is not None else {"learning_rate": 1.0}
        self.regularizer = regularizer
        self.need_clip = need_clip
        self.is_distributed = False

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        self.stop_gradient = not value

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    try:
        shape = [int(s) for s in shape]
    except TypeError:
        raise OpArgumentError(f"create_parameter: argument 'shape' must be a list of ints; "
                              f"got: {shape!r}") from None
    if any(s < 0 for s in shape):
        raise OpArgumentError(f"create_parameter: argument 'shape' must not be negative; "
                              f"got: {shape}")
    return shape


def make_parameter(shape, dtype, attr, is_bias, default_initializer, prefix):
    """The shared body of ``create_parameter`` and ``Layer.create_parameter``."""
    from .initializer import Constant, XavierUniform
    from .initializer.global_init import global_initializer
    from .param_attr import ParamAttr
    attr = ParamAttr._to_attr(attr)
    dt = convert_dtype(dtype, op="create_parameter") if dtype is not None else default_float()
    # the ParamAttr's initializer, else set_global_initializer's, else the layer's default
    init = attr.initializer or global_initializer(is_bias) or default_initializer
    if init is None:
        # Paddle's defaults: biases start at 0, weights Xavier-uniform
        init = Constant(0.0) if is_bias else XavierUniform()
    name = attr.name or unique_name(f"{prefix}.{'b' if is_bias else 'w'}")
    p = Parameter(np.zeros(_shape(shape), dtype=dt), name=name, trainable=attr.trainable,
                  optimize_attr={"learning_rate": attr.learning_rate},
                  regularizer=attr.regularizer, need_clip=attr.need_clip)
    init(p)
    return p


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """Create a trainable parameter (a leaf Tensor with stop_gradient=False).

    Args:
        shape: list of ints.
        dtype: 'float32', 'float64', 'float16' or a numpy dtype.
        name: the parameter's name (generated when None).
        attr: an ``opsdk.nn.ParamAttr`` (its initializer wins over default_initializer).
        is_bias: default to Constant(0.0) instead of XavierUniform when no initializer is given.
        default_initializer: an ``opsdk.nn.initializer`` instance.

    Returns:
        An ``opsdk.nn.Parameter``.

    Example:
        >>> w = opsdk.create_parameter([1], "float32",
        ...                            default_initializer=opsdk.nn.initializer.Constant(0.0))
        >>> w.stop_gradient
        False
    """
    from .param_attr import ParamAttr
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        raise OpArgumentError("create_parameter: attr=False creates no parameter; expected: None "
                              "or a ParamAttr")
    if name is not None and attr.name is None:
        attr = copy.copy(attr)
        attr.name = name
    # named as Paddle does: create_parameter_<n>.w_0
    return make_parameter(shape, dtype, attr, is_bias, default_initializer,
                          unique_name("create_parameter"))
