"""The PyLayer protocol: custom ops with a user-written forward and backward."""
from ..errors import BackwardError, OpArgumentError
from . import grad_mode

_state = grad_mode._state


class PyLayerContext:
    """What forward leaves for backward: saved tensors and any attribute the op sets."""

    def __init__(self):
        self._saved = ()
        self._non_diff = set()
        self._materialize = True
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        """Keep tensors for backward (checked for in-place changes before backward runs)."""
        self._saved = tensors

    def saved_tensor(self):
        """The tensors given to save_for_backward, in order."""
        return self._saved

    saved_tensors = property(saved_tensor)

    def mark_non_differentiable(self, *tensors):
        """Outputs that never get a gradient (indices, masks)."""
        self._non_diff.update(id(t) for t in tensors)

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self._materialize = bool(value)


class PyLayer:
    """Base class of custom ops: subclass, write static forward(ctx, ...) and backward(ctx, ...).

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

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise OpArgumentError("PyLayer subclasses must define forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *grads):
        raise OpArgumentError("PyLayer subclasses must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args, **kwargs):
        from .pylayer_apply import apply
        return apply(cls, args, kwargs)


Function = PyLayer
