"""Numerically stable forms: known patterns rewritten into functions that never overflow.

    log(1 + exp(u))   -> softplus(u)      (exp overflows float32 beyond u = 88)
    1/(1 + exp(-u))   -> sigmoid(u)       (also exp(u)/(1 + exp(u)))
    1 + tanh(u)       -> 2 sigmoid(2u)    (1 - tanh(u) -> 2 sigmoid(-2u): no cancellation)
    log(sigmoid(u))   -> -softplus(-u)
    1 - sigmoid(u)    -> sigmoid(-u)
    log(1 + u)        -> log1p(u)         (keeps the precision of small u)
    exp(u) - 1        -> expm1(u)
    tanh(softplus(u)) -> tanh_softplus(u) (mish's core: one exp and one division, not three)
    1 - tanh_softplus(u)**2 -> sech2_softplus(u)   (no cancellation where tanh nears 1)

softplus and sigmoid are SymPy functions of their own whose derivatives stay in the set
(softplus' = sigmoid, sigmoid'(u) = sigmoid(u) sigmoid(-u)), so derivatives are stable too.
"""
from functools import lru_cache


@lru_cache(maxsize=None)
def special_functions():
    """{name: SymPy function} of the functions SymPy lacks or the C library names differently."""
    import sympy
    from sympy.codegen.cfunctions import expm1, log1p

    class sigmoid(sympy.Function):  # noqa: N801 - printed as its name
        """1 / (1 + exp(-u))."""

        def fdiff(self, argindex=1):
            u = self.args[0]
            return sigmoid(u) * sigmoid(-u)

        def _eval_rewrite_as_exp(self, u, **kwargs):
            return 1 / (1 + sympy.exp(-u))

        def _eval_is_real(self):
            return self.args[0].is_real

    class softplus(sympy.Function):  # noqa: N801
        """log(1 + exp(u))."""

        def fdiff(self, argindex=1):
            return sigmoid(self.args[0])

        def _eval_rewrite_as_exp(self, u, **kwargs):
            return sympy.log(1 + sympy.exp(u))

        def _eval_evalf(self, prec):  # softplus(2) in a formula is a number
            return self.rewrite(sympy.exp)._eval_evalf(prec)

        def _eval_is_real(self):
            return self.args[0].is_real

    class tanh_softplus(sympy.Function):  # noqa: N801
        """tanh(log(1 + exp(u)))."""

        def fdiff(self, argindex=1):
            u = self.args[0]
            return sech2_softplus(u) * sigmoid(u)

        def _eval_evalf(self, prec):
            return sympy.tanh(softplus(self.args[0]))._eval_evalf(prec)

        def _eval_is_real(self):
            return self.args[0].is_real

    class sech2_softplus(sympy.Function):  # noqa: N801
        """1 - tanh(log(1 + exp(u)))**2."""

        def fdiff(self, argindex=1):
            u = self.args[0]
            return -2 * tanh_softplus(u) * sech2_softplus(u) * sigmoid(u)

        def _eval_evalf(self, prec):
            return (1 - tanh_softplus(self.args[0]) ** 2)._eval_evalf(prec)

        def _eval_is_real(self):
            return self.args[0].is_real

    return {"sigmoid": sigmoid, "softplus": softplus, "log1p": log1p, "expm1": expm1,
            "tanh_softplus": tanh_softplus, "sech2_softplus": sech2_softplus}


def _split_add(expr, sympy):
    """(constant part, the other terms) of an Add."""
    constant = sum((t for t in expr.args if t.is_Number), sympy.Integer(0))
    return constant, [t for t in expr.args if not t.is_Number]


def _rewrite_add(expr, sympy, f):
    """Rewrite ``c + f-able term + rest`` inside one Add node, or return None."""
    constant, terms = _split_add(expr, sympy)
    for at, term in enumerate(terms):
        coefficient, core = term.as_coeff_Mul()
        if coefficient not in (1, -1):
            continue
        replaced = f(constant, coefficient, core)
        if replaced is not None:
            new_constant, new_term = replaced
            rest = terms[:at] + terms[at + 1:]
            return sympy.Add(new_constant, new_term, *rest)
    return None


def _add_rule(sympy, special):
    sigmoid, expm1 = special["sigmoid"], special["expm1"]
    tanh_softplus, sech2_softplus = special["tanh_softplus"], special["sech2_softplus"]

    def rule(constant, sign, core):
        # 1 - tanh_softplus(u)**2 = sech2_softplus(u)
        if core.is_Pow and core.exp == 2 and isinstance(core.base, tanh_softplus) and constant == 1 \
                and sign == -1:
            return 0, sech2_softplus(core.base.args[0])
        # 1 + tanh(u) = 2 sigmoid(2u); 1 - tanh(u) = 2 sigmoid(-2u)
        if isinstance(core, sympy.tanh) and constant == 1:
            return 0, 2 * sigmoid(2 * sign * core.args[0])
        # 1 - sigmoid(u) = sigmoid(-u)
        if isinstance(core, sigmoid) and constant == 1 and sign == -1:
            return 0, sigmoid(-core.args[0])
        # exp(u) - 1 = expm1(u)
        if isinstance(core, sympy.exp) and constant == -sign:
            return 0, sign * expm1(core.args[0])
        return None

    return rule


def stabilize(expr):
    """``expr`` with the known unstable patterns replaced by their stable forms (to a fixed point).

    Example::

        stabilize(parse_formula("x * tanh(log(1 + exp(x)))").expr)     # x*tanh(softplus(x))
    """
    import sympy

    special = special_functions()
    sigmoid, softplus, log1p = (special[n] for n in ("sigmoid", "softplus", "log1p"))
    add_rule = _add_rule(sympy, special)

    def visit(node):
        if not node.args:
            return node
        node = node.func(*(visit(a) for a in node.args))
        if isinstance(node, sympy.tanh) and isinstance(node.args[0], softplus):
            return special["tanh_softplus"](node.args[0].args[0])
        if isinstance(node, sympy.log):
            (arg,) = node.args
            if isinstance(arg, sigmoid):
                return -softplus(-arg.args[0])
            if arg.is_Add:
                constant, terms = _split_add(arg, sympy)
                if constant == 1 and len(terms) == 1 and isinstance(terms[0], sympy.exp):
                    return softplus(terms[0].args[0])
                if constant == 1:
                    return log1p(sympy.Add(*terms))
            return node
        if node.is_Pow and node.exp == -1 and node.base.is_Add:
            constant, terms = _split_add(node.base, sympy)
            if constant == 1 and len(terms) == 1 and isinstance(terms[0], sympy.exp):
                return sigmoid(-terms[0].args[0])
            return node
        if node.is_Mul:
            # exp(u) / (1 + exp(u)) = sigmoid(u)
            for factor in node.args:
                if isinstance(factor, sigmoid):
                    u = -factor.args[0]
                    if sympy.exp(u) in node.args:
                        rest = [a for a in node.args if a is not factor and a != sympy.exp(u)]
                        return sympy.Mul(sigmoid(u), *rest)
            return node
        if node.is_Add:
            replaced = _rewrite_add(node, sympy, add_rule)
            return visit(replaced) if replaced is not None else node
        return node

    previous = None
    while previous != expr:
        previous, expr = expr, visit(expr)
    return expr
