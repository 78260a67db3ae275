"""paddle.nn.initializer.set_global_initializer: the initializers every parameter made after it
gets when its ParamAttr names none, in place of the layer's own default."""
from ...errors import ArgumentTypeError
from .common import Initializer

_GLOBAL = {"weight": None, "bias": None}


def set_global_initializer(weight_init, bias_init=None):
    """Use ``weight_init`` for new weights and ``bias_init`` for new biases (None: the layers'
    own defaults again). Anything else is refused at once (Paddle's dygraph takes it and
    fails at the next parameter made)."""
    for arg, value in (("weight_init", weight_init), ("bias_init", bias_init)):
        if value is not None and not isinstance(value, Initializer):
            raise ArgumentTypeError(f"set_global_initializer: {arg}: expected: an "
                                    f"opsdk.nn.initializer.Initializer or None; got: "
                                    f"{type(value).__name__}")
    _GLOBAL["weight"], _GLOBAL["bias"] = weight_init, bias_init


def global_initializer(is_bias):
    """The initializer set for biases (is_bias) or weights, or None."""
    return _GLOBAL["bias" if is_bias else "weight"]
