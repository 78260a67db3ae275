"""The PyLayer protocol: custom ops with a user-written forward and backward."""
from ..errors import PyLayerNotImplementedError
from .record import OutputOf as _OutputOf


class PyLayerContext:
    """What forward leaves for backward: saved tensors and any attribute the op sets.

    ``needs_input_grad`` has one bool per forward argument: True where that argument is a Tensor
    whose gradient backward must compute.
    """

    def __init__(self):
        self._saved = ()
        self._non_diff = ()
        self._materialize = True
        self._not_inplace = ()
        self._grad_in_dtype_consistent = True
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        """Keep tensors for backward (checked for in-place changes before backward runs).

        Save inputs and outputs of forward, not tensors computed inside it: an intermediate is a
        constant for the graph, so a second derivative through it would miss its dependence.
        """
        self._saved = tensors

    def saved_tensor(self):
        """The tensors given to save_for_backward, in order (outputs as apply returned them)."""
        saved = self._saved
        if any(type(t) is _OutputOf for t in saved):
            return tuple(t.get() if type(t) is _OutputOf else t for t in saved)
        return saved

    saved_tensors = property(saved_tensor)

    def mark_non_differentiable(self, *tensors):
        """Outputs that never get a gradient (indices, masks): they come back with
        stop_gradient=True and backward receives zeros (or None) for them."""
        self._non_diff = self._non_diff + tuple(id(t) for t in tensors)

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self._materialize = bool(value)

    def mark_not_inplace(self, *tensors):
        """Inputs that forward returns as outputs without changing them. Unmarked, an input
        returned as an output is an in-place op on it (as in Paddle): refused for a leaf that
        needs a gradient; any other input takes the output's place in the graph."""
        self._not_inplace = self._not_inplace + tuple(id(t) for t in tensors)

    def set_grad_in_dtype_consistent(self, value):
        """With False, backward gets output gradients in the dtype they arrive in, uncast (by
        default each is cast to its output's dtype, as in Paddle)."""
        self._grad_in_dtype_consistent = bool(value)


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


def _apply(cls, args, kwargs):
    # pylayer_apply needs the whole package: load it on the first call, then call it directly
    global _apply
    from .pylayer_apply import apply as _apply
    return _apply(cls, args, kwargs)


Function = PyLayer
