"""From a formula to the template variables of ``templates/op-formula``: the op's maths.

The python functions value, grad and grad2 over ``m`` (python kernels and reference), and the
same derivatives as scalar C bodies, f, df/dx_i and d2f/dx_i dx_j, from which
``Elementwise.c_bodies`` writes the C and CUDA kernels of the three stages (value: f; grad: the
incoming gradient times df/dx_i; grad2: the incoming gradient times sum_i gg_i d2f/dx_i dx_j,
and sum_i gg_i df/dx_i), over the arrays ``opsdk.kernels.elementwise.bodies.array_names`` names.
"""
import json
import re
import shlex
import textwrap

from .derive import derive, kernel_statements, temporaries_prefix
from .domain import choose_domain
from .parse import parse_formula
from .printers import body_code, numeric, python_code
from .wrap import python_lines, text_lines

_LINE = 99  # longest generated Python line before results get names of their own
_COMMENT = 92  # longest line of the derivation in the files' comments

# what the stable functions in the derivations stand for
STABLE_FORMS = {"softplus": "softplus(u) = log(1 + exp(u))", "sigmoid": "sigmoid(u) = 1/(1 + exp(-u))",
                "log1p": "log1p(u) = log(1 + u)", "expm1": "expm1(u) = exp(u) - 1",
                "tanh_softplus": "tanh_softplus(u) = tanh(log(1 + exp(u)))",
                "sech2_softplus": "sech2_softplus(u) = 1 - tanh_softplus(u)**2"}
# the functions of the formula as written, evaluated naively in float64 by the generated tests
NAIVE_REFERENCE = {
    "exp": "numpy.exp", "expm1": "numpy.expm1", "log": "numpy.log", "log1p": "numpy.log1p",
    "sqrt": "numpy.sqrt", "cbrt": "numpy.cbrt", "sin": "numpy.sin", "cos": "numpy.cos",
    "tan": "numpy.tan", "asin": "numpy.arcsin", "acos": "numpy.arccos", "atan": "numpy.arctan",
    "sinh": "numpy.sinh", "cosh": "numpy.cosh", "tanh": "numpy.tanh", "asinh": "numpy.arcsinh",
    "acosh": "numpy.arccosh", "atanh": "numpy.arctanh",
    "erf": "numpy.vectorize(math.erf)", "erfc": "numpy.vectorize(math.erfc)",
    "sigmoid": "lambda u: 1 / (1 + numpy.exp(-u))", "softplus": "lambda u: numpy.log(1 + numpy.exp(u))",
}


def _label(order, names):
    """``df/dx``, ``d2f/dx2``, ``d2f/dxdy``."""
    if order == 1:
        return f"df/d{names[0]}"
    if names[0] == names[1]:
        return f"d2f/d{names[0]}2"
    return f"d2f/d{names[0]}d{names[1]}"


def _short(expr):
    import sympy

    return sympy.sstr(numeric(expr, 8))


def derivation(formula, derived):
    """Lines of f and its derivatives (``df/dx = ...``, long ones wrapped), for the files' comments."""
    rows = [("f", _short(derived.value))]
    rows += [(_label(1, [x]), _short(d)) for x, d in zip(formula.inputs, derived.grad)]
    for i, xi in enumerate(formula.inputs):
        for j in range(i, len(formula.inputs)):
            rows.append((_label(2, [xi, formula.inputs[j]]), _short(derived.hessian[i][j])))
    return [line for label, text in rows
            for line in text_lines(f"{label} = {text}", _COMMENT, " " * (len(label) + 3))]


def _stable_note(derived):
    """Lines saying what the stable functions of the derivation stand for (none if it has none)."""
    used = _functions_used([derived.value, *derived.grad, *(h for row in derived.hessian for h in row)])
    forms = [STABLE_FORMS[name] for name in STABLE_FORMS if name in used]
    if not forms:
        return []
    lines, line = [], "with"
    for at, form in enumerate(forms):
        piece = f" {form}" + ("," if at < len(forms) - 1 else ": stable forms (no overflow, no cancellation).")
        if len(line) + len(piece) > 96:  # break between forms, never inside one
            lines.append(line)
            line = piece.lstrip()
        else:
            line += piece
    return ["", *lines, line]


def _functions_used(exprs):
    """The maths names of the functions in ``exprs``."""
    import sympy

    from .parse import function_name

    found = set()
    for expr in exprs:
        for node in sympy.preorder_traversal(expr):
            if isinstance(node, sympy.Function):
                found.add(function_name(node))
    return found


# -- python -------------------------------------------------------------------------------------

def _python_body(exprs, names, shape):
    """Lines computing ``exprs`` (shared subexpressions first) and returning them shaped as ``shape``.

    ``shape`` is "one", "tuple" (a tuple of all) or ("grad2", k) (slopes, then k rows of k).
    """
    temporaries, results = kernel_statements([numeric(e) for e in exprs], names)
    lines = [f"{symbol} = {python_code(expr)}" for symbol, expr in temporaries]
    texts = [python_code(r) for r in results]
    if shape == "one":
        returned = texts[0]
    elif shape == "tuple":
        returned = "(" + ", ".join(texts) + ("," if len(texts) == 1 else "") + ")"
    else:
        k = shape[1]
        slopes = "(" + ", ".join(texts[:k]) + ("," if k == 1 else "") + ")"
        rows = ["(" + ", ".join(texts[k + r * k:k + (r + 1) * k]) + ("," if k == 1 else "") + ")"
                for r in range(k)]
        returned = f"{slopes}, ({', '.join(rows)}{',' if k == 1 else ''})"
    if len(f"    return {returned}") > _LINE and shape != "one":
        prefix = temporaries_prefix(names, "r")
        named = [f"{prefix}{at}" for at in range(len(texts))]
        lines += [f"{n} = {t}" for n, t in zip(named, texts)]
        lines = _python_body_named(lines, named, shape)
    else:
        lines.append(f"return {returned}")
    return [wrapped for line in lines for wrapped in python_lines(line, 4)]


def _python_body_named(lines, named, shape):
    if shape == "tuple":
        return lines + ["return (" + ", ".join(named) + ("," if len(named) == 1 else "") + ")"]
    k = shape[1]
    comma = "," if k == 1 else ""
    rows = ["(" + ", ".join(named[k + r * k:k + (r + 1) * k]) + comma + ")" for r in range(k)]
    return lines + [f"return ({', '.join(named[:k])}{comma}), ({', '.join(rows)}{comma})"]


def python_functions(formula, derived):
    """{"value": lines, "grad": lines, "grad2": lines}: the bodies of the op module's maths."""
    names = [*formula.inputs, *formula.attrs]
    k = len(formula.inputs)
    hessian = [derived.hessian[i][j] for i in range(k) for j in range(k)]
    return {
        "value": _python_body([derived.value], names, "one"),
        "grad": _python_body(list(derived.grad), names, "tuple"),
        "grad2": _python_body([*derived.grad, *hessian], names, ("grad2", k)),
    }


# -- C and CUDA ---------------------------------------------------------------------------------

def c_bodies(formula, derived):
    """The scalar C bodies of f, df/dx_i and d2f/dx_i dx_j: each its shared subexpressions as
    ``T`` temporaries, then ``return``, as statement lines."""
    names = [*formula.inputs, *formula.attrs]

    def body(expr):
        temporaries, (result,) = kernel_statements([numeric(expr)], names)
        lines = [f"T {symbol} = {body_code(e)};" for symbol, e in temporaries]
        return [*lines, f"return {body_code(result)};"]

    k = len(formula.inputs)
    return {"value": body(derived.value), "grad": [body(d) for d in derived.grad],
            "grad2": [[body(derived.hessian[i][j]) for j in range(k)] for i in range(k)]}


def c_bodies_arguments(bodies, indent=4, width=_LINE):
    """``c_bodies``'s keyword arguments as Python source lines: a body is a string (adjacent
    literals, one statement each, long statements cut at spaces), grad a list of them, grad2 a
    list of lists."""
    def literal(statements, col):
        pieces = []
        for line in statements:
            pieces += textwrap.wrap(line, max(24, width - col - 8), break_long_words=False,
                                    break_on_hyphens=False)
        texts = [json.dumps(p + ("" if i == len(pieces) - 1 else " ")) for i, p in enumerate(pieces)]
        if len(texts) == 1:
            return texts
        return ["(" + texts[0]] + [" " * (col + 1) + t for t in texts[1:-1]] + \
            [" " * (col + 1) + texts[-1] + ")"]

    def block(value, col):
        """``value`` (a body, or a list) as lines: the first placed by the caller at ``col``."""
        if value and isinstance(value[0], str):
            return literal(value, col)
        flat = [literal(item, col) if isinstance(item[0], str) else block(item, col) for item in value]
        one = "[" + ", ".join(lines[0] for lines in flat) + "]"
        if all(len(lines) == 1 for lines in flat) and col + len(one) + 1 <= width:
            return [one]  # short bodies: the list on one line
        lines = ["["]
        for item in value:
            inner = block(item, col + 4)
            lines += [" " * (col + 4) + inner[0]] + inner[1:]
            lines[-1] += ","
        return lines + [" " * col + "]"]

    lines = []
    for name in ("value", "grad", "grad2"):
        made = block(bodies[name], indent + len(name) + 1 if name == "value" else indent)
        lines += [" " * indent + f"{name}=" + made[0]] + made[1:]
        lines[-1] += ","
    return "\n".join(lines)


# -- tests --------------------------------------------------------------------------------------

def reference(formula):
    """What the generated test compares with: the formula as written and its third derivatives,
    printed for a namespace ``naive`` of NumPy functions (float64, no stable forms)."""
    import sympy

    names = [*formula.inputs, *formula.attrs]
    expr = numeric(formula.expr)
    third = [numeric(sympy.diff(formula.expr, formula.symbols[x], 3)) for x in formula.inputs]
    value_lines = _python_body([expr], names, "one")
    third_lines = [_python_body([t], names, "one") for t in third]
    # the functions the printed code calls (x**1.5 calls sqrt, x**(1/3) cbrt): read from the code itself
    text = "\n".join([*value_lines, *(line for lines in third_lines for line in lines)])
    used = sorted(set(re.findall(r"\bm\.([a-z_0-9]+)\(", text)))
    return {
        "reference_value": value_lines,
        "reference_third": third_lines,
        "naive_functions": [(name, NAIVE_REFERENCE[name]) for name in used],
        "uses_math": any(name in ("erf", "erfc") for name in used),
    }


def formula_command(op, formula, backends, domain=None):
    """The ``opsdk new-op`` command that makes this op, for the files' first comment."""
    parts = ["opsdk", "new-op", op, "--formula", formula.text]
    if tuple(formula.inputs) != ("x",):
        for x in formula.inputs:
            parts += ["--input", x]
    for name, value in formula.attrs.items():
        parts += ["--attr", f"{name}={value!r}"]
    if domain is not None:
        parts += ["--domain", f"{domain[0]!r},{domain[1]!r}"]
    for backend in backends:
        if backend != "python":
            parts += ["--backend", backend]
    return shlex.join(parts)


def _summary(text, longest=48):
    """The formula for one-line summaries: cut at a space, with ..., where it is long."""
    if len(text) <= longest:
        return text
    return text[:longest - 4].rsplit(" ", 1)[0] + " ..."


def _compiled(lines_by_function, signature):
    """The python maths functions, compiled, to probe the domain with."""
    namespace = {}
    for name, lines in lines_by_function.items():
        body = "\n".join("    " + line for line in lines)
        exec(f"def {name}(m, {signature}):\n{body}\n", namespace)
    return namespace["value"], namespace["grad"], namespace["grad2"]


def formula_context(op, text, inputs=("x",), attrs=None, backends=("python",), domain=None):
    """The variables ``templates/op-formula`` is rendered with (the op's own; the pack's are added later).

    Raises:
        FormulaError: the formula cannot be used (see ``parse_formula``, ``choose_domain``).

    Example::

        context = formula_context("mish", "x * tanh(log(1 + exp(x)))", backends=("python", "c"))
    """
    formula = parse_formula(text, inputs, attrs)
    derived = derive(formula)
    attr_names = list(formula.attrs)
    signature = ", ".join(formula.inputs) + (", *, " + ", ".join(attr_names) if attr_names else "")
    python = python_functions(formula, derived)
    chosen = choose_domain(_compiled(python, signature), formula, domain)
    bodies = c_bodies(formula, derived)
    return {
        "formula": formula.text,
        "summary": _summary(formula.text),
        "command": formula_command(op, formula, backends, domain),
        "derivation": derivation(formula, derived),
        "stable_note": _stable_note(derived),
        "inputs": list(formula.inputs),
        "attrs": [(name, repr(value)) for name, value in formula.attrs.items()],
        "inputs_py": "(" + ", ".join(f'"{x}"' for x in formula.inputs) + ("," if len(formula.inputs) == 1 else "") + ")",
        "attrs_py": "{" + ", ".join(f'"{n}": {v!r}' for n, v in formula.attrs.items()) + "}",
        "signature": signature,
        "forward_params": ", ".join([*formula.inputs, *(f"{n}={v!r}" for n, v in formula.attrs.items())]),
        "forward_args": ", ".join([*formula.inputs, *(f"{n}={n}" for n in attr_names)]),
        "python": python,
        "c_bodies": bodies,
        "c_bodies_py": c_bodies_arguments(bodies),
        "domain": [repr(chosen[0]), repr(chosen[1])],
        "notes": list(formula.notes),
        **reference(formula),
    }
