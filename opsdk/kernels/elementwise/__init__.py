"""Elementwise ops from their maths: ``Elementwise`` (kernels, broadcasting, every order) and ``m``.

See ``op`` for how an op is put together and ``maths`` for the functions formulas may use;
``opsdk new-op NAME --formula "..."`` writes both from one formula.
"""
from opsdk.kernels.elementwise.maths import FUNCTIONS, maths_of
from opsdk.kernels.elementwise.op import C_FLAGS, DTYPES, Elementwise

__all__ = ["C_FLAGS", "DTYPES", "Elementwise", "FUNCTIONS", "maths_of"]
