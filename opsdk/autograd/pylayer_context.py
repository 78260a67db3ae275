"""PyLayerContext: what a PyLayer's forward leaves for its backward."""
from ..tensor import Tensor
from . import saved_hooks
from .record import OutputOf


class PyLayerContext:
    """What forward leaves for backward: saved tensors and any attribute the op sets.

    ``needs_input_grad`` has one bool per forward argument: True where that argument is a Tensor
    whose gradient backward must compute.
    """

    def __init__(self):
        self._saved = ()
        self._was_saved = False
        self._packed = None
        self._saved_forward = ()
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
        self._was_saved = True
        pair = saved_hooks.active()
        if pair is not None:
            # saved_tensors_hooks: packed now, unpacked by saved_tensor() (no version check:
            # the hooks own the saved values)
            self._packed = tuple(saved_hooks.pack(t, pair) if isinstance(t, Tensor) else t
                                 for t in tensors)
            self._saved = ()
            return
        self._saved = tensors

    def saved_tensor(self):
        """The tensors given to save_for_backward, in order (outputs as apply returned them);
        None where forward never called save_for_backward, as in Paddle."""
        if not self._was_saved:
            return None
        return self._saved_tuple()

    def _saved_tuple(self):
        if self._packed is not None:
            return tuple(t.unpacked() if isinstance(t, saved_hooks.Packed) else t
                         for t in self._packed)
        saved = self._saved
        if any(type(t) is OutputOf for t in saved):
            return tuple(t.get() if type(t) is OutputOf else t for t in saved)
        return saved

    # PyTorch's spelling, for ported code: a tuple, () where nothing was saved
    saved_tensors = property(lambda self: self._saved_tuple())

    def save_for_forward(self, *tensors):
        """Keep tensors for the op's ``jvp(ctx, *tangents)`` (forward mode); read them back with
        ``saved_for_forward()``. Like save_for_backward: inputs and outputs of forward."""
        self._saved_forward = tensors

    def saved_for_forward(self):
        """The tensors given to save_for_forward, in order (outputs as apply returned them)."""
        return tuple(t.get() if type(t) is OutputOf else t for t in self._saved_forward)

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
