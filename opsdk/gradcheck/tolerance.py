"""Tolerances that follow the dtypes involved, so a correct float16/float32 op passes.

An element passes when |analytic - numeric| <= atol_eff + rtol_eff * |numeric|, where
    atol_eff = max(atol, 32 * eps_a * scale),  rtol_eff = max(rtol, 32 * eps_a)
eps_a is the machine epsilon of the lowest-precision dtype the analytic gradient went through
(the output's or the input's) and scale = max(1, largest |numeric| of the block). When the numeric
side itself could not run in float64, eps_n^(2/3) (its error with the optimal step) widens both the
same way with a factor 16. In float64 the user's atol/rtol are what count.
"""
import numpy as np

ANALYTIC_FACTOR = 32
NUMERIC_FACTOR = 16


def _eps(dtype):
    return float(np.finfo(dtype).eps)


def block_tolerance(atol, rtol, dtypes, numeric_precision, scale):
    """(atol_eff, rtol_eff) for one block, given the analytic dtypes and the block's scale."""
    eps_a = max(_eps(d) for d in dtypes)
    scale = max(1.0, float(scale))
    a = max(atol, ANALYTIC_FACTOR * eps_a * scale)
    r = max(rtol, ANALYTIC_FACTOR * eps_a)
    if numeric_precision != np.float64:
        e = _eps(numeric_precision) ** (2 / 3)
        a = max(a, NUMERIC_FACTOR * e * scale)
        r = max(r, NUMERIC_FACTOR * e)
    return a, r


class Tolerances:
    """Per (output k, input j) block tolerances of one problem."""

    def __init__(self, problem, atol, rtol, numeric_precision):
        self.problem = problem
        self.atol = atol
        self.rtol = rtol
        self.precision = numeric_precision

    def block(self, k, j, scale):
        return block_tolerance(self.atol, self.rtol, self.problem.block_dtypes(k, j),
                               self.precision, scale)
