"""Printing derived expressions as code: Python over the maths namespace ``m``, and the scalar
C bodies ``Elementwise.c_bodies`` writes the C and CUDA kernels from.

Numbers become float literals (plain ``0.5`` in a body, which c_bodies makes the kernel's float
type, so nothing is computed in double by accident in float32); small powers
x**(p/q), q = 1, 2 or 3, become products of x, sqrt(x) or cbrt(x) (or their inverses);
every other function is called by the name of the target:

    python  m.softplus(x)              (opsdk.kernels.elementwise.maths)
    body    softplus(x)                (opsdk.kernels.elementwise.bodies.VOCABULARY)
"""
from functools import lru_cache

from .parse import function_name

# x**(p/q) is written as products of x, sqrt(x) or cbrt(x) up to these |p| (q = 1, 2, 3), pow beyond
_LONGEST_PRODUCT = {1: 4, 2: 7, 3: 8}


def numeric(expr, digits=17):
    """``expr`` with every constant subexpression (sqrt(2)/pi, 8943/200000) as one float of
    ``digits`` digits; integers and rational exponents stay exact (they print as products, sqrt, cbrt)."""
    import sympy

    if expr.is_number and not expr.is_Integer:
        return sympy.Float(expr.evalf(digits), digits)
    if not expr.args:
        return expr
    if expr.is_Pow:
        exponent = expr.exp if expr.exp.is_Rational else numeric(expr.exp, digits)
        return sympy.Pow(numeric(expr.base, digits), exponent)
    return expr.func(*(numeric(a, digits) for a in expr.args))


def _root_factors(exponent):
    """x**(p/q) as (whole, roots): x**whole times sqrt(x)**roots (q = 2) or cbrt(x)**roots (q = 3),
    for small p; None where pow is better. Products are exact and cheaper than pow, and cbrt keeps
    x**(1/3) and its derivatives real for x < 0 alike (pow(x, -2/3.) would be nan there)."""
    if not exponent.is_Rational or exponent.q not in _LONGEST_PRODUCT:
        return None
    p, q = abs(int(exponent.p)), int(exponent.q)
    if p > _LONGEST_PRODUCT[q]:
        return None
    return divmod(p, q) if q > 1 else (p, 0)


def _literal(value):
    text = repr(float(value))
    if "e" not in text and "." not in text:
        text += ".0"
    return text


@lru_cache(maxsize=None)
def _printer_classes():
    import sympy
    from sympy.printing.c import C99CodePrinter
    from sympy.printing.precedence import PRECEDENCE
    from sympy.printing.pycode import PythonCodePrinter

    class _Common:
        """Shared rules: numbers, powers, symbols by a table."""

        def _print(self, expr, **kwargs):
            # every function through _print_Function: the printers' own tables would print
            # tanh as tanh in float32 C and as math.tanh in Python
            if isinstance(expr, sympy.Function):
                return self._print_Function(expr)
            return super()._print(expr, **kwargs)

        def _number(self, value):
            return _literal(value)

        def _print_Float(self, expr):
            return self._number(expr)

        def _print_Rational(self, expr):
            return self._number(expr)

        def _print_Integer(self, expr):
            return self._number(expr)

        def _print_NumberSymbol(self, expr):
            return self._number(expr)

        _print_Pi = _print_Exp1 = _print_NumberSymbol

        def _print_Symbol(self, expr):
            return self.names.get(expr.name, expr.name)

        def _call(self, name, *args):
            raise NotImplementedError(f"{type(self).__name__} writes no function calls: each printer of a "
                                      f"formula (python, C body) defines _call; got: {name}")

        def _print_Function(self, expr):
            return self._call(function_name(expr), *(self._print(a) for a in expr.args))

        def _print_Pow(self, expr, rational=False):
            base, exponent = expr.base, expr.exp
            factors = _root_factors(exponent)
            if factors is None:
                return self._power(base, exponent)
            whole, roots = factors
            root = self._call("sqrt" if exponent.q == 2 else "cbrt", self._print(base)) if roots else None
            parts = self._whole(base, whole) + [root] * roots
            product = parts[0] if len(parts) == 1 else "(" + "*".join(parts) + ")"
            return product if exponent > 0 else f"({self._number(1)}/{product})"

    class PythonPrinter(_Common, PythonCodePrinter):
        """Python over ``m``; powers stay ``**`` (NumPy, CuPy and Tensors all take it)."""

        def __init__(self, names=None):
            super().__init__({"fully_qualified_modules": False})
            self.names = names or {}

        def _number(self, value):
            value = sympy.sympify(value)
            if value.is_Integer:
                return str(int(value))
            return repr(float(value))

        def _call(self, name, *args):
            return f"m.{name}({', '.join(args)})"

        def _whole(self, base, n):
            if n == 0:
                return []
            if n == 1:  # a factor of a product or a denominator: x + 1 needs its parentheses
                return [self.parenthesize(base, PRECEDENCE["Mul"])]
            return [f"{self.parenthesize(base, PRECEDENCE['Pow'])}**{n}"]

        def _power(self, base, exponent):
            return f"{self.parenthesize(base, PRECEDENCE['Pow'])}**{self.parenthesize(exponent, PRECEDENCE['Pow'])}"

    class BodyPrinter(_Common, C99CodePrinter):
        """A scalar C body: functions by their vocabulary name, literals without a suffix (the
        body's decimal literals become its float type T's when c_bodies writes the kernels)."""

        def __init__(self, names=None):
            super().__init__()
            self.names = names or {}

        def _call(self, name, *args):
            return f"{name}({', '.join(args)})"

        def _whole(self, base, n):
            return [self.parenthesize(base, PRECEDENCE["Mul"])] * n

        def _power(self, base, exponent):
            return self._call("pow", self._print(base), self._print(exponent))

    return PythonPrinter, BodyPrinter


def python_code(expr, names=None):
    """``expr`` as Python over ``m``."""
    return _printer_classes()[0](names).doprint(expr)


def body_code(expr, names=None):
    """``expr`` as the C of a scalar body (see opsdk.kernels.elementwise.bodies)."""
    return _printer_classes()[1](names).doprint(expr)
