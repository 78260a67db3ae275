"""Schedules that decay the rate by a formula of the epoch (Paddle's formulas)."""
import math

from ..errors import OpArgumentError
from .lr_base import LRScheduler, int_arg


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
        int_arg(step_size, "StepDecay", "step_size")
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


class ExponentialDecay(LRScheduler):
    """lr = learning_rate * gamma ** epoch."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch

    _closed_form_lr = get_lr


class NaturalExpDecay(LRScheduler):
    """lr = learning_rate * exp(-gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-self.gamma * self.last_epoch)

    _closed_form_lr = get_lr


class InverseTimeDecay(LRScheduler):
    """lr = learning_rate / (1 + gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)

    _closed_form_lr = get_lr


class PolynomialDecay(LRScheduler):
    """lr = (learning_rate - end_lr) * (1 - epoch / decay_steps) ** power + end_lr.

    Past decay_steps the rate stays at end_lr, or with cycle=True the schedule restarts with
    decay_steps stretched to the next multiple that covers the epoch.
    """

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        self.decay_steps = int_arg(decay_steps, "PolynomialDecay", "decay_steps")
        self.end_lr = float(end_lr)
        self.power = float(power)
        self.cycle = bool(cycle)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            steps *= max(math.ceil(epoch / steps), 1)
        else:
            epoch = min(epoch, steps)
        return (self.base_lr - self.end_lr) * (1 - epoch / steps) ** self.power + self.end_lr

    _closed_form_lr = get_lr


class PiecewiseDecay(LRScheduler):
    """values[i] while epoch < boundaries[i]; values[-1] from the last boundary on."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(values) != len(boundaries) + 1:
            raise OpArgumentError(f"PiecewiseDecay: expected: one more value than boundaries; "
                                  f"got: {len(boundaries)} boundaries, {len(values)} values")
        self.boundaries = list(boundaries)
        self.values = [float(v) for v in values]
        super().__init__(self.values[0], last_epoch, verbose)

    def get_lr(self):
        for bound, value in zip(self.boundaries, self.values):
            if self.last_epoch < bound:
                return value
        return self.values[-1]

    _closed_form_lr = get_lr


class LambdaDecay(LRScheduler):
    """lr = learning_rate * lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise OpArgumentError("LambdaDecay: lr_lambda must be callable(epoch) -> factor")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)

    _closed_form_lr = get_lr


class MultiplicativeDecay(LRScheduler):
    """lr(epoch) = lr(epoch - 1) * lr_lambda(epoch); lr(0) = learning_rate."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise OpArgumentError("MultiplicativeDecay: lr_lambda must be callable(epoch) -> "
                                  "factor")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch <= 0:
            return self.base_lr
        return self.last_lr * self.lr_lambda(self.last_epoch)


class LinearLR(LRScheduler):
    """lr = learning_rate * (start_factor + (end_factor - start_factor) * min(epoch, total) /
    total_steps): a linear ramp of the factor, then constant."""

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0,
                 last_epoch=-1, verbose=False):
        self.total_steps = int_arg(total_steps, "LinearLR", "total_steps")
        self.start_factor, self.end_factor = float(start_factor), float(end_factor)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        done = min(self.last_epoch, self.total_steps) / self.total_steps
        return self.base_lr * (self.start_factor + (self.end_factor - self.start_factor) * done)

    _closed_form_lr = get_lr
