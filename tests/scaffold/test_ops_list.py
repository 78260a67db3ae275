"""The OPS tuple of a pack's ops/__init__.py: read and extended the way new-op does it."""
import pytest

from opsdk.errors import ScaffoldError
from opsdk.scaffold.ops_list import add_op, listed_ops

GENERATED = 'import importlib\n\nOPS = (\n    "gelu",\n)\n\n\ndef register_all(register):\n    pass\n'


def test_listed_ops_reads_the_tuple():
    assert listed_ops(GENERATED, "ops/__init__.py") == ["gelu"]


def test_add_op_appends_one_line_before_the_closing_parenthesis():
    assert add_op(GENERATED, "swish", "p") == GENERATED.replace('"gelu",\n', '"gelu",\n    "swish",\n')


def test_add_op_to_the_empty_tuple_new_pack_writes():
    assert listed_ops(add_op("OPS = (\n)\n", "swish", "p"), "p") == ["swish"]


def test_add_op_adds_the_missing_trailing_comma():
    # without it, "gelu" "swish" would be one string: "geluswish"
    text = add_op('OPS = (\n    "gelu",\n    "relu"  # the last\n)\n', "swish", "p")
    assert listed_ops(text, "p") == ["gelu", "relu", "swish"]


def test_add_op_leaves_a_listed_op_alone():
    assert add_op(GENERATED, "gelu", "p") == GENERATED


def test_missing_tuple_is_an_error_saying_to_add_it_by_hand():
    with pytest.raises(ScaffoldError, match="has no OPS tuple.*by hand"):
        add_op("OPS = ['gelu']\n", "swish", "pkg/ops/__init__.py")


def test_one_line_tuple_is_an_error_saying_to_add_it_by_hand():
    with pytest.raises(ScaffoldError, match="one name per line.*add 'swish' to it by hand"):
        add_op('OPS = ("gelu",)\n', "swish", "p")


def test_unparsable_file_is_an_error_naming_the_line():
    with pytest.raises(ScaffoldError, match=r"p does not parse \(line 1"):
        listed_ops("OPS = (\n", "p")
