"""Running one file's blocks in order: state carries over, and a block that misbehaves fails."""
import pytest

from .doc_session import BlockFailed, DocSession
from .markdown_blocks import parse


def _run(tmp_path, text):
    tmp_path.mkdir(parents=True, exist_ok=True)
    doc = tmp_path / "doc.md"
    doc.write_text(text)
    session = DocSession(doc, tmp_path / "session")
    try:
        for block in parse(doc):
            if block.runs:
                session.run(block)
    finally:
        session.close()
    return session


def test_python_blocks_share_one_namespace_in_order(tmp_path):
    _run(tmp_path, "```python\nx = 2\n```\ntext\n```python\nassert x == 2\n```\n")


def test_a_failing_python_block_names_its_line_in_the_doc(tmp_path):
    with pytest.raises(BlockFailed, match=r"(?s)doc.md:6.*NameError: name 'undefined'") as caught:
        _run(tmp_path, "```python\nx = 1\n```\n\n```python\nundefined\n```\n")
    assert "line 6" in str(caught.value)


def test_shell_state_carries_over_and_files_are_written_where_the_shell_is(tmp_path):
    _run(tmp_path, "```bash\nmkdir sub && cd sub\nexport GREETING=hi\n```\n"
                   "<!-- file: note.txt -->\n```text\nwritten\n```\n"
                   "```python\nimport os\nassert open('note.txt').read() == 'written\\n'\n"
                   "assert os.path.basename(os.getcwd()) == 'sub' and os.environ['GREETING'] == 'hi'\n```\n")


def test_a_failing_shell_line_fails_the_block(tmp_path):
    with pytest.raises(BlockFailed, match="exit status 3"):
        _run(tmp_path, "```bash\n(exit 3)\necho never\n```\n")


def test_console_exit_code_lines_must_match(tmp_path):
    _run(tmp_path, '```console\n$ (exit 2); echo "exit code: $?"\nexit code: 2\n```\n')
    with pytest.raises(BlockFailed, match="printed no 'exit code: 0'"):
        _run(tmp_path / "again", '```console\n$ (exit 2); echo "exit code: $?"\nexit code: 0\n```\n')


def test_opsdk_and_pip_are_the_docs_venv_s(tmp_path):
    _run(tmp_path, "```console\n$ opsdk --version\nopsdk, version 0.1.0\n$ pip --version\npip ...\n```\n"
                   "```python\nimport sys, os\nassert sys.prefix == os.environ['VIRTUAL_ENV']\n```\n")


def test_console_output_must_be_what_the_doc_shows(tmp_path):
    _run(tmp_path, "```console\n$ echo one; echo two >&2; echo 3\none\ntwo\n3\n```\n")
    with pytest.raises(BlockFailed, match="printed other than the doc shows"):
        _run(tmp_path / "again", "```console\n$ echo one; echo two\none\n```\n")
