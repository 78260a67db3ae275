"""Numeric evaluation: func re-run on float64 copies of its inputs, perturbed in place.

Central differences in float32 lose most digits (a step of 1e-6 is below float32 resolution for
inputs above ~8), so func is re-run on float64 copies. Kernels that only take float32 make that
re-run fail with a dtype error: then the original dtypes are used, with a larger step.
"""

import numpy as np

from ...autograd import grad_mode
from ...device import array_module
from ...errors import BackwardError
from ...tensor import Tensor, _wrap
from .problem import to_numpy


class InPlaceWrite(Exception):
    """func wrote into differentiated input ``j`` (``changed`` of ``size`` elements)."""

    def __init__(self, j, changed, size):
        super().__init__(f"input {j}: {changed} of {size} elements changed")
        self.j, self.changed, self.size = j, changed, size


def _equal(a, b):
    return (a == b) | (a != a) & (b != b)


def _same(a, b):
    return bool(_equal(a, b).all())


def _lowest_precision(dtypes):
    return min(dtypes, key=lambda d: np.finfo(d).bits)


class Evaluator:
    """Flat float64 output vectors of func at (perturbed) inputs; never touches user tensors."""

    def __init__(self, problem, eps):
        self.problem = problem
        self.note = None
        self.with_graph = False
        floats = [a for a in problem.args if isinstance(a, Tensor) and a.array.dtype.kind == "f"]
        if all(a.array.dtype == np.float64 for a in floats):
            # nothing to upcast: the outputs problem recorded are the float64 base point
            self._setup(np.float64)
            self.base = self._flatten(problem.outputs)
        else:
            try:
                self._setup(np.float64)
                self.base = self.evaluate()
            except TypeError as e:
                self._setup(None)
                self.base = self.evaluate()
                self.note = (f"func failed on float64 copies of its inputs ({type(e).__name__}: "
                             f"{e}); numeric derivatives use the inputs' own dtypes")
        self._set_precision(eps)

    def _set_precision(self, eps):
        dtypes = list(self._out_dtypes)
        if self.note:
            dtypes += [a.dtype for a in self.work]
        self.precision = _lowest_precision(dtypes)
        self.eps = eps
        if self.precision != np.float64:
            # the step that balances truncation (h^2) and rounding (unit roundoff / h) errors
            self.eps = max(eps, float(np.finfo(self.precision).eps) ** (1 / 3))
            if self.note is None:
                self.note = (f"func returned {self.precision} on float64 inputs; numeric "
                             f"derivatives are only {self.precision}-accurate")
        if self.note:
            self.note += f" (step eps={self.eps:.3g}, tolerances widened)"

    def _setup(self, dtype):
        args = list(self.problem.args)
        diff = set(self.problem.diff_pos)
        self.work, self.orig, self.flat = [], [], []
        for i, a in enumerate(args):
            if not isinstance(a, Tensor) or a.array.dtype.kind != "f":
                continue
            arr = a.array.astype(dtype or a.array.dtype, copy=True)
            t = _wrap(arr)
            if i in diff:
                t._req = self.with_graph
                self.work.append(arr)
                self.orig.append(arr.copy())
                self.flat.append(arr.reshape(-1))
            args[i] = t
        self.args = args

    def _call(self):
        state = grad_mode._state
        enabled, state.enabled = state.enabled, self.with_graph
        try:
            return self.problem.func(*self.args)
        finally:
            state.enabled = enabled

    def evaluate(self):
        """func at the current working inputs, all checked outputs flattened into one vector.

        Raises InPlaceWrite when func wrote into one of its inputs (numeric derivatives of
        such a function say nothing about its gradient).
        """
        given = [w.copy() for w in self.work]
        try:
            result = self._call()
        except BackwardError:
            if self.with_graph:
                raise
            # func differentiates internally (opsdk.grad): it needs a graph even here
            self.with_graph = True
            for pos in self.problem.diff_pos:
                self.args[pos]._req = True
            result = self._call()
        for j, (w, g) in enumerate(zip(self.work, given)):
            if not _same(w, g):
                changed = int((~_equal(w, g)).sum())
                w[...] = g
                raise InPlaceWrite(j, changed, w.size)
        return self._flatten(self.problem.pick_outputs(result))

    def _flatten(self, outs):
        self._out_dtypes = [o.array.dtype for o in outs]
        if len(outs) == 1:
            # astype copies: the vector must not alias an input perturbed afterwards
            return to_numpy(outs[0].array).astype(np.float64).ravel()
        return np.concatenate([to_numpy(o.array).astype(np.float64).ravel() for o in outs])

    def shifted(self, deltas):
        """func with ``deltas`` ({input j: array of its shape}) added to the inputs."""
        for j, d in deltas.items():
            orig = self.orig[j]
            if type(orig) is not np.ndarray:
                d = array_module(orig).asarray(d)
            np.add(orig, d.astype(orig.dtype, copy=False), out=self.work[j])
        try:
            return self.evaluate()
        finally:
            for j in deltas:
                self.work[j][...] = self.orig[j]

    def _shift_one(self, j, i, step):
        flat, orig = self.flat[j], self.orig[j].reshape(-1)
        flat[i] = orig[i] + step
        try:
            return self.evaluate()
        finally:
            flat[i] = orig[i]

    def host_inputs(self):
        """The differentiated inputs at the base point, as host arrays (in column order)."""
        return [to_numpy(o) for o in self.orig]

    def steps(self, c, multiples=(1, -1, 2, -2, 3, -3)):
        """{m: func with input element c moved by m * eps} for each multiple m (flat vectors)."""
        j = next(j for j, s in enumerate(self.problem.cols) if s.start <= c < s.stop)
        i = c - self.problem.cols[j].start
        return {m: self._shift_one(j, i, m * self.eps) for m in multiples}

    def column(self, c):
        """(central difference, right minus left slope) for one flat input element."""
        j = next(j for j, s in enumerate(self.problem.cols) if s.start <= c < s.stop)
        i = c - self.problem.cols[j].start
        h = self.eps
        plus = self._shift_one(j, i, h)
        minus = self._shift_one(j, i, -h)
        return (plus - minus) / (2 * h), (plus - 2 * self.base + minus) / h

    def directional(self, directions, central=True):
        """J·u for u given per input as {j: array of its shape}: central differences, or
        forward ones from the base point (one call instead of two, O(eps) accurate)."""
        h = self.eps
        plus = self.shifted({j: h * u for j, u in directions.items()})
        if not central:
            return (plus - self.base) / h
        minus = self.shifted({j: -h * u for j, u in directions.items()})
        return (plus - minus) / (2 * h)
