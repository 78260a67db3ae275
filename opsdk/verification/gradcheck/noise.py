"""The rounding noise of an analytic Jacobian computed below float64, measured rather than modelled.

A float32 backward can be far from the true derivative in relative terms and still be right:
``1 - y * y`` of a saturated ``y = tanh(x)``, ``y * (1 - y)`` of a softmax probability near 1,
``x - mean`` of a nearly constant row each cancel, and the result keeps only what float32
held of ``y`` or ``x``. No formula in |J| bounds that; the noise itself can be seen. The inputs
are moved, with random signs, just far enough that every output moves by about one unit in the
last place of its dtype (at least one ulp of each input), so every rounding inside forward and
backward falls differently; the float32 Jacobian then changes by its rounding noise plus the
true change of the Jacobian, and the true change is taken out with the same op run in float64
at the same points. What is left, |ΔJ_dtype - ΔJ_float64|, is the noise: a chaotic error of the
size seen at the base point. A wrong constant, a wrong formula or a float16 intermediate is
smooth at that scale and stays unexcused.
"""
import numpy as np

from ...autograd import grad_mode
from ...tensor import Tensor, _wrap
from .analytic import Analytic
from .problem import Problem, to_numpy

JITTERS = 4
# the moves of an input element, in its ulps: at least one, at most this many
MAX_ULPS = 4096
MAX_ROWS = 256


def _ulp(values, dtype):
    values = np.abs(np.asarray(values, dtype=np.float64)).astype(dtype)
    return (np.nextafter(values, np.array(np.inf, dtype=dtype)) - values).astype(np.float64)


class RoundingNoise:
    """Per-element rounding noise of the analytic Jacobian of ``problem`` (below float64 only)."""

    def __init__(self, problem, jac_numeric, base, rng):
        self.problem = problem
        self.jac = np.nan_to_num(np.abs(jac_numeric), nan=0.0, posinf=0.0, neginf=0.0)
        self.base = base
        self.rng = rng
        self._points = None

    def applies(self, k, j):
        """Whether block (k, j)'s analytic side computed below float64."""
        dtypes = self.problem.block_dtypes(k, j)
        return any(np.finfo(d).bits < 64 for d in dtypes)

    def _moves(self):
        """One move per differentiated input element, in units of the input's own values."""
        p = self.problem
        out_ulp = np.concatenate([_ulp(self.base[rows], o.array.dtype)
                                  for rows, o in zip(p.rows, p.outputs)])
        moves = []
        for j, (cols, t) in enumerate(zip(p.cols, p.diff)):
            x = to_numpy(t.array).ravel()
            in_ulp = _ulp(x, t.array.dtype)
            block = self.jac[:, cols]
            with np.errstate(divide="ignore", invalid="ignore"):
                need = np.where(block > 0, out_ulp[:, None] / block, 0.0).max(axis=0)
                ulps = np.clip(np.nan_to_num(need / in_ulp, nan=1.0, posinf=MAX_ULPS), 1, MAX_ULPS)
            moves.append(np.ceil(ulps) * in_ulp)
        return moves

    def _jittered_args(self, moves):
        p = self.problem
        args = list(p.args)
        for j, (pos, t) in enumerate(zip(p.diff_pos, p.diff)):
            x = to_numpy(t.array)
            signs = self.rng.choice((-1.0, 1.0), size=x.size)
            scale = self.rng.uniform(0.5, 1.5, size=x.size)
            moved = (x.astype(np.float64).ravel() + signs * scale * moves[j]).astype(x.dtype)
            args[pos] = moved.reshape(x.shape)
        return [to_numpy(a.array) if isinstance(a, Tensor) and i not in p.diff_pos else a
                for i, a in enumerate(args)]

    def _problem(self, host_args, dtype=None):
        """A Problem at host arrays ``host_args`` (float tensors rebuilt, cast to ``dtype``)."""
        p = self.problem
        xp = type(p.diff[0].array)
        args = []
        for i, (orig, a) in enumerate(zip(p.args, host_args)):
            if not isinstance(orig, Tensor) or orig.array.dtype.kind != "f":
                args.append(orig)
                continue
            arr = np.asarray(a).astype(dtype or orig.array.dtype)
            if xp is not np.ndarray:
                arr = __import__("cupy").asarray(arr)
            t = _wrap(arr)
            t._req = i in p.diff_pos
            args.append(t)
        with grad_mode.enable_grad():
            return Problem(p.func, tuple(args))

    def _points_once(self):
        """The base point and JITTERS moved ones, as host arrays per argument."""
        if self._points is None:
            p = self.problem
            base = [to_numpy(a.array) if isinstance(a, Tensor) else a for a in p.args]
            moves = self._moves()
            self._points = [base] + [self._jittered_args(moves) for _ in range(JITTERS)]
        return self._points

    def _rows_at(self, host_args, dtype, k, rows):
        problem = self._problem(host_args, dtype)
        analytic = Analytic(problem, check_grad_dtypes=False)
        out = problem.outputs[k]
        result = np.zeros((len(rows), self.problem.n_cols))
        if not out._req:
            return result
        seed = analytic.seed(k)
        flat = seed.reshape(-1)
        for i, r in enumerate(rows):
            flat[r] = 1
            result[i] = analytic.vjp_one(k, seed)
            flat[r] = 0
        return result

    def rows(self, k, rows):
        """|noise| of rows ``rows`` (indices within output k) of the analytic Jacobian, or None
        when the op cannot be run in float64 (the true change could not be taken out)."""
        rows = list(rows)[:MAX_ROWS]
        points = self._points_once()
        try:
            low = [self._rows_at(a, None, k, rows) for a in points]
            high = [self._rows_at(a, np.float64, k, rows) for a in points]
        except Exception:  # an op refusing float64, or refusing a moved point
            return None
        noise = np.zeros_like(low[0])
        for m in range(1, len(points)):
            change = (low[m] - low[0]) - (high[m] - high[0])
            noise = np.maximum(noise, np.nan_to_num(np.abs(change), nan=0.0, posinf=0.0))
        return rows, noise
