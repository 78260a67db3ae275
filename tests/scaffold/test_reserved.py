"""The op names the templates keep for themselves: read from the templates, so they cannot drift."""
import ast
import shutil

import pytest

from opsdk.scaffold import templates_dir
from opsdk.scaffold.reserved import _template_names, module_names, reserved_because


def _ast_names(source):
    """What a module binds at its top level, by Python's own parser (the reference)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {a.asname or a.name.split(".")[0] for a in node.names if a.name != "*"}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in getattr(node, "targets", [getattr(node, "target", None)]):
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                names |= {e.id for e in elements if isinstance(e, ast.Name)}
    return names


SOURCES = [
    "import numpy as np, os.path\nfrom a.b import (c, d as e)\nfrom f import *\n",
    '"""doc: x = 1"""\nOP = Elementwise("p.op", inputs=("x",)).c("op.c")\nA, B = 1, 2\nC: int = 3\n',
    "@hookimpl\ndef register(r):\n    inner = 1\n    import json\n\n\nclass K(Base):\n    y = 2\n",
    "x.attr = 1\nitems[0] = 2\nf = lambda u: u\nasync def g():\n    pass\n",
]


@pytest.mark.parametrize("source", SOURCES)
def test_module_names_from_tokens_agree_with_pythons_parser(source):
    assert module_names(source) == _ast_names(source)


def test_module_names_of_a_module_whose_bodies_rendered_empty():
    # a template rendered without its formula's variables: the functions have no body
    assert module_names("import opsdk\n\n\ndef value(m, ):\n\n\ndef grad(m, ):\n\nOP = make()\n") == \
        {"opsdk", "value", "grad", "OP"}


def test_the_reserved_names_are_what_the_shipped_templates_bind():
    ops_init, module = _template_names(str(templates_dir()))
    assert {"OPS", "register_all", "importlib"} <= ops_init
    assert {"OP", "Elementwise", "TensorSpec", "value", "grad", "grad2", "register_op"} <= module


def test_a_name_a_template_starts_binding_is_reserved_at_once(tmp_path, monkeypatch):
    copy = tmp_path / "templates"
    shutil.copytree(templates_dir(), copy)
    init = next(copy.glob("pack/src/*/ops/__init__.py.jinja"))
    init.write_text(init.read_text() + "\nSHINY_NEW = 1\n")
    monkeypatch.setenv("OPSDK_TEMPLATES_DIR", str(copy))
    assert "ops/__init__.py binds it" in reserved_because("SHINY_NEW")
    assert reserved_because("shiny_old") is None
