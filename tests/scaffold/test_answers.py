"""The answers file: finding the pack it marks, and refusing damaged ones."""
import json

import pytest

from opsdk.errors import AnswersFileError, InvalidPathError, NotAPackError
from opsdk.scaffold.answers import ANSWERS_FILE, find_pack_root, read_answers


def test_find_pack_root_walks_up_from_inside_the_pack(pack_dir):
    assert find_pack_root(pack_dir / "src" / "packdemo" / "ops") == pack_dir.resolve()


def test_find_pack_root_outside_a_pack_says_how_to_make_one(tmp_path):
    with pytest.raises(NotAPackError, match="not inside an opsdk pack.*opsdk new-pack NAME.*--pack DIR"):
        find_pack_root(tmp_path)


def test_find_pack_root_of_a_missing_directory_says_so(tmp_path):
    with pytest.raises(NotAPackError, match="does not exist"):
        find_pack_root(tmp_path / "nowhere")


def test_read_answers_returns_the_pack_and_its_ops(pack_dir):
    answers = read_answers(pack_dir)
    assert answers["pack"] == {"name": "packdemo", "package": "packdemo", "distribution": "opsdk-packdemo"}
    assert answers["ops"] == {}


def test_damaged_answers_name_the_missing_fields(pack_dir):
    (pack_dir / ANSWERS_FILE).write_text(json.dumps({"pack": {"name": "packdemo"}}))
    with pytest.raises(NotAPackError, match="damaged.*missing package, distribution"):
        read_answers(pack_dir)


def test_answers_that_are_not_json_are_refused(pack_dir):
    (pack_dir / ANSWERS_FILE).write_text("{")
    with pytest.raises(NotAPackError, match="cannot be read"):
        read_answers(pack_dir)


@pytest.mark.parametrize("field, value", [
    ("name", 'packdemo"; import os #'), ("name", "class"), ("package", "pack.demo"),
    ("distribution", 'opsdk-x"\nname = "evil'), ("opsdk_version", '0.1"; evil = "'),
    ("template_version", "1\n[tool.evil]"), ("ops", {"bad name": {}}), ("ops", {"swish": "not a table"}),
])
def test_every_value_new_op_takes_from_the_file_is_checked_like_command_line_input(pack_dir, field, value):
    answers = json.loads((pack_dir / ANSWERS_FILE).read_text())
    if field in ("name", "package", "distribution"):
        answers["pack"][field] = value
    else:
        answers[field] = value
    (pack_dir / ANSWERS_FILE).write_text(json.dumps(answers))
    with pytest.raises(AnswersFileError, match="cannot be used") as caught:
        read_answers(pack_dir)
    assert ANSWERS_FILE in str(caught.value)


def test_an_empty_pack_directory_is_refused_not_taken_for_the_current_one():
    with pytest.raises(InvalidPathError, match="--pack is empty"):
        find_pack_root("")


def test_a_pack_directory_too_long_for_the_file_system_is_refused(tmp_path):
    with pytest.raises(NotAPackError, match="cannot be used"):
        find_pack_root(tmp_path / ("d" * 300))
