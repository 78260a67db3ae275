"""The PyLayer protocol: custom ops with a user-written forward and backward."""
from ..errors import PyLayerNotImplementedError
from .pylayer_apply import apply as _apply
from .pylayer_context import PyLayerContext  # noqa: F401  (public here, as in Paddle)


def once_differentiable(backward):
    """Mark a backward as first-order only: it runs without recording a graph, and asking for a
    higher-order gradient through it raises DoubleBackwardError naming the op.

    Example:
        >>> class Cube(opsdk.autograd.PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x ** 3
        ...     @staticmethod
        ...     @once_differentiable
        ...     def backward(ctx, dy):
        ...         (x,) = ctx.saved_tensor()
        ...         return opsdk.to_tensor(3 * x.numpy() ** 2 * dy.numpy())
    """
    target = getattr(backward, "__func__", backward)
    target._opsdk_once_differentiable = True
    return backward


class PyLayer:
    """Base class of custom ops: subclass, write static forward(ctx, ...) and backward(ctx, ...).

    ``forward`` runs without recording a graph and returns a Tensor or a tuple of them (other
    values pass through). ``backward`` gets one gradient per Tensor output and returns one per
    Tensor input, or one per forward argument with None for the non-Tensors. A backward written
    with opsdk ops can be differentiated again; set ``once_differentiable = True`` (or decorate
    backward with ``once_differentiable``) when it runs raw kernels.

    Example:
        >>> class Double(opsdk.autograd.PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         return dy * 2
        >>> y = Double.apply(x)
    """

    once_differentiable = False

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise PyLayerNotImplementedError("PyLayer subclasses must define forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *grads):
        raise PyLayerNotImplementedError("PyLayer subclasses must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, /, *args, **kwargs):
        """Run forward and record one backward node for the Tensor outputs.

        Args:
            *args: forward's arguments; Tensors among them get gradients.
            **kwargs: forward's keyword arguments; Tensors among them get gradients too
                (after the positional ones, in keyword order).

        Returns:
            What forward returned, its Tensors replaced by graph-connected ones.
        """
        return _apply(cls, args, kwargs)


Function = PyLayer
