"""Reading a Markdown file's blocks and markers: what runs, what is written out, what is refused."""
from .markdown_blocks import console_commands, doc_files, output_matches, parse, problems


def _doc(tmp_path, text):
    path = tmp_path / "doc.md"
    path.write_text(text)
    return parse(path)


def test_blocks_come_in_order_with_language_line_and_how_they_run(tmp_path):
    blocks = _doc(tmp_path, "intro\n\n```python\nx = 1\n```\n\n```\nlisting\n```\n\n```console\n$ ls\n```\n")
    assert [(b.lang, b.line, b.runs) for b in blocks] == [("python", 4, "python"), ("", 8, None),
                                                          ("console", 12, "console")]
    assert blocks[0].code == "x = 1\n"


def test_not_run_marker_keeps_a_block_from_running(tmp_path):
    (block,) = _doc(tmp_path, "<!-- not-run: needs a GPU -->\n```python\nimport cupy\n```\n")
    assert block.marker == ("not-run", "needs a GPU") and block.runs is None


def test_file_marker_writes_the_block_out(tmp_path):
    (block,) = _doc(tmp_path, "<!-- file: src/scale.c -->\n\n```c\nint x;\n```\n")
    assert block.runs == "file" and block.marker == ("file", "src/scale.c")


def test_indented_blocks_are_dedented(tmp_path):
    (block,) = _doc(tmp_path, "- item:\n\n  ```python\n  for i in range(2):\n      pass\n  ```\n")
    assert block.code == "for i in range(2):\n    pass\n"


def test_unknown_language_and_a_marker_without_reason_are_problems(tmp_path):
    blocks = _doc(tmp_path, "```pyhton\nx\n```\n<!-- not-run: -->\n```python\nx\n```\n")
    found = problems(blocks)
    assert len(found) == 2 and "unknown language 'pyhton'" in found[0] and "needs a reason" in found[1]


def test_console_commands_pair_each_command_with_its_output():
    code = "$ opsdk new-op x; echo \"exit code: $?\"\nError: ...\nexit code: 2\n$ ls \\\n  -l\n"
    assert console_commands(code) == [('opsdk new-op x; echo "exit code: $?"', ["Error: ...", "exit code: 2"]),
                                      ("ls \\\n  -l", [])]


def test_doc_files_are_found_by_where_they_live(tmp_path):
    for name in ("README.md", "docs/a.md", "docs/sub/b.md", "plugins/p/README.md", "plugins/p/other.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = [p.relative_to(tmp_path).as_posix() for p in doc_files(tmp_path)]
    assert found == ["README.md", "docs/a.md", "docs/sub/b.md", "plugins/p/README.md"]


def test_shown_output_must_be_what_was_printed_line_for_line():
    shown = ["Wrote pack 'p':", "  create  p/a.py"]
    assert output_matches(shown, "Wrote pack 'p':\n  create  p/a.py\n")
    assert not output_matches(shown, "Wrote pack 'p':\n  create  p/a.py\n  create  p/b.py\n")  # a line missing
    assert not output_matches(shown, "Wrote pack 'p':\n  create  p/b.py\n")                    # a line changed


def test_numbers_spaces_and_ellipses_match_what_varies_between_runs():
    assert output_matches(["45 passed, 34 skipped in 1.16s"], "111 passed, 2 skipped in 14.2s\n")
    assert output_matches(["45 passed in 1.16s"], "45 passed in 87.21s (0:01:27)\n")
    assert output_matches(["45 passed in 87.21s (0:01:27)"], "45 passed in 1.16s\n")
    assert output_matches(["ok    x  (0.1 s)"], "ok      x  (12 s)\n")
    assert output_matches(["Error: formula 'x': one of acos, ..."], "Error: formula 'x': one of acos, asin\n")
    assert output_matches(["first", "...", "last"], "first\na\nb\nlast\n")
    assert not output_matches(["softplus_grad2"], "softplus_grad3\n")  # digits inside a name are the name's
    assert not output_matches(["45 passed"], "45 failed\n")


def test_progress_lines_match_any_progress_lines():
    shown = ["..ss.. [ 91%]", ".       [100%]", "3 passed"]
    assert output_matches(shown, "....ss....sss [ 40%]\n.s..ssss... [ 80%]\n... [100%]\n3 passed\n")
