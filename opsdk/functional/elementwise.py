"""Elementwise ops, gathered: arithmetic, unary functions, selection and comparisons.

The ops live in ``arithmetic``, ``unary`` and ``logic``; this module re-exports them under one
name, which the rest of opsdk imports.
"""
from .arithmetic import (add, divide, floor_divide, maximum, minimum, multiply, pow, reciprocal,
                         remainder, scale, square, subtract)
from .casting import cast
from .logic import (allclose, equal, greater_equal, greater_than, isfinite, isinf, isnan,
                    less_equal, less_than, logical_and, logical_not, logical_or, logical_xor,
                    not_equal, where)
from .unary import (abs, ceil, clip, cos, exp, floor, log, neg, round, rsqrt, sigmoid, sign, sin,
                    sqrt, tanh)

__all__ = ["add", "subtract", "multiply", "divide", "pow", "maximum", "minimum", "neg", "abs",
           "exp", "log", "sqrt", "rsqrt", "square", "reciprocal", "sin", "cos", "tanh",
           "sigmoid", "sign", "floor", "ceil", "round", "clip", "cast", "where", "equal",
           "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not", "remainder",
           "floor_divide", "isnan", "isinf", "isfinite", "allclose", "scale"]
