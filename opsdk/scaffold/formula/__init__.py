"""``opsdk new-op NAME --formula EXPR``: an elementwise op written from one formula.

SymPy (needed only here, never by the generated code: ``pip install 'opsdk[formula]'``) parses
the formula, rewrites known unstable patterns into stable functions (``stable``), derives the
gradient and the second derivatives (``derive``), and the printers write them as Python over the
maths namespace ``m``, as C and as CUDA (``printers``, ``generate``); ``templates/op-formula``
lays out the files.
"""
from .generate import formula_context
from .parse import FUNCTIONS, Formula, parse_attr, parse_formula

__all__ = ["FUNCTIONS", "Formula", "formula_context", "parse_attr", "parse_formula"]
