"""Warm-up schedules: LinearWarmup (in front of any schedule) and NoamDecay."""
from .lr_base import LRScheduler, int_arg


class LinearWarmup(LRScheduler):
    """Rise linearly from start_lr to end_lr over warmup_steps, then follow learning_rate.

    learning_rate is a float (kept after the warm-up) or a scheduler, which then starts at its
    own epoch 0.

    Example:
        >>> base = opsdk.optimizer.lr.CosineAnnealingDecay(0.1, T_max=100)
        >>> sched = opsdk.optimizer.lr.LinearWarmup(base, warmup_steps=10, start_lr=0.0,
        ...                                         end_lr=0.1)
    """

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        self.learning_rate = learning_rate
        self.warmup_steps = int_arg(warmup_steps, "LinearWarmup", "warmup_steps", minimum=0)
        self.start_lr, self.end_lr = float(start_lr), float(end_lr)
        super().__init__(self.start_lr, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return self.start_lr + (self.end_lr - self.start_lr) * (
                self.last_epoch / self.warmup_steps)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return float(self.learning_rate)

    _closed_form_lr = get_lr

    def state_dict(self):
        out = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            out["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict):
        super().set_state_dict(state_dict)
        inner = state_dict.get("LinearWarmup_LR")
        if inner is not None and isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(inner)


class NoamDecay(LRScheduler):
    """The Transformer schedule: learning_rate * d_model^-0.5 *
    min(epoch^-0.5, epoch * warmup_steps^-1.5) (epoch 0 takes the second term: 0)."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        self.d_model = float(d_model)
        self.warmup_steps = int_arg(warmup_steps, "NoamDecay", "warmup_steps")
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        e = self.last_epoch
        a = 1.0 if e == 0 else e ** -0.5
        b = self.warmup_steps ** -1.5 * e
        return self.base_lr * self.d_model ** -0.5 * min(a, b)

    _closed_form_lr = get_lr
