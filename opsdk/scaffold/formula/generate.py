"""From a formula to the template variables of ``templates/op-formula``: the code of every kernel.

Three stages, each a kernel with python, C and CUDA implementations (the C and CUDA ones in both
float32 and float64), named and laid out as ``opsdk.kernels.adapters`` calls them:

    value   inputs...                      -> out                      out = f
    grad    inputs..., grad_out            -> grad_<input>...          grad_x = grad_out df/dx
    grad2   inputs..., grad_out, gg_<input>... -> grad_<input>..., grad_grad_out
            grad_x = grad_out sum_i gg_i d2f/di dx,  grad_grad_out = sum_i gg_i df/di
"""
import re
import shlex

from .derive import derive, kernel_statements, temporaries_prefix
from .domain import choose_domain
from .parse import parse_formula
from .printers import CUDA_HELPERS, c_code, cuda_code, numeric, python_code
from .wrap import c_lines, python_lines, text_lines

C_TYPES = {"float32": ("float", "f32"), "float64": ("double", "f64")}
_LINE = 99  # longest generated Python line before results get names of their own
_COMMENT = 92  # longest line of the derivation in the files' comments

# the CUDA helpers the .cu file defines when its kernels use them (no overflow, as in opsdk/maths.h)
_CUDA_HELPER_CODE = {
    "sigmoid": (
        "__device__ __forceinline__ float opsdk_sigmoid(float u)\n"
        "{\n    float e = expf(-fabsf(u)), inv = 1.0f / (1.0f + e);\n    return u >= 0.0f ? inv : e * inv;\n}\n\n"
        "__device__ __forceinline__ double opsdk_sigmoid(double u)\n"
        "{\n    double e = exp(-fabs(u)), inv = 1.0 / (1.0 + e);\n    return u >= 0.0 ? inv : e * inv;\n}\n"),
    "softplus": (
        "__device__ __forceinline__ float opsdk_softplus(float u)\n"
        "{\n    return fmaxf(u, 0.0f) + log1pf(expf(-fabsf(u)));\n}\n\n"
        "__device__ __forceinline__ double opsdk_softplus(double u)\n"
        "{\n    return fmax(u, 0.0) + log1p(exp(-fabs(u)));\n}\n"),
    "tanh_softplus": (
        "// tanh(softplus(u)) = n / d with e = exp(-|u|), exactly (see opsdk/maths.h)\n"
        "template <typename T> __device__ __forceinline__ void opsdk_tanh_softplus_parts(T u, T &n, T &gap)\n"
        "{\n    T e = exp(-fabs(u));\n    bool pos = u >= T(0);\n"
        "    n = pos ? T(1) + T(2) * e : e * (e + T(2));\n    gap = pos ? T(2) * e * e : T(2);\n}\n\n"
        "template <typename T> __device__ __forceinline__ T opsdk_tanh_softplus(T u)\n"
        "{\n    T n, gap;\n    opsdk_tanh_softplus_parts(u, n, gap);\n    return n / (n + gap);\n}\n"),
    "sech2_softplus": (
        "// 1 - tanh(softplus(u))^2 = (d - n)(d + n) / d^2, without cancellation\n"
        "template <typename T> __device__ __forceinline__ T opsdk_sech2_softplus(T u)\n"
        "{\n    T n, gap;\n    opsdk_tanh_softplus_parts(u, n, gap);\n    T inv = T(1) / (n + gap);\n"
        "    return gap * inv * (T(1) + n * inv);\n}\n"),
}
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

def stages(formula, derived):
    """[(stage, inputs, outputs, exprs)] of the three kernels, exprs over Symbols named like the arrays."""
    import sympy

    xs = list(formula.inputs)
    k = len(xs)
    grad_out = sympy.Symbol("grad_out", real=True)
    gg = [sympy.Symbol(f"gg_{x}", real=True) for x in xs]
    second = [grad_out * sum((gg[i] * derived.hessian[i][j] for i in range(k)), sympy.Integer(0))
              for j in range(k)]
    return [
        ("value", xs, ["out"], [derived.value]),
        ("grad", [*xs, "grad_out"], [f"grad_{x}" for x in xs], [grad_out * d for d in derived.grad]),
        ("grad2", [*xs, "grad_out", *(f"gg_{x}" for x in xs)], [*(f"grad_{x}" for x in xs), "grad_grad_out"],
         [*second, sum((gg[i] * derived.grad[i] for i in range(k)), sympy.Integer(0))]),
    ]


def _statements(exprs, arrays, outputs, printer, dtype, symbol_names):
    """C statements of one loop body: ``const T t0 = ...;`` then ``out[i] = ...;``."""
    ctype = C_TYPES[dtype][0]
    temporaries, results = kernel_statements([numeric(e) for e in exprs], symbol_names)
    names = {a: f"{a}[i]" for a in arrays}
    lines = [f"const {ctype} {symbol} = {printer(expr, dtype, names)};" for symbol, expr in temporaries]
    lines += [f"{out}[i] = {printer(expr, dtype, names)};" for out, expr in zip(outputs, results)]
    return [wrapped for line in lines for wrapped in c_lines(line, 8)]


def c_functions(formula, derived, op, cuda=False):
    """One dict per (stage, dtype): the function's name, parameter lists and loop body."""
    attrs = list(formula.attrs)
    symbol_names = [*formula.inputs, *attrs, "grad_out", *(f"gg_{x}" for x in formula.inputs)]
    made = []
    for stage, inputs, outputs, exprs in stages(formula, derived):
        for dtype, (ctype, suffix) in C_TYPES.items():
            size = "long long n" if cuda else "int64_t n"
            params = ([f"const {ctype} *{a}" for a in inputs] + [f"{ctype} *{o}" for o in outputs] + [size]
                      + [f"{ctype} {a}" for a in attrs])
            restricted = ([f"const {ctype} *restrict {a}" for a in inputs]
                          + [f"{ctype} *restrict {o}" for o in outputs]
                          + ["int64_t lo", "int64_t hi"] + [f"{ctype} {a}" for a in attrs])
            made.append({
                "stage": stage, "dtype": dtype, "ctype": ctype, "name": f"{op}_{stage}_{suffix}",
                "range_name": f"{op}_{stage}_range_{suffix}", "params": ", ".join(params),
                "range_params": ", ".join(restricted),
                "range_args": ", ".join([*inputs, *outputs, "lo", "hi", *attrs]),
                "body": _statements(exprs, inputs, outputs, cuda_code if cuda else c_code, dtype, symbol_names),
            })
    return made


def cuda_helpers(functions):
    """The helper definitions the CUDA kernels call."""
    text = "\n".join(line for f in functions for line in f["body"])
    return [_CUDA_HELPER_CODE[name] for name in CUDA_HELPERS if f"opsdk_{name}(" in text]


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
    cuda = c_functions(formula, derived, op, cuda=True)
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
        "c_functions": c_functions(formula, derived, op),
        "cuda_functions": cuda,
        "cuda_helpers": cuda_helpers(cuda),
        "domain": [repr(chosen[0]), repr(chosen[1])],
        "notes": list(formula.notes),
        **reference(formula),
    }
