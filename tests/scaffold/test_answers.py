"""The answers file: finding the pack it marks, and refusing damaged ones."""
import json

import pytest

from opsdk.errors import NotAPackError
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
