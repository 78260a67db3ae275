"""Reading and extending the OPS tuple of a pack's ``ops/__init__.py``: how an op joins its pack."""
import ast

from ..errors import ScaffoldError

_FORM = 'OPS = (\\n    "op_name",\\n    ...\\n)  -- as `opsdk new-pack` writes it'


def _ops_node(text, path):
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        raise ScaffoldError(f"{path} does not parse (line {error.lineno}: {error.msg}); expected: "
                            "valid Python with an OPS tuple; fix it, then run new-op again") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["OPS"]:
            if isinstance(node.value, ast.Tuple) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts):
                return node.value
            break
    raise ScaffoldError(f"{path} has no OPS tuple of op names; expected: {_FORM}; got: none; "
                        "add the op's name to it by hand")


def listed_ops(text, path):
    """The op names in the OPS tuple."""
    return [e.value for e in _ops_node(text, path).elts]


def add_op(text, op, path):
    """``text`` with ``op`` appended to the OPS tuple (unchanged when it is listed already).

    Raises:
        ScaffoldError: no OPS tuple, or one not in the one-name-per-line form new-pack writes.
    """
    node = _ops_node(text, path)
    if op in [e.value for e in node.elts]:
        return text
    lines = text.splitlines(keepends=True)
    closing = lines[node.end_lineno - 1]
    if closing.strip() != ")" or node.lineno == node.end_lineno:
        raise ScaffoldError(f"{path}: the OPS tuple is not one name per line with ')' on a line of "
                            f"its own; expected: {_FORM}; got: {closing.strip()!r}; add "
                            f"'{op}' to it by hand")
    if node.elts:
        last = node.elts[-1]
        row = lines[last.end_lineno - 1]
        # without a trailing comma the new name would silently concatenate with the last one
        if not row[last.end_col_offset:].lstrip().startswith(","):
            lines[last.end_lineno - 1] = row[:last.end_col_offset] + "," + row[last.end_col_offset:]
    lines.insert(node.end_lineno - 1, f'    "{op}",\n')
    return "".join(lines)
