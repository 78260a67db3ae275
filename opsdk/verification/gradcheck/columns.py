"""The numeric side of one input element at several steps: for re-measuring and for kinks."""
from dataclasses import dataclass

import numpy as np


@dataclass
class ColumnSteps:
    """Numeric derivatives of every output element w.r.t. one input element.

    ``central``/``central_2h``: central differences with steps h and 2h; ``left``/``right``:
    one-sided slopes over [x-2h, x-h] and [x+h, x+2h] (clear of a kink within a step of x);
    ``left_far``/``right_far``: the same one step further out, to tell a stable slope from noise.
    """

    central: np.ndarray
    central_2h: np.ndarray
    left: np.ndarray
    right: np.ndarray
    left_far: np.ndarray
    right_far: np.ndarray


class Columns:
    """ColumnSteps per input element, computed when a mismatch needs them (six calls of func)."""

    def __init__(self, evaluator):
        self.evaluator = evaluator
        self.cache = {}

    def get(self, c):
        if c not in self.cache:
            f = self.evaluator.steps(c)
            h = self.evaluator.eps
            with np.errstate(all="ignore"):
                self.cache[c] = ColumnSteps(
                    central=(f[1] - f[-1]) / (2 * h), central_2h=(f[2] - f[-2]) / (4 * h),
                    left=(f[-1] - f[-2]) / h, right=(f[2] - f[1]) / h,
                    left_far=(f[-2] - f[-3]) / h, right_far=(f[3] - f[2]) / h)
        return self.cache[c]
