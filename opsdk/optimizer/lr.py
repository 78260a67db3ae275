"""Learning-rate schedulers (``opsdk.optimizer.lr``): call ``scheduler.step()`` once per epoch/step.

An optimizer given a scheduler as ``learning_rate`` reads ``scheduler()`` at every step.
"""
import abc
import math

from ..errors import OpArgumentError


class LRScheduler(abc.ABC):
    """Base class: ``get_lr()`` computes the rate for ``self.last_epoch``; ``step()`` advances.

    Args:
        learning_rate: the base rate.
        last_epoch: the epoch to resume after (-1 starts fresh: the first rate is the base).
        verbose: print the rate at every step.
    """

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        if not isinstance(learning_rate, (int, float)):
            raise OpArgumentError(f"{type(self).__name__}: learning_rate must be a number; got: "
                                  f"{type(learning_rate).__name__}")
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

    def state_dict(self):
        """What set_state_dict needs to resume: epoch, rate and the settings."""
        return {k: v for k, v in vars(self).items() if isinstance(v, (int, float, bool))}

    def set_state_dict(self, state_dict):
        for k, v in state_dict.items():
            setattr(self, k, v)

    set_dict = set_state_dict

    def __repr__(self):
        return f"{type(self).__name__}(last_epoch={self.last_epoch}, last_lr={self.last_lr})"


class StepDecay(LRScheduler):
    """lr = learning_rate * gamma ** (epoch // step_size).

    Example:
        >>> sched = opsdk.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.1)
        >>> rates = []
        >>> for epoch in range(4):
        ...     rates.append(sched())
        ...     sched.step()
        >>> rates        # [0.5, 0.5, 0.05, 0.05], up to rounding
    """

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(step_size, int) or step_size <= 0:
            raise OpArgumentError(f"StepDecay: step_size must be a positive int; got: "
                                  f"{step_size!r}")
        if gamma >= 1.0:
            raise OpArgumentError(f"StepDecay: gamma must be < 1.0 to decay; got: {gamma}")
        self.step_size = step_size
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)

    _closed_form_lr = get_lr


class MultiStepDecay(LRScheduler):
    """lr = learning_rate * gamma ** (number of milestones <= epoch)."""

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if list(milestones) != sorted(milestones):
            raise OpArgumentError(f"MultiStepDecay: milestones must increase; got: {milestones}")
        self.milestones = list(milestones)
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        passed = sum(1 for m in self.milestones if self.last_epoch >= m)
        return self.base_lr * self.gamma ** passed

    _closed_form_lr = get_lr


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from learning_rate down to eta_min over T_max epochs (SGDR, no restarts).

    Stepped one epoch at a time the rate follows Paddle's recursive form; ``step(epoch)`` uses
    the closed form eta_min + (lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2.

    Example:
        >>> sched = opsdk.optimizer.lr.CosineAnnealingDecay(0.1, T_max=10)
        >>> opt = opsdk.optimizer.SGD(learning_rate=sched, parameters=model.parameters())
    """

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_max, int) or T_max <= 0:
            raise OpArgumentError(f"CosineAnnealingDecay: T_max must be a positive int; got: "
                                  f"{T_max!r}")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (
                1 - math.cos(math.pi / self.T_max)) / 2
        return (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / (
            1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)) * (
            self.last_lr - self.eta_min) + self.eta_min

    def _closed_form_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * (
            1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class ExponentialDecay(LRScheduler):
    """lr = learning_rate * gamma ** epoch."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch

    _closed_form_lr = get_lr


__all__ = ["LRScheduler", "StepDecay", "MultiStepDecay", "CosineAnnealingDecay",
           "ExponentialDecay"]
