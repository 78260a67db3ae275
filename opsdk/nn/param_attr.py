"""ParamAttr: how a layer creates one parameter (name, initializer, learning rate, ...)."""
from ..errors import OpArgumentError


class ParamAttr:
    """Settings for a parameter a layer creates, as Paddle's ``paddle.ParamAttr``.

    Args:
        name: the parameter's name (generated when None).
        initializer: an ``opsdk.nn.initializer`` instance (the layer's default when None).
        learning_rate: multiplier on the optimizer's learning rate for this parameter.
        regularizer: an ``opsdk.optimizer.regularizer.L1Decay/L2Decay``; overrides the
            optimizer's weight_decay for this parameter.
        trainable: False creates the parameter with stop_gradient=True.
        need_clip: False exempts the parameter from the optimizer's grad_clip.

    Example:
        >>> fc = opsdk.nn.Linear(4, 2, weight_attr=opsdk.nn.ParamAttr(
        ...     initializer=opsdk.nn.initializer.Constant(0.5), learning_rate=0.1))
    """

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=True, need_clip=True):
        self.name = name
        self.initializer = initializer
        self.learning_rate = float(learning_rate)
        self.regularizer = regularizer
        self.trainable = bool(trainable)
        self.do_model_average = do_model_average
        self.need_clip = bool(need_clip)

    @staticmethod
    def _to_attr(arg):
        """Normalize what layers accept as weight_attr/bias_attr; False means 'no parameter'."""
        from .initializer import Initializer
        if arg is None or arg is True:  # True: "with the default parameter", as in Paddle
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        raise OpArgumentError(f"ParamAttr: expected: None, True, False, a name, an initializer or a "
                              f"ParamAttr; got: {type(arg).__name__}")

    def __repr__(self):
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")
