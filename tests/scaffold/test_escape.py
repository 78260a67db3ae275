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
