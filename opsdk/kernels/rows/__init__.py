"""Rows ops (norms, softmax: a reduction over the last axis) from their maths: ``Rows`` and ``RowMaths``.

See ``op`` for how an op is put together, ``statements`` for the C statements of one row and
``code`` for the C and CUDA the SDK writes from them.
"""
from opsdk.kernels.rows.maths import RowMaths
from opsdk.kernels.rows.op import Rows

__all__ = ["RowMaths", "Rows"]
