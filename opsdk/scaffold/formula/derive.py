"""Derivatives of a formula: gradient and second derivatives by SymPy, simplified, in stable forms.

Each derivative is differentiated from the stable form of the formula (see ``stable``), then
the cheapest of a few equivalent forms is kept (SymPy's ``simplify`` is tried, never trusted
blindly: a form that calls more functions costs more), and the stable patterns are applied
again. Kernels then share common subexpressions (``kernel_statements``).
"""
from dataclasses import dataclass

from .parse import unusable_part
from .stable import stabilize

# what a form costs: a function call or a non-integer power counts like many multiplications
_CALL_COST = 12
# SymPy's simplify can take minutes (its trigsimp factors polynomials of trigonometric and
# hyperbolic terms): it is only tried on small expressions without them
_SIMPLIFY_LIMIT = 80


@dataclass
class Derived:
    """A formula's value, gradient and second derivatives (SymPy expressions in stable forms).

    Attributes:
        value: f.
        grad: (df/dx_i for each input).
        hessian: hessian[i][j] = d2f / dx_i dx_j (symmetric).
        third: (d3f/dx_i^3 for each input), from the formula as written: for tests.
    """

    value: object
    grad: tuple
    hessian: tuple
    third: tuple


def cost(exprs):
    """Operations the expressions cost once common subexpressions are shared."""
    import sympy

    replacements, reduced = sympy.cse(list(exprs))
    return sum(_cost_of(e) for _, e in replacements) + sum(_cost_of(e) for e in reduced)


def _cost_of(expr):
    import sympy

    total = 0
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Function):
            total += _CALL_COST
        elif node.is_Pow:
            exponent = node.exp
            total += abs(int(exponent)) if exponent.is_Integer else _CALL_COST
        elif node.is_Add or node.is_Mul:
            total += len(node.args) - 1
    return total


def _cheapest(expr, kept):
    """The cheapest of ``expr``'s candidate forms, counted with the expressions already ``kept``."""
    import sympy

    from sympy.functions.elementary.hyperbolic import HyperbolicFunction
    from sympy.functions.elementary.trigonometric import TrigonometricFunction

    candidates = [expr]
    forms = [sympy.factor_terms]
    if sympy.count_ops(expr) <= _SIMPLIFY_LIMIT and not expr.has(TrigonometricFunction, HyperbolicFunction):
        forms.append(sympy.simplify)
    for simplified in forms:
        form = stabilize(simplified(expr))
        # simplify may bring in what no kernel computes (Abs, Piecewise): such forms are dropped
        if form not in candidates and unusable_part(form) is None:
            candidates.append(form)
    return min(candidates, key=lambda form: (cost([*kept, form]), candidates.index(form)))


def derive(formula):
    """The Derived of a parsed formula.

    Example::

        derived = derive(parse_formula("log(1 + exp(x))"))
        derived.grad          # (sigmoid(x),)
    """
    import sympy

    xs = [formula.symbols[name] for name in formula.inputs]
    value = stabilize(formula.expr)
    kept = [value]
    grad = []
    for x in xs:
        grad.append(_cheapest(stabilize(sympy.diff(value, x)), kept))
        kept.append(grad[-1])
    hessian = [[None] * len(xs) for _ in xs]
    for i, xi in enumerate(xs):
        for j in range(i, len(xs)):
            entry = _cheapest(stabilize(sympy.diff(grad[i], xs[j])), kept)
            kept.append(entry)
            hessian[i][j] = hessian[j][i] = entry
    third = tuple(sympy.diff(formula.expr, x, 3) for x in xs)
    return Derived(value=value, grad=tuple(grad), hessian=tuple(tuple(r) for r in hessian), third=third)


def temporaries_prefix(names, prefix="t"):
    """A prefix for numbered names (``t0``, ``t1``, ...) no input or attribute name can be."""
    while any(n.startswith(prefix) and n[len(prefix):].isdigit() for n in names):
        prefix = "_" + prefix
    return prefix


def kernel_statements(exprs, names):
    """(temporaries, results): ``[(symbol, expr)]`` shared subexpressions, then the expressions."""
    import sympy

    prefix = temporaries_prefix(names)
    return sympy.cse(list(exprs), symbols=sympy.numbered_symbols(prefix, real=True), optimizations="basic")
