"""Rendering a template tree: names are templates, only *.jinja renders, empty names drop files."""
import pytest

from opsdk.errors import TemplateError
from opsdk.scaffold.render import render_tree


def test_only_jinja_files_are_rendered_and_lose_their_suffix(template_tree):
    root = template_tree({"a.txt.jinja": "hello {{ who }}\n", "raw.txt": "hello {{ who }}\n"})
    assert render_tree(root, {"who": "world"}) == [("a.txt", b"hello world\n"),
                                                   ("raw.txt", b"hello {{ who }}\n")]


def test_file_and_directory_names_are_templates(template_tree):
    root = template_tree({"{{ pkg }}/{{ mod }}.py.jinja": "x = 1\n"})
    assert render_tree(root, {"pkg": "p", "mod": "m"}) == [("p/m.py", b"x = 1\n")]


def test_a_name_rendering_empty_drops_the_file(template_tree):
    root = template_tree({"{% if c %}k.c{% endif %}.jinja": "int x;\n", "k.py.jinja": "\n"})
    assert [path for path, _ in render_tree(root, {"c": False})] == ["k.py"]
    assert [path for path, _ in render_tree(root, {"c": True})] == ["k.c", "k.py"]


def test_a_directory_name_rendering_empty_drops_the_directory(template_tree):
    root = template_tree({"{% if gpu %}cuda{% endif %}/k.cu": "", "k.py": ""})
    assert [path for path, _ in render_tree(root, {"gpu": False})] == ["k.py"]


def test_block_tags_on_their_own_line_leave_no_blank_line(template_tree):
    root = template_tree({"f.jinja": "a\n{% if x %}\nb\n{% endif %}\nc\n"})
    assert render_tree(root, {"x": True}) == [("f", b"a\nb\nc\n")]
    assert render_tree(root, {"x": False}) == [("f", b"a\nc\n")]


def test_undefined_variable_is_an_error_naming_the_template(template_tree):
    root = template_tree({"dir/f.py.jinja": "{{ missing }}\n"})
    with pytest.raises(TemplateError, match="template dir/f.py.jinja: 'missing' is undefined"):
        render_tree(root, {})


def test_syntax_error_names_the_template_and_line(template_tree):
    root = template_tree({"f.jinja": "ok\n{% if %}\n"})
    with pytest.raises(TemplateError, match="template f.jinja, line 2"):
        render_tree(root, {})


def test_a_name_rendering_to_a_path_is_refused(template_tree):
    root = template_tree({"{{ name }}.txt": ""})
    with pytest.raises(TemplateError, match="renders to 'a/b.txt'; expected: one file or directory name"):
        render_tree(root, {"name": "a/b"})


def test_missing_template_directory_is_a_template_error(tmp_path):
    with pytest.raises(TemplateError, match="does not exist"):
        render_tree(tmp_path / "nowhere", {})
