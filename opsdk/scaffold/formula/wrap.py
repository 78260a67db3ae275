"""Long generated lines broken where a reader expects it: before a binary + or -, after a comma.

The printers put spaces only around binary + and - and after commas, so breaking at a space never
splits a name, a number or a function call's name from its parenthesis.
"""
WIDTH = 99


def _units(expr):
    """The expression's words, each + or - kept with the operand after it."""
    units = []
    for word in expr.split(" "):
        if units and units[-1] in ("+", "-"):
            units[-1] += " " + word
        else:
            units.append(word)
    return units


def _packed(first, units, continuation, width):
    """Units packed greedily into lines, the first starting with ``first``."""
    lines, current, empty = [], first, True
    for unit in units:
        if empty:
            current += unit
            empty = False
        elif len(current) + 1 + len(unit) > width:
            lines.append(current)
            current = continuation + unit
        else:
            current += " " + unit
    return lines + [current]


def python_lines(line, indent, width=WIDTH):
    """``name = expr`` or ``return expr`` as lines of at most ``width`` (indent included): the
    expression in parentheses, continued under its first character."""
    if indent + len(line) <= width:
        return [line]
    head, expr = _split(line)
    first = f"{head}("
    lines = _packed(first, _units(expr), " " * len(first), width - indent)
    lines[-1] += ")"
    return lines


def text_lines(text, width, continuation="    "):
    """Prose or a formula (a comment's ``df/dx = ...``) as lines of at most ``width``."""
    if len(text) <= width:
        return [text]
    return _packed("", _units(text), continuation, width)


def _split(line):
    """(``"name = "`` or ``"return "``, the expression) of a generated line."""
    if line.startswith("return "):
        return "return ", line[len("return "):]
    name, _, expr = line.partition(" = ")
    return f"{name} = ", expr
