"""Tolerances that follow the dtypes involved, so a correct float16/float32 op passes.

Given tolerances (the public gradcheck): an element passes when
|analytic - numeric| <= atol_eff + rtol_eff * |numeric|, where
    atol_eff = max(atol, 32 * eps_a * scale),  rtol_eff = max(rtol, 32 * eps_a)
eps_a is the machine epsilon of the lowest-precision dtype the analytic gradient went through
(the output's or the input's) and scale = max(1, largest |numeric| of the block). When the numeric
side itself could not run in float64, eps_n^(2/3) (its error with the optimal step) widens both the
same way with a factor 16. In float64 the user's atol/rtol are what count.

Derived tolerances (``derived=True``, what ``opsdk check`` uses): no fixed floor, but an
estimate of both sides' errors, block by block (output k, input j):
    numeric:  ROUNDING * eps_n * max_r (|f_r| + sum_c |J_rc| |x_c|) / h
              (rounding of a central difference: f's own rounding is as large as the terms it
              sums, sum_c |J_rc x_c|, not as small as a result they cancel to)
    analytic: ANALYTIC * eps_a * sqrt(len / 16) * (max |J_kj| + |J|)  (rounding of the backward;
              four times that for a second derivative)
where len is the block's longer side (a bound on the sums inside backward; sums of up to 16
terms add no more rounding than the elementwise work around them). An element beyond
that is re-measured with a second step (2h): the difference of the two central differences
estimates the numeric error itself (truncation and noise), and Richardson's extrapolation
(4 D(h) - D(2h)) / 3 is compared instead. Given atol/rtol then only loosen (and the report says
when they were needed).
"""
import numpy as np

ANALYTIC_FACTOR = 32
NUMERIC_FACTOR = 16
# derived mode: ulps a forward evaluation may lose (cancellation inside the op), per element
ROUNDING = 64
DERIVED_ANALYTIC = 32
# a second derivative is a backward of a backward: twice the operations, each rounding
SECOND_ORDER = 4


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


def derived_tolerance(dtypes, numeric_precision, scale, rounding, length, order=1):
    """(atol, rtol) from the error estimates of both sides (module docstring).

    Args:
        dtypes: the dtypes the analytic gradient went through.
        numeric_precision: the dtype the numeric side computed in.
        scale: the largest |Jacobian element| of the block.
        rounding: the numeric rounding estimate of the block's rows (already divided by h).
        length: the block's longer side.
        order: 2 for a second derivative (whose analytic side rounds about twice as often).
    """
    eps_a = max(_eps(d) for d in dtypes)
    analytic = DERIVED_ANALYTIC * eps_a * float(np.sqrt(max(1.0, length / 16)))
    if order > 1:
        analytic *= SECOND_ORDER
    return analytic * float(scale) + rounding, analytic


class Tolerances:
    """Per (output k, input j) block tolerances of one problem."""

    def __init__(self, problem, atol, rtol, numeric_precision, derived=False, evaluator=None,
                 order=1):
        self.problem = problem
        self.order = order
        self.atol = atol
        self.rtol = rtol
        self.precision = numeric_precision
        self.derived = derived
        self.loosened = False
        self.ratio = 0.0  # largest |analytic - numeric| / allowed seen (compare and fast mode)
        self._rounding = self._row_rounding(evaluator) if derived else None

    def _row_rounding(self, evaluator, jac=None):
        """The numeric rounding estimate per output: ROUNDING eps max_r (|f_r| + terms_r) / h,
        terms = |J| |x| when a Jacobian is known, else the rms of f."""
        self._evaluator = evaluator
        eps_n = _eps(self.precision)
        magnitudes = np.abs(np.nan_to_num(evaluator.base, nan=0.0, posinf=0.0, neginf=0.0))
        if jac is not None:
            x = np.concatenate([np.abs(np.asarray(o, dtype=np.float64)).ravel()
                                for o in evaluator.host_inputs()])
            magnitudes = magnitudes + np.abs(np.nan_to_num(jac, nan=0.0, posinf=0.0,
                                                           neginf=0.0)) @ x
        out = []
        for rows in self.problem.rows:
            m = magnitudes[rows]
            if jac is None and m.size:
                m = m + float(np.sqrt(np.mean(m * m)))
            out.append(ROUNDING * eps_n * (float(m.max()) if m.size else 0.0) / evaluator.eps)
        return out

    def use_jacobian(self, jac):
        """Re-estimate the numeric rounding with the terms |J| |x| (once a Jacobian is known)."""
        if self.derived:
            self._rounding = self._row_rounding(self._evaluator, jac)

    def block(self, k, j, scale, rows=1):
        """(atol, rtol) of block (k, j); ``rows`` > 1 for a projection over that many rows."""
        dtypes = self.problem.block_dtypes(k, j)
        if not self.derived:
            return block_tolerance(self.atol, self.rtol, dtypes, self.precision, scale)
        p = self.problem
        length = max(p.rows[k].stop - p.rows[k].start, p.cols[j].stop - p.cols[j].start)
        rounding = self._rounding[k] * float(np.sqrt(max(1, rows)))
        return derived_tolerance(dtypes, self.precision, scale, rounding, length, self.order)

    def joint(self, k, scales, rows=1):
        """(atol, rtol) of output k's projection over every input at once (``scales[j]``: the
        scale of block (k, j)): one numeric rounding, each block's analytic rounding."""
        if not self.derived:
            tols = [self.block(k, j, s) for j, s in enumerate(scales)]
            return sum(a for a, _ in tols), max(r for _, r in tols)
        p = self.problem
        parts = []
        for j, scale in enumerate(scales):
            length = max(p.rows[k].stop - p.rows[k].start, p.cols[j].stop - p.cols[j].start)
            parts.append(derived_tolerance(p.block_dtypes(k, j), self.precision, scale, 0.0,
                                           length, self.order))
        rounding = self._rounding[k] * float(np.sqrt(max(1, rows)))
        return rounding + sum(a for a, _ in parts), max(r for _, r in parts)

    def seen(self, err, allowed):
        """Record the largest err / allowed of compared elements."""
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(err == 0, 0.0, err / allowed)
        if r.size:
            top = float(np.nanmax(np.where(np.isnan(r), np.inf, r)))
            self.ratio = max(self.ratio, top)

    def declared(self):
        """The given (atol, rtol) that may loosen derived tolerances, or None."""
        if not self.derived or (not self.atol and not self.rtol):
            return None
        return self.atol or 0.0, self.rtol or 0.0
