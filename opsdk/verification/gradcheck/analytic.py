"""Analytic side: vector-Jacobian products through the op's own backward, as the user runs it."""

import numpy as np

from ...autograd.engine import run_backward
from ...device import array_module
from ...errors import CheckAborted, DoubleBackwardError
from .problem import to_numpy
from .report import Failure


class Analytic:
    """VJPs of the problem's outputs w.r.t. its differentiated inputs, as flat float64 rows."""

    def __init__(self, problem, check_grad_dtypes=True):
        self.problem = problem
        self.check_grad_dtypes = check_grad_dtypes
        self.failures = []
        self._seen = set()

    def seed(self, k, values=None):
        """A gradient array for output k in its dtype and device (zeros when values is None)."""
        out = self.problem.outputs[k].array
        xp = array_module(out)
        if values is None:
            return xp.zeros(out.shape, out.dtype)
        return xp.asarray(np.asarray(values).reshape(out.shape).astype(out.dtype))

    def vjp(self, seeds):
        """vᵀJ as one flat row; ``seeds`` holds one array (or None) per output."""
        pairs = [(o, s) for o, s in zip(self.problem.outputs, seeds)
                 if s is not None and o._req]
        row = np.zeros(self.problem.n_cols)
        if not pairs:
            return row
        given = [s.copy() for _, s in pairs]
        try:
            grads = run_backward([o for o, _ in pairs], [s for _, s in pairs], True, False,
                                 inputs=self.problem.diff, allow_unused=True)
        except DoubleBackwardError as e:
            seeded = [p for p, o, s in zip(self.problem.out_pos, self.problem.outputs, seeds)
                      if s is not None and o._req]
            self.failures.append(Failure("double_backward",
                                         seeded[0] if len(seeded) == 1 else None, None, str(e)))
            raise CheckAborted() from e
        self._check_seeds(pairs, given)
        for j, g in enumerate(grads):
            if g is not None:
                if self.check_grad_dtypes:
                    self._check(j, g.array)
                row[self.problem.cols[j]] = to_numpy(g.array).ravel()
        return row

    def _check_seeds(self, pairs, given):
        """A backward that writes into its incoming gradient is reported by that name."""
        for (out, seed), old in zip(pairs, given):
            same = (seed == old) | (seed != seed) & (old != old)
            if bool(same.all()):
                continue
            k = next(i for i, o in enumerate(self.problem.outputs) if o is out)
            if ("grad_write", k) in self._seen:
                continue
            self._seen.add(("grad_write", k))
            self.failures.append(Failure(
                "grad_write", self.problem.out_pos[k], None,
                f"backward wrote into its incoming gradient (the gradient of "
                f"{self.problem.output_labels[k]}) in place: {int((~same).sum())} of {old.size} "
                "elements changed; expected: grad_outputs left as they came (work on a copy)"))
            seed[...] = old

    def vjp_one(self, k, seed):
        """vᵀJ for a gradient on output k alone (the other outputs get none)."""
        seeds = [None] * len(self.problem.outputs)
        seeds[k] = seed
        return self.vjp(seeds)

    def jacobian(self):
        """The full analytic Jacobian, one backward per output element."""
        p = self.problem
        jac = np.zeros((p.n_rows, p.n_cols))
        for k, out in enumerate(p.outputs):
            if not out._req:
                continue
            seed = self.seed(k)
            flat = seed.reshape(-1)
            for e in range(flat.size):
                flat[e] = 1
                jac[p.rows[k].start + e] = self.vjp_one(k, seed)
                flat[e] = 0
        return jac

    def _check(self, j, g):
        x = self.problem.diff[j].array
        for kind, ok, expected, got in (
                ("grad_device", type(g) is type(x), type(x).__name__, type(g).__name__),
                ("grad_dtype", g.dtype == x.dtype, x.dtype, g.dtype),
                ("grad_shape", g.shape == x.shape, list(x.shape), list(g.shape))):
            if not ok and (kind, j) not in self._seen:
                self._seen.add((kind, j))
                what = kind.split("_")[1]
                self.failures.append(Failure(
                    kind, None, self.problem.diff_pos[j],
                    f"the gradient of {self.problem.input_labels[j]} has the wrong {what}; "
                    f"expected: {expected}; got: {got}"))
