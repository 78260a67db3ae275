"""The op names the templates themselves use, read from the rendered templates (never a hand list).

An op's name lands in two namespaces the templates also fill: its module becomes an attribute
of the pack's ``ops`` package (so it must not be a name ``ops/__init__.py`` binds: ``OPS``,
``register_all``, ...), and its Function class is defined in its own module (so the class name
must not be one that module binds: ``OP``, ``Elementwise``, ...). Both sets come from the
templates rendered for a probe op, every kind and every backend, so a template that starts
binding a new name reserves it at once.
"""
import functools
import io
import tokenize
from pathlib import Path

from .context import op_context, pack_context
from .locate import template_version, templates_dir
from .names import BACKENDS, class_name
from .render import render_tree

_PROBE_PACK = {"name": "zzprobe", "package": "zzprobe", "distribution": "opsdk-zzprobe"}
_PROBE_OP = "zzprobe_op"
_SCOPES = ("def", "class")


def _bindings(statement):
    """Names one logical line binds when it runs at module level (tokens at bracket depth 0)."""
    words = [t.string for t in statement]
    if not words:
        return set()
    first = words[1] if words[0] == "async" and len(words) > 1 else words[0]
    if first in _SCOPES:
        return {words[words.index(first) + 1]}
    if first == "import":
        return {(part[-1] if "as" in part else part[0]) for part in _split(words[1:])}
    if first == "from" and "import" in words:
        names = [w for w in words[words.index("import") + 1:] if w not in ("(", ")")]
        return {part[-1] for part in _split(names) if part and part[-1] != "*"}
    if first == "@":
        return set()
    bound, depth, target = set(), 0, []
    for token in statement:
        if token.string in ("(", "[", "{"):
            depth += 1
        elif token.string in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and token.string in ("=", ":"):
            # a, b = ...; x: T = ...: the plain names before the sign (not a.b, not a[i])
            bound |= {t.string for i, t in enumerate(target) if t.type == tokenize.NAME
                      and (i + 1 == len(target) or target[i + 1].string == ",")
                      and (i == 0 or target[i - 1].string == ",")}
            if token.string == ":":
                break
            target = []
            continue
        target.append(token)
    return bound


def _split(words):
    """``a.b as c, d`` -> ``[["a", ".", "b", "as", "c"], ["d"]]``."""
    parts, current = [], []
    for word in words:
        if word == ",":
            parts.append(current)
            current = []
        else:
            current.append(word)
    return [*parts, current] if current else parts


def module_names(source):
    """The names a Python module binds at module level: imports, defs, classes, assignments.

    Read from tokens, so a module whose function bodies rendered empty (a template rendered
    without every variable) still gives its names.

    Example::

        module_names("import numpy as np\\nOP = 1\\ndef f():\\n    x = 2\\n")   # {'np', 'OP', 'f'}
    """
    names, statement, blocks, header = set(), [], [], False
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.INDENT:
            blocks.append(header or (blocks[-1] if blocks else False))
        elif token.type == tokenize.DEDENT:
            blocks.pop()
        elif token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            if not any(blocks):  # inside no def or class: the statement runs at module level
                names |= _bindings(statement)
            header = bool(statement) and statement[0].string in (*_SCOPES, "async", "@")
            statement = []
        elif token.type not in (tokenize.NL, tokenize.COMMENT):
            statement.append(token)
    return names


def _python_file(rendered, path):
    return next(content.decode("utf-8") for name, content in rendered if name == path)


@functools.lru_cache(maxsize=8)
def _template_names(root):
    """``(names of ops/__init__.py, names of an op's module, of any kind)`` for templates at ``root``."""
    root = Path(root)
    version = template_version(root)
    package = _PROBE_PACK["package"]
    init_path, module_path = f"src/{package}/ops/__init__.py", f"src/{package}/ops/{_PROBE_OP}.py"
    pack = render_tree(root / "pack", pack_context(_PROBE_PACK, version), only={init_path})
    ops_init = module_names(_python_file(pack, init_path))
    context = op_context(_PROBE_PACK, _PROBE_OP, BACKENDS, version)
    module = set()
    for template in sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith("op")):
        rendered = render_tree(template, {**context, "kind": template.name}, lenient=True, only={module_path})
        module |= module_names(_python_file(rendered, module_path))
    return frozenset(ops_init), frozenset(module - {context["class_name"]})


def reserved_because(op):
    """Why the templates keep ``op`` from being an op's name, or None.

    Example::

        reserved_because("OPS")     # 'the pack's src/<package>/ops/__init__.py binds it ...'
    """
    ops_init, module = _template_names(str(templates_dir()))
    if op in ops_init:
        return (f"the pack's src/<package>/ops/__init__.py binds it, and an op module of that name "
                f"would replace it there")
    if class_name(op) in module:
        return (f"the op's Function class would be named {class_name(op)!r}, a name the generated "
                f"src/<package>/ops/{op}.py binds itself")
    return None
