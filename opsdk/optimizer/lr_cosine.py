"""Cyclic schedules: cosine annealing (with warm restarts), one-cycle and cyclic rates."""
import math

from ..errors import OpArgumentError
from .lr_base import LRScheduler, int_arg


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from learning_rate down to eta_min over T_max epochs (SGDR, no restarts).

    Stepped one epoch at a time the rate follows Paddle's recursive form; ``step(epoch)`` uses
    the closed form eta_min + (lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2.

    Example:
        >>> sched = opsdk.optimizer.lr.CosineAnnealingDecay(0.1, T_max=10)
        >>> opt = opsdk.optimizer.SGD(learning_rate=sched, parameters=model.parameters())
    """

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        int_arg(T_max, "CosineAnnealingDecay", "T_max")
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


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every period (SGDR); period i lasts T_0 * T_mult ** i epochs.

    lr = eta_min + (learning_rate - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2.
    """

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0.0, last_epoch=-1, verbose=False):
        self.T_0 = int_arg(T_0, "CosineAnnealingWarmRestarts", "T_0")
        self.T_mult = int_arg(T_mult, "CosineAnnealingWarmRestarts", "T_mult")
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def _position(self):
        """(epochs into the current period, the period's length)."""
        start, length = 0, self.T_0
        while self.last_epoch >= start + length:
            start += length
            length *= self.T_mult
        return self.last_epoch - start, length

    def get_lr(self):
        t_cur, t_i = self._position()
        return self.eta_min + (self.base_lr - self.eta_min) * (
            1 + math.cos(math.pi * t_cur / t_i)) / 2

    _closed_form_lr = get_lr


def _anneal(start, end, pct, strategy):
    if strategy == "cos":
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
    return (end - start) * pct + start


class OneCycleLR(LRScheduler):
    """One cycle (Smith, 2018): up from max / divide_factor to max, then down to
    end_learning_rate (three_phase: up, back down to the start, then down to the end).

    Args:
        max_learning_rate: the peak rate.
        total_steps: the length of the cycle in steps.
        divide_factor: the initial rate is max_learning_rate / divide_factor (25).
        end_learning_rate: the final rate (0.0001).
        phase_pct: the fraction of the steps spent rising (0.3).
        anneal_strategy: 'cos' or 'linear'.
        three_phase: add a phase that returns to the initial rate before the last descent.
    """

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0,
                 end_learning_rate=0.0001, phase_pct=0.3, anneal_strategy="cos",
                 three_phase=False, last_epoch=-1, verbose=False):
        self.total_steps = int_arg(total_steps, "OneCycleLR", "total_steps")
        if not 0 <= phase_pct <= 1:
            raise OpArgumentError(f"OneCycleLR: phase_pct must lie in [0, 1]; got: {phase_pct}")
        if anneal_strategy not in ("cos", "linear"):
            raise OpArgumentError(f"OneCycleLR: anneal_strategy must be 'cos' or 'linear'; "
                                  f"got: {anneal_strategy!r}")
        self.anneal_strategy = anneal_strategy
        peak = float(max_learning_rate)
        initial = peak / float(divide_factor)
        end = float(end_learning_rate)
        n = self.total_steps
        if three_phase:
            self._phases = [(phase_pct * n - 1, initial, peak),
                            (2 * phase_pct * n - 2, peak, initial), (n - 1, initial, end)]
        else:
            self._phases = [(phase_pct * n - 1, initial, peak), (n - 1, peak, end)]
        super().__init__(initial, last_epoch, verbose)

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise OpArgumentError(f"OneCycleLR: stepped {step} times; expected: at most "
                                  f"total_steps={self.total_steps}")
        start_step = 0.0
        for i, (end_step, lo, hi) in enumerate(self._phases):
            if step <= end_step or i == len(self._phases) - 1:
                pct = (step - start_step) / (end_step - start_step)
                return _anneal(lo, hi, pct, self.anneal_strategy)
            start_step = end_step
        return self.last_lr

    _closed_form_lr = get_lr


class CyclicLR(LRScheduler):
    """Cyclical learning rates (Smith, 2017) between base and max.

    Args:
        base_learning_rate, max_learning_rate: the cycle's low and high rates.
        step_size_up: steps from low to high; step_size_down: back (default: the same).
        mode: 'triangular', 'triangular2' (amplitude halves each cycle) or 'exp_range'
            (amplitude times exp_gamma ** step).
        scale_fn: a custom amplitude function (overrides mode); scale_mode: 'cycle' or
            'iterations', what scale_fn is given.
    """

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode="triangular", exp_gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1, verbose=False):
        up = int_arg(step_size_up, "CyclicLR", "step_size_up")
        down = up if step_size_down is None else int_arg(step_size_down, "CyclicLR",
                                                         "step_size_down")
        if scale_fn is None and mode not in ("triangular", "triangular2", "exp_range"):
            raise OpArgumentError(f"CyclicLR: mode must be 'triangular', 'triangular2' or "
                                  f"'exp_range'; got: {mode!r}")
        self.max_lr = float(max_learning_rate)
        self.cycle_size = up + down
        self.step_up_ratio = up / self.cycle_size
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = (lambda x: 1.0), "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = (lambda x: 1 / (2.0 ** (x - 1))), "cycle"
        else:
            self.scale_fn, self.scale_mode = (lambda x: exp_gamma ** x), "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch = self.last_epoch
        cycle = math.floor(1 + epoch / self.cycle_size)
        pct = 1.0 + epoch / self.cycle_size - cycle
        if pct <= self.step_up_ratio:
            factor = pct / self.step_up_ratio
        else:
            factor = (1 - pct) / (1 - self.step_up_ratio)
        height = (self.max_lr - self.base_lr) * factor
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else epoch)
        return self.base_lr + height * scale

    _closed_form_lr = get_lr
