"""``m`` for rows ops: the elementwise maths (``opsdk.kernels.elementwise.maths``) and the reductions
a row needs, on NumPy and CuPy arrays (the python kernels, over ``[rows, K]``) and on opsdk Tensors
(the reference and the second order, over ``[..., K]``).

- ``row_sum``, ``row_mean``, ``row_max``, ``row_min``: over the last axis, kept (``[rows, 1]``), so
  they broadcast against the row's elements;
- ``col_sum``: over every axis but the last (``[K]``): a per-feature input's gradient.
"""
from opsdk.kernels.elementwise.maths import maths_of
from opsdk.tensor import Tensor


class RowMaths:
    """The maths of ``like``'s kind, with the row and column reductions."""

    def __init__(self, like):
        self._maths = maths_of(like)
        self._tensor = isinstance(like, Tensor)

    def __getattr__(self, name):
        return getattr(self._maths, name)

    def _reduce(self, how, a, axes, keep):
        if self._tensor:
            from opsdk.functional import reduction

            return getattr(reduction, how)(a, axis=list(axes), keepdim=keep)
        return getattr(a, how)(axis=tuple(axes), keepdims=keep)

    def row_sum(self, a):
        """Sum over the row (the last axis), kept."""
        return self._reduce("sum", a, (a.ndim - 1,), True)

    def row_mean(self, a):
        """Mean over the row, kept."""
        return self._reduce("mean", a, (a.ndim - 1,), True)

    def row_max(self, a):
        """Max over the row, kept."""
        return self._reduce("max", a, (a.ndim - 1,), True)

    def row_min(self, a):
        """Min over the row, kept."""
        return self._reduce("min", a, (a.ndim - 1,), True)

    def col_sum(self, a):
        """Sum over the rows (every axis but the last): one value per feature."""
        return self._reduce("sum", a, range(a.ndim - 1), False) if a.ndim > 1 else a
