import pytest

from fixtures.packs import registered
from opsdk.verification.check import select_ops
from opsdk.errors import OpNotFoundError, PackNotFoundError


def test_no_names_selects_every_op_of_the_pack():
    with registered("good_pack", "goodpack"):
        ops, failures = select_ops(packs=["goodpack"])
    assert [op.name for op in ops] == ["cube", "leaky", "mul", "pick", "sincos", "swish"]
    assert failures == []


def test_named_ops_are_selected_once_each():
    with registered("good_pack", "goodpack"):
        ops, _ = select_ops(["goodpack.cube", "goodpack.mul", "goodpack.cube"])
    assert [op.qualname for op in ops] == ["goodpack.cube", "goodpack.mul"]


def test_pack_that_failed_to_import_comes_back_as_a_failure():
    with registered("broken_pack", "brokenpack"):
        ops, failures = select_ops(packs=["brokenpack"])
        by_name = select_ops(["brokenpack.anything"])
    assert ops == [] and [f.pack for f in failures] == ["brokenpack"]
    assert [f.pack for f in by_name[1]] == ["brokenpack"]


def test_unknown_op_raises_with_suggestions():
    with registered("good_pack", "goodpack"):
        with pytest.raises(OpNotFoundError, match="goodpack.cube"):
            select_ops(["goodpack.cubee"])


def test_unknown_pack_raises():
    with pytest.raises(PackNotFoundError):
        select_ops(packs=["no_such_pack"])
