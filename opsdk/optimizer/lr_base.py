"""LRScheduler: the base class of the learning-rate schedulers in ``opsdk.optimizer.lr``.

Call ``scheduler.step()`` once per epoch (or step); an optimizer given a scheduler as
``learning_rate`` reads ``scheduler()`` at every step.
"""
import abc

from ..errors import ArgumentTypeError, OpArgumentError


class LRScheduler(abc.ABC):
    """Base class: ``get_lr()`` computes the rate for ``self.last_epoch``; ``step()`` advances.

    Args:
        learning_rate: the base rate.
        last_epoch: the epoch to resume after (-1 starts fresh: the first rate is the base).
        verbose: print the rate at every step.
    """

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        if not isinstance(learning_rate, (int, float)):
            raise ArgumentTypeError(f"{type(self).__name__}: learning_rate must be a number; "
                                    f"got: {type(learning_rate).__name__}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        """Advance one epoch (or jump to ``epoch``) and recompute the rate."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = int(epoch)
            closed = getattr(self, "_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    @abc.abstractmethod
    def get_lr(self):
        """Each subclass defines this."""

    # what state_dict saves, as Paddle's LRScheduler.keys
    _state_keys = ("last_epoch", "last_lr")

    def state_dict(self):
        """What set_state_dict needs to resume: {'last_epoch': ..., 'last_lr': ...}."""
        return {k: getattr(self, k) for k in self._state_keys}

    def set_state_dict(self, state_dict):
        for k, v in state_dict.items():
            if k in self._state_keys:
                setattr(self, k, v)

    set_dict = set_state_dict

    def __repr__(self):
        return f"{type(self).__name__}(last_epoch={self.last_epoch}, last_lr={self.last_lr})"


def int_arg(value, op, name, minimum=1):
    """value as an int >= minimum, or an error naming the scheduler and the argument."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{op}: {name} must be an int; got: {type(value).__name__} "
                                f"{value!r}")
    if value < minimum:
        raise OpArgumentError(f"{op}: {name} must be >= {minimum}; got: {value}")
    return value

