"""Reading a formula: Python syntax, a fixed set of smooth functions, inputs and float attributes.

The text is parsed with Python's own ``ast`` (never evaluated) and turned into a SymPy
expression node by node, so anything outside the supported set is refused by name: an unknown
function, a keyword argument, a comparison, a string.
"""
import ast
import io
import keyword
import re
import tokenize
from dataclasses import dataclass, field

from ...errors import FormulaError
from .bounds import beyond_float64, check_attr, check_length, check_tree, shown, too_deep

# name in formulas -> name in the maths namespaces and the C/CUDA helpers
FUNCTIONS = {name: name for name in (
    "exp", "expm1", "log", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "sigmoid", "softplus")}
FUNCTIONS.update(arcsin="asin", arccos="acos", arctan="atan", arcsinh="asinh", arccosh="acosh",
                 arctanh="atanh")
# SymPy class names that differ from the maths name
_SYMPY_NAMES = {"asin": "asin", "acos": "acos", "atan": "atan", "asinh": "asinh", "acosh": "acosh",
                "atanh": "atanh"}
# functions the stable rewrites introduce (formulas cannot name them)
DERIVED_FUNCTIONS = ("tanh_softplus", "sech2_softplus")
# functions formulas may call that are written with the others: (arguments, expression)
REWRITTEN = {
    "pow": (2, lambda sp, u, v: u ** v),
    "hypot": (2, lambda sp, u, v: sp.sqrt(u * u + v * v)),
    "log2": (1, lambda sp, u: sp.log(u) / sp.log(2)),
    "log10": (1, lambda sp, u: sp.log(u) / sp.log(10)),
    "exp2": (1, lambda sp, u: 2 ** u),
    "sec": (1, lambda sp, u: 1 / sp.cos(u)),
    "csc": (1, lambda sp, u: 1 / sp.sin(u)),
    "cot": (1, lambda sp, u: sp.cos(u) / sp.sin(u)),
    "sech": (1, lambda sp, u: 1 / sp.cosh(u)),
    "csch": (1, lambda sp, u: 1 / sp.sinh(u)),
    "coth": (1, lambda sp, u: sp.cosh(u) / sp.sinh(u)),
}
# the constants formulas may name: SymPy's names for them
CONSTANTS = ("pi", "E")
_NOT_SMOOTH = {"abs", "max", "min", "sign", "floor", "ceil", "round", "where", "maximum", "minimum",
               "clip", "relu", "heaviside"}
# names the generated Python, C and CUDA code uses itself (C's own names: opsdk.kernels.elementwise.c_names)
_RESERVED = {"m", "n", "i", "lo", "hi", "out", "ctx", "dy", "grad_out", "opsdk", "numpy", "OP",
             "value", "grad", "grad2", "register", "TensorSpec", "Elementwise"}
_EXAMPLE = "'x * tanh(log(1 + exp(x)))'"


@dataclass
class Formula:
    """A parsed formula.

    Attributes:
        text: the formula as written.
        expr: its SymPy expression (decimals kept exact, as rationals).
        inputs: the names of the tensor inputs, in order.
        attrs: attribute name -> default value, in order of first appearance.
        symbols: name -> SymPy symbol, for inputs and attributes.
        notes: what the user should know (attributes given no value, ...).
    """

    text: str
    expr: object
    inputs: tuple
    attrs: dict
    symbols: dict
    notes: list = field(default_factory=list)


def require_sympy():
    """Import SymPy, or explain which extra installs it."""
    try:
        import sympy
    except ImportError:
        raise FormulaError("opsdk new-op --formula needs SymPy (only to write the op: the generated "
                           "code does not use it); expected: SymPy installed, e.g. "
                           "pip install 'opsdk[formula]'; got: no module named 'sympy'") from None
    return sympy


def _refuse(text, node, what, expected):
    col = getattr(node, "col_offset", None)
    where = f" at column {col + 1}" if col is not None else ""
    raise FormulaError(f"formula {text!r}: {what}{where}; expected: {expected}; got: "
                       f"{ast.get_source_segment(text, node) or what}")


def check_symbol_name(name, role):
    """Refuse a name an input or attribute cannot have (generated code uses it, or it is a keyword)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise FormulaError(f"{role} {name!r} is not a valid name; expected: a Python identifier, "
                           f"e.g. 'x' or 'beta'; got: {name!r}")
    if not name.isascii():
        raise FormulaError(f"{role} {name!r} is not an ASCII name (it names C and CUDA parameters "
                           f"too); expected: letters a-z, A-Z, digits and _, e.g. {_ascii_for(name)!r}; "
                           f"got: {name!r}")
    why = _reserved_because(name)
    if why:
        raise FormulaError(f"{role} {name!r} is {why}; expected: another name, e.g. '{name}1'; got: {name!r}")


def _reserved_because(name):
    """Why ``name`` cannot be an input or attribute, or None."""
    from opsdk.kernels.elementwise.c_names import reserved_by_c

    if keyword.iskeyword(name):
        return "a keyword of Python"
    if name in CONSTANTS:
        return "a constant of formulas (pi = 3.14159..., E = 2.71828...)"
    if name in FUNCTIONS or name in REWRITTEN:
        return "a function of formulas"
    if name in _RESERVED or name.startswith(("grad_", "gg_")):
        return "a name the generated code uses itself"
    if name.startswith("_") or name.lower().startswith("opsdk_"):
        return "reserved (names starting with _ or opsdk_ are the SDK's)"
    return reserved_by_c(name)


def _ascii_for(name):
    """An ASCII name to suggest for ``name``: Greek letters by their names (alpha for α)."""
    import unicodedata

    words = []
    for char in name:
        if char.isascii():
            words.append(char)
            continue
        spelled = unicodedata.name(char, "").split()
        words.append(spelled[-1].lower() if spelled and spelled[-1].isalpha() else "x")
    return "".join(words)


class _Converter:
    """ast node -> SymPy expression, refusing everything outside the supported set."""

    def __init__(self, sympy, text, symbols):
        self.sp, self.text, self.symbols = sympy, text, symbols
        self.functions = {
            name: getattr(self, f"_fn_{target}", None) or self._library(target)
            for name, target in FUNCTIONS.items()}

    def _library(self, target):
        from .stable import special_functions

        sp = self.sp
        special = special_functions()
        if target in special:
            return special[target]
        return getattr(sp, target)

    def convert(self, node):
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            _refuse(self.text, node, f"unsupported syntax ({type(node).__name__})",
                    "numbers, names, + - * / ** and calls of " + ", ".join(sorted(FUNCTIONS)))
        return method(node)

    def _Expression(self, node):
        return self.convert(node.body)

    def _Constant(self, node):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            _refuse(self.text, node, f"unsupported constant {value!r}", "a real number")
        # the literal as written, exactly: 0.044715 stays 44715/10^6 for SymPy's simplification
        return self.sp.Rational(ast.get_source_segment(self.text, node) or repr(value))

    def _Name(self, node):
        if node.id == "pi":
            return self.sp.pi
        if node.id == "E":
            return self.sp.E
        if node.id in FUNCTIONS or node.id in REWRITTEN:
            _refuse(self.text, node, f"function '{node.id}' used without arguments", f"'{node.id}(...)'")
        return self.symbols[node.id]

    def _UnaryOp(self, node):
        value = self.convert(node.operand)
        if isinstance(node.op, ast.USub):
            return -value
        if isinstance(node.op, ast.UAdd):
            return value
        _refuse(self.text, node, f"unsupported operator {type(node.op).__name__}", "+, - in front of a term")

    def _BinOp(self, node):
        left, right = self.convert(node.left), self.convert(node.right)
        op = type(node.op)
        if op is ast.Add:
            return left + right
        if op is ast.Sub:
            return left - right
        if op is ast.Mult:
            return left * right
        if op is ast.Div:
            return left / right
        if op is ast.Pow:
            return left ** right
        _refuse(self.text, node, f"unsupported operator {type(node.op).__name__}", "+ - * / ** (or ^ for **)")

    def _Call(self, node):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name is None:
            _refuse(self.text, node.func, "unsupported call", "a function name such as exp(...)")
        if node.keywords:
            _refuse(self.text, node, f"keyword argument in '{name}(...)'", "positional arguments only")
        args = [self.convert(a) for a in node.args]
        if name in REWRITTEN:
            count, rewrite = REWRITTEN[name]
            if len(args) != count:
                names = ", ".join(("u", "v")[:count])
                _refuse(self.text, node, f"'{name}' takes {count} argument(s), got {len(args)}", f"{name}({names})")
            return rewrite(self.sp, *args)
        if name not in FUNCTIONS:
            why = (f"function '{name}' is not differentiable everywhere" if name in _NOT_SMOOTH
                   else f"unsupported function '{name}'")
            hint = "; write such an op by hand (opsdk new-op NAME --kind elementwise)" if name in _NOT_SMOOTH else ""
            _refuse(self.text, node.func, why, f"one of {', '.join(sorted([*FUNCTIONS, *REWRITTEN]))}{hint}")
        if len(args) != 1:
            _refuse(self.text, node, f"'{name}' takes 1 argument, got {len(args)}", f"{name}(x)")
        return self.functions[name](args[0])


def _names_in(tree):
    """Every name the formula uses, in order of first appearance (function names excluded)."""
    names = []
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in calls and node.id not in names:
            names.append(node.id)
    # ast.walk is breadth-first: sort by position for "first appearance"
    position = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in calls:
            position.setdefault(node.id, (node.lineno, node.col_offset))
    return sorted(names, key=position.get)


def _syntax_error(text, error):
    offset = (error.offset or 0) - 1  # Python reports 0 when the formula ended too soon
    match = re.match(r"\s*([A-Za-z_]\w*|\d[\d.eE+-]*|\*\*|\S)", text[offset:]) if offset >= 0 else None
    token = match[1] if match else "the end of the formula"
    where = f" at column {offset + 1}" if match else ""
    return FormulaError(f"cannot parse formula {shown(text)}: {error.msg}{where}; expected: a Python-style "
                        f"expression, e.g. {_EXAMPLE}; got: {token!r}")


def _refuse_keywords(text):
    """Refuse a Python keyword in a formula that does not parse, by name."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return  # the parser reports the problem, with its position
    for token in tokens:
        if token.type == tokenize.NAME and keyword.iskeyword(token.string):
            raise FormulaError(f"formula {text!r}: '{token.string}' at column {token.start[1] + 1} is a "
                               f"keyword of Python: formulas cannot use it, as a name or otherwise; "
                               f"expected: numbers, names, operators and function calls (a name such "
                               f"as '{token.string}1'); got: {token.string!r}")


def _carets_as_powers(text):
    """``x^2`` as ``x**2``, token by token, so ``^`` binds as tightly as a power (not as Python's xor)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text  # the parser reports the problem, with its position
    if not any(t.type == tokenize.OP and t.string == "^" for t in tokens):
        return text
    return tokenize.untokenize((t.type, "**" if t.type == tokenize.OP and t.string == "^" else t.string)
                               for t in tokens)


def parse_formula(text, inputs=("x",), attrs=None):
    """Parse ``text`` into a Formula; every symbol that is not an input is a float attribute.

    Args:
        text: e.g. ``"x * tanh(log(1 + exp(x)))"``.
        inputs: the names of the tensor inputs (``--input``), in order.
        attrs: attribute name -> default (``--attr beta=1.0``); attributes not given default to 1.0.

    Returns:
        Formula.

    Raises:
        FormulaError: the text does not parse, uses an unsupported function or syntax, an input
            does not appear in it, or a name cannot be used; the message names the token.

    Example::

        parse_formula("x * exp(-alpha * y * y)", inputs=("x", "y"), attrs={"alpha": 0.5})
    """
    sp = require_sympy()
    text, source, tree, inputs, values, notes = read_formula(text, inputs, attrs)
    symbols = {name: sp.Symbol(name, real=True) for name in (*inputs, *values)}
    expr = _Converter(sp, source, symbols).convert(tree)
    bad = unusable_part(expr)
    if bad is not None:
        part, why = bad
        raise FormulaError(f"formula {text!r}: SymPy makes part of it {part}, which {why}; expected: a "
                           f"formula of real numbers and functions smooth where it is used; got: {part}")
    return Formula(text=text, expr=expr, inputs=inputs, attrs=values, symbols=symbols, notes=notes)


def read_formula(text, inputs=("x",), attrs=None):
    """Every check of ``parse_formula`` that needs no SymPy, including the bounds on its size
    (``bounds``), so a refusal costs no SymPy import and no formula reaches SymPy unbounded.

    Returns:
        ``(text on one line, source the parser saw, its ast, inputs, {attribute: value}, notes)``.

    Raises:
        FormulaError: as ``parse_formula``, for everything but what SymPy makes of the formula.
    """
    attrs = dict(attrs or {})
    if not isinstance(text, str) or not text.strip():
        raise FormulaError(f"the formula is empty; expected: an expression, e.g. {_EXAMPLE}; got: {text!r}")
    text = " ".join(text.split())  # one line: it is quoted in docstrings and comments
    for at, char in enumerate(text):
        if char in "#\\":
            raise FormulaError(f"formula {text!r}: {char!r} at column {at + 1} has no place in a formula "
                               f"(no comments, no line continuations); expected: an expression, e.g. "
                               f"{_EXAMPLE}; got: {char!r}")
    check_length(text)
    source = _carets_as_powers(text)  # what the parser sees: messages quote it
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as error:
        _refuse_keywords(source)  # lambda * x: the parser would point past 'lambda'
        raise _syntax_error(source, error) from None
    except (RecursionError, MemoryError):  # Python's own parser gives up: far past MAX_DEPTH
        raise too_deep(text) from None
    check_tree(source, tree)
    inputs = tuple(inputs)
    if len(set(inputs)) != len(inputs):
        raise FormulaError(f"inputs {list(inputs)} name one input twice; expected: distinct names; "
                           f"got: {list(inputs)}")
    for name in inputs:
        check_symbol_name(name, "input")
    for name in attrs:
        check_symbol_name(name, "attribute")
        if name in inputs:
            raise FormulaError(f"{name!r} is both an input and an attribute; expected: one of them; "
                               f"got: --input {name} and --attr {name}=...")
    used = [n for n in _names_in(tree) if n not in CONSTANTS and n not in FUNCTIONS and n not in REWRITTEN]
    for name in used:
        if name not in inputs and name not in attrs:
            check_symbol_name(name, "attribute")
    missing = [n for n in inputs if n not in used]
    if missing:
        raise FormulaError(f"formula {text!r} does not use input {missing[0]!r}; expected: every "
                           f"--input in the formula; got: names {', '.join(used) or 'none'}")
    unused = [n for n in attrs if n not in used]
    if unused:
        raise FormulaError(f"formula {text!r} does not use attribute {unused[0]!r}; expected: every "
                           f"--attr in the formula; got: names {', '.join(used)}")
    notes = []
    values = {}
    for name in used:
        if name in inputs:
            continue
        if name in attrs:
            values[name] = check_attr(name, attrs[name])
        else:
            values[name] = 1.0
            euler = " (Euler's number is E)" if name == "e" else ""
            notes.append(f"'{name}' is an attribute with default 1.0{euler} (set another with --attr {name}=VALUE)")
    return text, source, tree, inputs, values, notes


def unusable_part(expr):
    """``(part, why)`` for the first part of ``expr`` no kernel can compute, or None.

    Such parts come from SymPy's own evaluation: 1/0 is zoo, sqrt(-2) and (-1)**(1/3) are not
    real, sqrt(x*x) is Abs(x) (not differentiable at 0), simplify may bring Piecewise.
    """
    import sympy

    walk = sympy.preorder_traversal(expr)
    infinite = (sympy.zoo, sympy.oo, sympy.S.NegativeInfinity, sympy.nan)
    for node in walk:
        if node in infinite:
            return node, "is infinite or undefined (a division by zero?)"
        if node.is_number or node.is_Add or node.is_Mul:
            # the constant part as a whole: sqrt(2)*I, not I
            constant = node if node.is_number else node.func(*(a for a in node.args if a.is_number))
            if constant.has(*infinite):
                return constant, "is infinite or undefined (a division by zero?)"
            if constant.is_number and complex(constant.evalf(30)).imag != 0:
                return constant, "is not a real number"
            if constant.is_number and beyond_float64(constant):
                return constant.evalf(5), "is beyond float64 (a kernel would compute inf)"
            if node.is_number:
                walk.skip()  # a real constant: printed as one float
        elif isinstance(node, sympy.Function):
            try:
                function_name(node)
            except ValueError:
                return node, (f"uses {type(node).__name__}, a function opsdk writes no kernels for "
                              f"(not differentiable everywhere, or missing from C and CUDA)")
        elif isinstance(node, (sympy.Piecewise, sympy.core.relational.Relational)):
            return node, "is piecewise (not differentiable everywhere)"
    return None


def parse_attr(text):
    """``"beta=1.5"`` -> ``("beta", 1.5)``, as ``--attr`` takes it."""
    name, sep, value = str(text).partition("=")
    name = name.strip()
    try:
        number = float(value)
    except ValueError:
        number = None
    if not sep or not name or number is None:
        raise FormulaError(f"--attr {text!r} is not NAME=VALUE; expected: e.g. --attr beta=1.5; got: {text!r}")
    return name, check_attr(name, number, f"--attr {text!r}")


def function_name(expr):
    """The maths name of a SymPy function application (``softplus``, ``log1p``, ``asin``, ...)."""
    name = type(expr).__name__
    name = _SYMPY_NAMES.get(name, name)
    if name not in FUNCTIONS.values() and name not in DERIVED_FUNCTIONS:
        raise ValueError(f"no code for the function {name!r}")
    return name
