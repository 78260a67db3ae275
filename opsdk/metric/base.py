"""paddle.metric.Metric: the interface of a streaming metric."""
import abc

import numpy as np

from ..errors import OpArgumentError


class Metric(abc.ABC):
    """A metric accumulated over batches: ``compute`` (optional, on Tensors, inside the model's
    step) turns outputs into what ``update`` takes; ``update`` adds a batch; ``accumulate``
    gives the value so far; ``reset`` starts again; ``name`` names it."""

    def __init__(self):
        pass

    @abc.abstractmethod
    def reset(self):
        """Forget every batch."""

    @abc.abstractmethod
    def update(self, *args):
        """Add one batch."""

    @abc.abstractmethod
    def accumulate(self):
        """The value over the batches so far."""

    @abc.abstractmethod
    def name(self):
        """The metric's name."""

    def compute(self, *args):
        """What update() takes, from a batch's outputs and labels (here: them unchanged)."""
        return args


def as_array(value, op, arg):
    """A Tensor's or NumPy value's array; anything else is refused."""
    if hasattr(value, "numpy") and hasattr(value, "stop_gradient"):
        return value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return value
    raise OpArgumentError(f"{op}.update: {arg}: expected: a NumPy array or a Tensor; got: "
                          f"{type(value).__name__}")
