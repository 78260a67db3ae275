"""The registry: packs, ops by qualified and short name, failures."""
import pytest

from opsdk.errors import AmbiguousOpError, OpNotFoundError, PackNotFoundError, RegistrationError
from opsdk.packs.loading.failures import PluginFailure
from opsdk.packs.registry import PackInfo, Registry, TensorSpec, build_opinfo

from .conftest import Swish


def _pack(name, *ops, distribution=None, version=None):
    infos = tuple(build_opinfo(name, version, distribution, Swish,
                               {"name": op, "inputs": [TensorSpec(shape=(2,))]}) for op in ops)
    return PackInfo(name, distribution, version, infos)


def _registry(*packs):
    registry = Registry()
    for pack in packs:
        registry.add_pack(pack)
    return registry


def test_ops_are_sorted_by_qualified_name():
    registry = _registry(_pack("zeta", "b", "a"), _pack("alpha", "c"))
    assert [op.qualname for op in registry.ops()] == ["alpha.c", "zeta.a", "zeta.b"]


def test_qualified_and_unique_short_names_find_the_same_op():
    registry = _registry(_pack("mypack", "swish"))
    assert registry.get("swish") is registry.get("mypack.swish")


def test_short_name_of_two_packs_is_ambiguous_and_lists_both():
    registry = _registry(_pack("a", "swish"), _pack("b", "swish"))
    with pytest.raises(AmbiguousOpError, match="expected: one of the qualified names a.swish, b.swish"):
        registry.get("swish")
    assert registry.get("b.swish").pack == "b"


def test_short_name_is_unambiguous_again_once_the_other_pack_is_removed():
    registry = _registry(_pack("a", "swish"), _pack("b", "swish"))
    registry.remove_pack("a")
    assert registry.get("swish").qualname == "b.swish" and registry.short_names() == ["swish"]


def test_unknown_name_suggests_close_ones():
    with pytest.raises(OpNotFoundError, match="did you mean: swish"):
        _registry(_pack("mypack", "swish")).get("swihs")


def test_not_found_is_an_attribute_and_lookup_error():
    with pytest.raises(AttributeError):
        Registry().get("nothing")
    with pytest.raises(LookupError):
        Registry().get("nothing")


def test_pack_name_clash_names_both_sources():
    registry = _registry(_pack("mypack", "a", distribution="first-dist", version="1.0"))
    with pytest.raises(RegistrationError, match=r"pack 'mypack' \(second-dist 2.0\) clashes with .*first-dist 1.0"):
        registry.add_pack(_pack("mypack", "b", distribution="second-dist", version="2.0"))
    assert [op.qualname for op in registry.ops()] == ["mypack.a"]


def test_packs_are_listed_in_load_order():
    assert [p.name for p in _registry(_pack("z"), _pack("a")).packs()] == ["z", "a"]


def test_unknown_pack_is_an_error_listing_the_loaded_ones():
    with pytest.raises(PackNotFoundError, match="expected: one of z; got: 'q'"):
        _registry(_pack("z")).pack("q")


def test_removing_an_unknown_pack_returns_none():
    assert Registry().remove_pack("ghost") is None


def test_failures_are_recorded_and_forgotten_per_pack():
    registry = Registry()
    for pack in ("bad", "worse", "bad"):
        registry.record_failure(PluginFailure.capture(pack, None, None, "import", ImportError(pack)))
    assert registry.forget_failures("bad") == 2
    assert [f.pack for f in registry.failures()] == ["worse"]


def test_pack_source_label():
    assert _pack("p", distribution="p-dist", version="1.0").source == "p-dist 1.0"
    assert _pack("p").source == "in-process"
