"""Bounds on a formula, checked before SymPy sees it, so its work stays small.

SymPy computes exactly: ``9**9**9`` is an integer of 370 million digits, ``1e400`` a rational it
then cannot turn into a float, a sum of thousands of terms a tree Python cannot parse or
differentiate without running out of stack. These checks read only the syntax tree (and
evaluate its constant parts in floats), so they answer at once; what is left to SymPy runs in a
child process with a time budget (``worker``).
"""
import ast
import math

from ...errors import FormulaError

MAX_LENGTH = 1000      # characters: a formula is a line, not a program
MAX_NODES = 300        # values, names, operations and calls
MAX_DEPTH = 60         # nesting of the syntax tree (a sum of n terms is n deep)
MAX_CALLS = 12         # functions of functions of ... (each one multiplies the derivatives' size)
MAX_EXPONENT = 100     # |p| of a constant exponent: x**p, c**p
_LARGEST = 1.7976931348623157e308
_EXAMPLE = "'x * tanh(log(1 + exp(x)))'"


def _refuse(text, what, expected, got):
    raise FormulaError(f"formula {shown(text)}: {what}; expected: {expected}; got: {got}")


def shown(text):
    """``text`` quoted, cut in the middle when it is long."""
    return repr(text) if len(text) <= 80 else repr(text[:60] + " ... " + text[-15:])


def check_length(text):
    """Refuse a formula longer than MAX_LENGTH characters (before it is parsed)."""
    if len(text) > MAX_LENGTH:
        _refuse(text, f"it is {len(text)} characters long", f"at most {MAX_LENGTH}, e.g. {_EXAMPLE}",
                f"{len(text)} characters")


def too_deep(text):
    """The error for a formula nested deeper than Python's parser goes."""
    return FormulaError(f"formula {shown(text)}: it is nested too deeply to parse; expected: at most "
                        f"{MAX_DEPTH} levels of nesting; got: more than Python's parser allows")


def check_attr(name, value, where=None):
    """``value`` as a float, refused unless finite (the op is verified at it)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number):
        raise FormulaError(f"{where or 'attribute ' + repr(name)}: {value!r} is not a finite number; "
                           f"expected: a finite float, e.g. {name}=1.5 (the op is verified at it); "
                           f"got: {value!r}")
    return number


def _constant(node, values):
    """The float value of a constant subtree (already evaluated children in ``values``), inf where
    it overflows float64, or None: not constant, or not a real number SymPy should judge."""
    if isinstance(node, ast.Constant):
        return values.get(id(node))
    if isinstance(node, ast.Name):
        return {"pi": math.pi, "E": math.e}.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = values.get(id(node.operand))
        return None if operand is None else (-operand if isinstance(node.op, ast.USub) else operand)
    if isinstance(node, ast.BinOp):
        left, right = values.get(id(node.left)), values.get(id(node.right))
        if left is None or right is None:
            return None
        operation = {ast.Add: float.__add__, ast.Sub: float.__sub__, ast.Mult: float.__mul__,
                     ast.Div: float.__truediv__, ast.Pow: float.__pow__}.get(type(node.op))
        try:
            result = operation(float(left), float(right)) if operation else None
        except OverflowError:
            return math.inf
        except (ZeroDivisionError, ValueError):
            return None  # 1/0, log(0): SymPy names them (zoo) with the part they came from
        if isinstance(result, complex) or result is NotImplemented:
            return None
        return result
    return None


def check_tree(text, tree):
    """Refuse a formula whose syntax tree is too large or too deep, whose calls nest too deeply,
    or whose constants (as written or computed) are beyond float64 or whose constant exponents
    are too large to compute exactly."""
    nodes, values = 0, {}
    # depth-first without recursion: (node, depth, calls around it, children done)
    stack = [(tree.body, 1, 0, False)]
    while stack:
        node, depth, calls, done = stack.pop()
        if not done:
            nodes += 1
            if nodes > MAX_NODES:
                _refuse(text, "it is too large", f"at most {MAX_NODES} numbers, names, operations and "
                        f"calls", f"more than {MAX_NODES}")
            if depth > MAX_DEPTH:
                _refuse(text, "it is nested too deeply", f"at most {MAX_DEPTH} levels (a sum of n terms "
                        f"is n levels)", f"more than {MAX_DEPTH}")
            inner = calls + isinstance(node, ast.Call)
            if inner > MAX_CALLS:
                _refuse(text, "its functions are nested too deeply", f"at most {MAX_CALLS} functions "
                        f"inside one another", f"more than {MAX_CALLS}")
            stack.append((node, depth, calls, True))
            stack.extend((child, depth + 1, inner, False) for child in ast.iter_child_nodes(node)
                         if isinstance(child, ast.expr))
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            values[id(node)] = _literal(text, node)
        else:
            value = _constant(node, values)
            if value is not None:
                values[id(node)] = value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = values.get(id(node.right))
            if exponent is not None and abs(exponent) > MAX_EXPONENT:
                _refuse(text, f"the exponent of {_segment(text, node)} is {exponent:g}",
                        f"constant exponents of at most {MAX_EXPONENT} in size (SymPy computes powers "
                        f"exactly)", f"{exponent:g}")
        value = values.get(id(node))
        if value is not None and abs(value) > _LARGEST:
            _refuse(text, f"{_segment(text, node)} is beyond float64", f"constants of at most "
                    f"{_LARGEST:.4g} in size", f"{_segment(text, node)}")


def beyond_float64(constant):
    """Whether a SymPy number is larger in size than float64 holds."""
    return bool(abs(constant.evalf(20)) > _LARGEST)


def _literal(text, node):
    """A number as written, as a float; refused where float64 cannot hold it."""
    written = ast.get_source_segment(text, node) or repr(node.value)
    try:
        value = float(node.value)
    except OverflowError:
        value = math.inf
    if math.isinf(value):
        _refuse(text, f"the number {written[:30]} is beyond float64", f"numbers of at most "
                f"{_LARGEST:.4g} in size", written[:30])
    if value == 0 and any(c in "123456789" for c in written.lower().split("e")[0]):
        _refuse(text, f"the number {written[:30]} is below float64's smallest (it would be 0)",
                "numbers of at least 4.9e-324 in size, or 0", written[:30])
    return value


def _segment(text, node):
    segment = ast.get_source_segment(text, node) or "a part"
    return segment if len(segment) <= 40 else segment[:37] + "..."
