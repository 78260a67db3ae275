"""Directories given to new-pack and new-op: never empty, never longer than the file system takes."""
import os

import pytest

from opsdk.errors import InvalidPathError
from opsdk.scaffold import plan_pack, write_plan
from opsdk.scaffold.paths import check_directory, length_problem


def test_an_empty_directory_option_is_refused():
    with pytest.raises(InvalidPathError, match="--dir is empty; expected: a directory path"):
        check_directory("", "--dir")
    check_directory(None, "--dir")  # not given: the default


def test_a_name_longer_than_name_max_is_named(tmp_path):
    assert "its part 'aaaa" in length_problem(tmp_path / ("a" * 300) / "b")
    assert "NAME_MAX" in length_problem(tmp_path / ("a" * 300))


def test_a_path_longer_than_path_max_is_named(tmp_path):
    assert "PATH_MAX" in length_problem(tmp_path.joinpath(*["a" * 200] * 25))
    assert length_problem(tmp_path / "short") is None


def test_a_pack_whose_staging_directory_would_be_too_long_is_refused_before_writing(tmp_path):
    # the name itself fits NAME_MAX, the hidden staging directory beside it does not
    plan = plan_pack("longpk", tmp_path / ("p" * 250))
    with pytest.raises(InvalidPathError, match="too long for the file system"):
        write_plan(plan)
    assert os.listdir(tmp_path) == []
