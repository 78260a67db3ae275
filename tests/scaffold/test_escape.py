"""Free text in generated code: a docstring or a comment holds it, whatever it is, and runs nothing."""
import ast

import pytest

from opsdk.scaffold.escape import c_comment, docstring

HOSTILE = ['""" + __import__("os").system("x") + """', "a\\\\b\\", "x */ evil(); /* y", "ends with a quote\"",
           "nul\x00 bel\x07 esc\x1b", "ü 𝔁"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_docstring_holds_any_text_and_reads_as_it(text):
    module = ast.parse(f'"""f = {docstring(text)}, elementwise."""\nx = 1\n')
    assert ast.get_docstring(module, clean=False) == f"f = {text}, elementwise."
    assert len(module.body) == 2


@pytest.mark.parametrize("text", HOSTILE)
def test_a_c_comment_holds_any_text_without_ending_or_opening_one(text):
    inside = c_comment(text)
    assert "*/" not in inside and "/*" not in inside and "\x00" not in inside


def test_the_formula_template_keeps_hostile_free_text_inside_its_docstrings_and_comments():
    pytest.importorskip("sympy")
    from opsdk.scaffold import templates_dir
    from opsdk.scaffold.context import op_context
    from opsdk.scaffold.formula import formula_context
    from opsdk.scaffold.render import render_tree

    pack = {"name": "evilpk", "package": "evilpk", "distribution": "opsdk-evilpk"}
    context = {**op_context(pack, "f", ("python", "c", "cuda"), "1"), "kind": "elementwise",
               **formula_context("f", "x * x", backends=("python", "c", "cuda"))}
    hostile = '""" + boom() + """ */ boom(); /* \\'
    context.update(summary=hostile, command=hostile, derivation=[hostile], stable_note=[hostile])
    files = dict(render_tree(templates_dir() / "op-formula", context))
    module = ast.parse(files["src/evilpk/ops/f.py"].decode())
    assert hostile in ast.get_docstring(module, clean=False)
    assert not any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "boom" for n in ast.walk(module))
    assert not any(path.endswith((".c", ".cu")) for path in files)  # kernels come from c_bodies
