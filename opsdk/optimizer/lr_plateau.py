"""ReduceOnPlateau: cut the rate when a watched metric stops improving."""
import math

from ..errors import OpArgumentError
from ..tensor import Tensor
from .lr_base import LRScheduler, int_arg


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by factor after more than patience epochs without improvement.

    Call ``step(metric)`` once per epoch with the metric (a float or a 1-element Tensor).

    Args:
        learning_rate: the starting rate.
        mode: 'min' (lower is better) or 'max'.
        factor: the multiplier, < 1.
        patience: epochs without improvement tolerated before a cut.
        threshold, threshold_mode: what counts as an improvement: 'rel' (beyond
            best * (1 -/+ threshold)) or 'abs' (beyond best -/+ threshold).
        cooldown: epochs after a cut during which the metric is not watched.
        min_lr: the floor; epsilon: cuts smaller than this are skipped.
    """

    _state_keys = ("cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr")

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        if mode not in ("min", "max"):
            raise OpArgumentError(f"ReduceOnPlateau: mode must be 'min' or 'max'; got: {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise OpArgumentError(f"ReduceOnPlateau: threshold_mode must be 'rel' or 'abs'; "
                                  f"got: {threshold_mode!r}")
        if not factor < 1.0:
            raise OpArgumentError(f"ReduceOnPlateau: factor must be < 1.0; got: {factor}")
        self.mode, self.factor = mode, float(factor)
        self.patience = int_arg(patience, "ReduceOnPlateau", "patience", minimum=0)
        self.threshold, self.threshold_mode = float(threshold), threshold_mode
        self.cooldown = int_arg(cooldown, "ReduceOnPlateau", "cooldown", minimum=0)
        self.min_lr, self.epsilon = float(min_lr), float(epsilon)
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.base_lr = self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose

    def get_lr(self):
        return self.last_lr

    def _is_better(self, current, best):
        sign = 1.0 if self.mode == "min" else -1.0
        if self.threshold_mode == "rel":
            return sign * current < sign * best - abs(best) * self.threshold
        return sign * current < sign * best - self.threshold

    def step(self, metrics, epoch=None):
        """Watch one epoch's metric; cut the rate if it stopped improving."""
        if isinstance(metrics, Tensor):
            if metrics.size != 1:
                raise OpArgumentError(f"ReduceOnPlateau.step: metrics must hold one value; "
                                      f"got: shape {list(metrics.shape)}")
            metrics = metrics.item()
        current = float(metrics)
        if math.isnan(current):
            raise OpArgumentError("ReduceOnPlateau.step: the metric is nan")
        self.last_epoch = self.last_epoch + 1 if epoch is None else int(epoch)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print(f"Epoch {self.last_epoch}: ReduceOnPlateau set learning rate to "
                          f"{self.last_lr}.")
