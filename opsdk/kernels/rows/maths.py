"""``m`` for rows ops: the elementwise maths (``opsdk.kernels.elementwise.maths``) and the reductions
a row needs, on NumPy and CuPy arrays (the python kernels, over ``[rows, K]``) and on opsdk Tensors
(the reference and the second order, over ``[..., K]``).

- ``row_sum``, ``row_mean``, ``row_max``, ``row_min``: over the last axis, kept (``[rows, 1]``), so
  they broadcast against the row's elements;
- ``col_sum``: over every axis but the last (``[K]``): a per-feature input's gradient;
- ``row_take(a, index)``: each row's element at ``index`` (a per-row integer, ``[rows, 1]``:
  ``a[index]`` in the statements), kept; ``row_index(a)``: each element's index in its row
  (``j`` in the statements), ``[K]``, so ``m.row_index(x) == label`` is a one-hot mask.
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

    def row_take(self, a, index):
        """Each row's element at ``index`` ([..., 1] integers within the row), kept (on Tensors a
        one-hot sum: differentiable, on the Tensor's device)."""
        if self._tensor:
            return self.row_sum(self.where(self.row_index(a) == index, a, 0.0))
        return self._maths.xp.take_along_axis(a, index, axis=-1)

    def row_index(self, a):
        """The index of each element in its row: ``[0, K)`` as int64, ``[K]`` (on ``a``'s device)."""
        if self._tensor:
            from opsdk.kernels.tensors import array_module, array_of, tensor_of

            return tensor_of(array_module(array_of(a)).arange(a.shape[-1], dtype="int64"))
        return self._maths.xp.arange(a.shape[-1])

    def col_sum(self, a):
        """Sum over the rows (every axis but the last): one value per feature."""
        return self._reduce("sum", a, range(a.ndim - 1), False) if a.ndim > 1 else a
