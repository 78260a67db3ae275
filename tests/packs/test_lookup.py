"""opsdk.ops: registered ops by short name, by pack, and by qualified name."""
import types

import pytest

import opsdk
import opsdk.ops
import opsdk.packs.loading as plugins
from opsdk.errors import AmbiguousOpError, OpNotFoundError
from opsdk.packs.hookspecs import hookimpl
from opsdk.packs.registry import TensorSpec


class Triple(opsdk.PyLayer):
    """Three times the input."""

    @staticmethod
    def forward(ctx, x):
        return x * 3

    @staticmethod
    def backward(ctx, dy):
        return dy * 3


def _pack(*names):
    @hookimpl
    def register_ops(register):
        for name in names:
            register(Triple, name=name, inputs=[TensorSpec(shape=(2,))])

    return types.SimpleNamespace(register_ops=register_ops)


@pytest.fixture
def packs():
    """Register in-process packs by name; all are unregistered afterwards."""
    registered = []

    def add(pack_name, *op_names):
        plugins.register_pack(_pack(*op_names), name=pack_name)
        registered.append(pack_name)

    try:
        yield add
    finally:
        for name in registered:
            plugins.unregister_pack(name)


def test_unique_short_name_calls_the_op(packs):
    packs("ops_a", "triple")
    assert opsdk.ops.triple(opsdk.to_tensor([1.0, 2.0])).numpy().tolist() == [3.0, 6.0]


def test_pack_attribute_reaches_its_ops(packs):
    packs("ops_a", "triple")
    assert opsdk.ops.ops_a.triple is opsdk.ops.get("ops_a.triple")


def test_short_name_clash_lists_the_candidates_and_qualified_names_still_work(packs):
    packs("ops_a", "triple")
    packs("ops_b", "triple")
    with pytest.raises(AmbiguousOpError, match="ops_a.triple, ops_b.triple"):
        opsdk.ops.triple
    assert opsdk.ops.ops_b.triple.pack == "ops_b"
    assert opsdk.ops.get("ops_a.triple").pack == "ops_a"


def test_name_that_is_a_pack_and_an_op_is_ambiguous(packs):
    packs("ops_a", "ops_b")
    packs("ops_b", "triple")
    with pytest.raises(AmbiguousOpError, match="'ops_b' is a pack and also the op 'ops_a.ops_b'"):
        opsdk.ops.ops_b


def test_unknown_op_is_an_attribute_error_with_suggestions(packs):
    packs("ops_a", "triple")
    with pytest.raises(OpNotFoundError, match="did you mean: triple"):
        opsdk.ops.tripel
    assert not hasattr(opsdk.ops, "no_such_op_anywhere")


def test_unknown_op_in_a_pack_is_an_attribute_error(packs):
    packs("ops_a", "triple")
    with pytest.raises(AttributeError, match="no op named 'ops_a.double'"):
        opsdk.ops.ops_a.double


def test_private_names_never_load_packs(monkeypatch):
    monkeypatch.setattr(plugins.manager._state, "registry", None)
    with pytest.raises(AttributeError):
        opsdk.ops.__wrapped__
    with pytest.raises(AttributeError):
        opsdk.ops._private
    assert plugins.manager._state.registry is None


def test_dir_lists_packs_and_unambiguous_short_names(packs):
    packs("ops_a", "triple", "quad")
    packs("ops_b", "triple")
    names = dir(opsdk.ops)
    assert {"get", "ops_a", "ops_b", "quad"} <= set(names) and "triple" not in names
    assert dir(opsdk.ops.ops_a) == ["quad", "triple"]


def test_private_names_of_a_pack_are_not_ops(packs):
    packs("ops_a", "triple")
    with pytest.raises(AttributeError, match="'opsdk.ops.ops_a' has no attribute '_private'"):
        opsdk.ops.ops_a._private


def test_pack_namespace_repr_names_the_pack(packs):
    packs("ops_a", "triple")
    assert repr(opsdk.ops.ops_a) == "<ops of pack 'ops_a'>"
